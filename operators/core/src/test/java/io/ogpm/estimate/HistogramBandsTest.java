package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The histogram band: which mechanisms have one, its consistency, and what it says on exact
 * expected counts.
 */
class HistogramBandsTest {
  private static Mechanism classical(MechanismType type, double eps) {
    return MechanismCatalog.of(
        MechanismSpec.builder().type(type).epsilon(eps).domain(Domain.classical(-2, 3)).build());
  }

  /**
   * Counts exactly n times the bins' probabilities for inputs spread as {@code weights} over {@code
   * inputs}.
   */
  private static long[] expectedCounts(
      BinnedKernel kernel, long n, double[] inputs, double[] weights) {
    double[] p = new double[kernel.bins()];
    for (int i = 0; i < inputs.length; i++) {
      double[] q = kernel.probabilities(inputs[i]);
      for (int o = 0; o < p.length; o++) {
        p[o] += weights[i] * q[o];
      }
    }
    long[] counts = new long[p.length];
    for (int o = 0; o < p.length; o++) {
      counts[o] = Math.round(n * p[o]);
    }
    return counts;
  }

  @Test
  void piecewiseMechanismsHaveABandOthersNone() {
    for (MechanismType type : MechanismType.values()) {
      if (type.supportsClassical()) {
        Mechanism m = classical(type, 1);
        assertThat(HistogramBands.of(m, FieldBinning.of(m, 10)) != null)
            .as(type.id())
            .isEqualTo(m.isPiecewise());
      }
    }
    assertThat(classical(MechanismType.T_LAPLACE, 1).isPiecewise()).isFalse();
    Mechanism circle =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(1).domain(Domain.circular(0, 360)).build());
    assertThat(HistogramBands.of(circle, FieldBinning.of(circle, 12))).isNotNull();
    // A classical mechanism on a circle is not rotation invariant: no certified band.
    Mechanism flattened =
        MechanismCatalog.of(
            MechanismSpec.builder()
                .type(MechanismType.PM)
                .epsilon(1)
                .domain(Domain.circular(0, 360))
                .build());
    assertThat(HistogramBands.of(flattened, FieldBinning.of(flattened, 12))).isNull();
  }

  @Test
  void onExactCountsTheBandHoldsThePointMassAndRulesOutTheFarBins() {
    for (double eps : new double[] {1, 4}) {
      Mechanism m = classical(MechanismType.OGPM, eps);
      FieldBinning binning = FieldBinning.of(m, 20);
      HistogramBands bands = HistogramBands.of(m, binning);
      BinnedKernel kernel = new BinnedKernel(m, binning);
      // Near the upper end (unit 0.84): its central piece reaches down to 0.65 at eps 1.
      double x0 = 2.2;
      long n = 1_000_000;
      HistogramBand band =
          bands.band(expectedCounts(kernel, n, new double[] {x0}, new double[] {1}), n);
      int home = binning.inputBin(x0);
      double sumLower = 0;
      double sumUpper = 0;
      for (int j = 0; j < 20; j++) {
        assertThat(band.lower()[j]).isLessThanOrEqualTo(band.upper()[j]);
        assertThat(band.lower()[j])
            .as("eps %s bin %s", eps, j)
            .isLessThanOrEqualTo(j == home ? 1 : 0);
        assertThat(band.upper()[j])
            .as("eps %s bin %s", eps, j)
            .isGreaterThanOrEqualTo(j == home ? 1 : 0);
        sumLower += band.lower()[j];
        sumUpper += band.upper()[j];
        // Bins whose windows (about a central piece long) stay below the mass's central piece
        // are ruled out: below unit 0.3 at eps 1 (s = 0.38), below 0.6 at eps 4 (s = 0.12).
        if (binning.inputBinCentre(j) < -2 + 5 * (eps == 1 ? 0.3 : 0.6)) {
          assertThat(band.upper()[j]).as("eps %s bin %s", eps, j).isLessThan(0.01);
        }
      }
      assertThat(sumLower).isLessThanOrEqualTo(1);
      assertThat(sumUpper).isGreaterThanOrEqualTo(1);
    }
  }

  @Test
  void theCircleWrapsItsWindows() {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(4).domain(Domain.circular(0, 360)).build());
    FieldBinning binning = FieldBinning.of(m, 12);
    HistogramBands bands = HistogramBands.of(m, binning);
    BinnedKernel kernel = new BinnedKernel(m, binning);
    long n = 1_000_000;
    // Half at 5 degrees, half at 355: bins 0 and 11, across the seam.
    HistogramBand band =
        bands.band(expectedCounts(kernel, n, new double[] {5, 355}, new double[] {0.5, 0.5}), n);
    assertThat(band.upper()[0]).isGreaterThanOrEqualTo(0.5);
    assertThat(band.upper()[11]).isGreaterThanOrEqualTo(0.5);
    assertThat(band.upper()[6]).isLessThan(0.01);
  }

  @Test
  void skippingTheBoundsThatCannotTightenChangesNoBit() {
    assertSkippingChangesNoBit(new long[] {1, 30, 1000, 10_000});
  }

  @Test
  @Tag("slow") // 10 million draws: run by surefire, left out of mutation testing
  void skippingTheBoundsThatCannotTightenChangesNoBitInLargeWindows() {
    assertSkippingChangesNoBit(new long[] {100_000});
  }

  /** Bands computed with and without skipping are the same to the bit, for windows of n records. */
  private static void assertSkippingChangesNoBit(long[] windowSizes) {
    io.ogpm.mechanism.random.AesCtrSource bits = io.ogpm.mechanism.random.AesCtrSource.seeded(5);
    Mechanism circle =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(2).domain(Domain.circular(0, 360)).build());
    for (Mechanism m :
        new Mechanism[] {
          classical(MechanismType.OGPM, 0.5),
          classical(MechanismType.OGPM, 4),
          classical(MechanismType.PM, 1),
          classical(MechanismType.SW, 2),
          circle
        }) {
      FieldBinning binning = FieldBinning.of(m, 50);
      HistogramBands bands = HistogramBands.of(m, binning);
      for (long n : windowSizes) {
        for (int window = 0; window < 20; window++) {
          // Inputs at a few random points (a point mass to a spread), n outputs drawn.
          double[] inputs = new double[1 + window % 5];
          for (int i = 0; i < inputs.length; i++) {
            inputs[i] = m.domain().lo() + m.domain().width() * bits.nextUniform();
          }
          long[] counts = new long[binning.outputBins()];
          for (long r = 0; r < n; r++) {
            counts[binning.outputBin(m.perturb(inputs[(int) (r % inputs.length)], bits))]++;
          }
          HistogramBand skipped = bands.band(counts, n, true);
          HistogramBand all = bands.band(counts, n, false);
          assertThat(skipped.lower()).as("%s n %s", m.spec(), n).containsExactly(all.lower());
          assertThat(skipped.upper()).as("%s n %s", m.spec(), n).containsExactly(all.upper());
        }
      }
    }
  }

  @Test
  void anEmptyWindowHasNoBand() {
    Mechanism m = classical(MechanismType.OGPM, 1);
    FieldBinning binning = FieldBinning.of(m, 10);
    assertThat(HistogramBands.of(m, binning).band(new long[binning.outputBins()], 0)).isNull();
  }
}
