package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.ClassicalOgpm;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import org.junit.jupiter.api.Test;

/**
 * The tail statistics' construction (threshold, kappa), which mechanisms get them, the count from
 * which they are used, and their bounds on exact expected counts.
 */
class LinearMeanBoundsTest {
  private static Mechanism unit(MechanismType type, double eps) {
    return MechanismCatalog.of(
        MechanismSpec.builder().type(type).epsilon(eps).domain(Domain.classical(0, 1)).build());
  }

  private static LinearMeanBounds bounds(Mechanism m, int bins) {
    return LinearMeanBounds.of(m, FieldBinning.of(m, bins), AffinePart.of(m));
  }

  @Test
  void ogpmGetsTwoTailsPerEndInItsFlatEndWhoseKappaRestoresTheSlope() {
    Mechanism m = unit(MechanismType.OGPM, 1);
    double s = ((ClassicalOgpm) m.unit()).shape().central();
    LinearMeanBounds b = bounds(m, 50);
    assertThat(b.upperTails()).hasSize(2);
    assertThat(b.lowerTails()).hasSize(2);
    // The flat end is s/2 wide: the upper thresholds are the bin edges nearest 1 - s/4 (0.906:
    // 0.90) and 1 - s/8 (0.953: 0.96).
    double[] fractions = {0.25, 0.125};
    for (int t = 0; t < 2; t++) {
      double[] v = b.upperTails()[t].values();
      int edge = 0;
      while (v[edge + 1] - v[edge] < 0.021) {
        edge++;
      }
      assertThat(edge + 1).isEqualTo((int) Math.round((1 - s * fractions[t]) * 50));
    }
    BinStatistic upper = b.upperTails()[0];
    BinStatistic lower = b.lowerTails()[0];
    // kappa makes Psi rise from the middle to hi as the line b x does: Psi(1) - Psi(1/2) = b / 2.
    AffinePart affine = AffinePart.of(m);
    assertThat(upper.expectationAt(2) - upper.expectationAt(1))
        .isCloseTo(affine.slope() / 2, within(0.02));
    assertThat(lower.expectationAt(1) - lower.expectationAt(0))
        .isCloseTo(affine.slope() / 2, within(0.02));
    // Without the tail, y~'s own expectation is flat over the last s/2: it rises less.
    assertThat(upper.expectationAt(2) - upper.expectationAt(1))
        .isGreaterThan(affine.slope() * (0.5 - s / 2) + 0.05);
  }

  @Test
  void mechanismsWhoseMeanIsAffineEverywhereKeepTheOutputMeanInterval() {
    for (MechanismType type :
        new MechanismType[] {
          MechanismType.PM,
          MechanismType.SW,
          MechanismType.OGPM_U,
          MechanismType.PM_C,
          MechanismType.SW_C,
          MechanismType.STAIRCASE,
          MechanismType.T_LAPLACE
        }) {
      LinearMeanBounds b = bounds(unit(type, 1), 20);
      assertThat(b.upperTails()).as(type.id()).isEmpty();
      assertThat(b.lowerTails()).as(type.id()).isEmpty();
      assertThat(b.upperShare(1_000_000)).isZero();
    }
  }

  @Test
  void theTailsTakeOverAsTheCountGrowsAndNeverAtSmallCounts() {
    LinearMeanBounds b = bounds(unit(MechanismType.OGPM, 1), 50);
    assertThat(b.upperShare(100)).isZero();
    assertThat(b.lowerShare(100)).isZero();
    assertThat(b.upperShare(100_000)).isEqualTo(1);
    assertThat(b.lowerShare(100_000)).isEqualTo(1);
    double previous = 0;
    for (long n = 1; n < 1L << 30; n *= 2) {
      assertThat(b.upperShare(n)).as("n %s", n).isGreaterThanOrEqualTo(previous);
      previous = b.upperShare(n);
    }
  }

  /**
   * The counts at which ogpm's upper side changes its split (on [0, 1], 50 bins), written to {@code
   * target/tail-shares.md} for docs/estimation.md. At eps 4 and 5.5 the tails are studentised, and
   * take the whole side, from a few dozen reports: what makes ogpm's interval narrow there at 320.
   */
  @Test
  void theCountsAtWhichTheTailsTakePart() throws java.io.IOException {
    StringBuilder table =
        new StringBuilder("| eps | the tails' share of the upper side from n |\n");
    table.append("| ---: | --- |\n");
    for (double eps : new double[] {0.5, 1, 2, 4, 5.5, 8}) {
      LinearMeanBounds b = bounds(unit(MechanismType.OGPM, eps), 50);
      StringBuilder row = new StringBuilder();
      double previous = -1;
      long tailsAlone = Long.MAX_VALUE;
      for (int k = 0; k <= LinearMeanBounds.COUNTS; k++) {
        long n = LinearMeanBounds.countAt(k);
        double share = b.upperShare(n);
        if (share != previous) {
          row.append(String.format(java.util.Locale.ROOT, " %d: %.1f;", n, share));
          previous = share;
        }
        if (share == 1 && tailsAlone == Long.MAX_VALUE) {
          tailsAlone = n;
        }
      }
      table.append("| ").append(eps).append(" |").append(row).append(" |\n");
      if (eps == 4 || eps == 5.5) {
        assertThat(tailsAlone).as("eps %s", eps).isLessThan(100);
      }
    }
    java.nio.file.Files.writeString(
        java.nio.file.Path.of("target", "tail-shares.md"), table.toString());
  }

  @Test
  void onExactExpectedCountsTheIntervalHoldsThePointMassAndIsFarNarrowerThanTheOutputMeans() {
    // A window whose bin counts and mean are exactly their expectations for inputs all at x0: the
    // interval holds x0, and, in the middle, is a fraction of the output mean's interval (which
    // cannot shrink below the flat ends).
    Mechanism m = unit(MechanismType.OGPM, 1);
    FieldBinning binning = FieldBinning.of(m, 50);
    LinearMeanBounds b = LinearMeanBounds.of(m, binning, AffinePart.of(m));
    BinnedKernel kernel = new BinnedKernel(m, binning);
    long n = 1_000_000;
    for (double x0 : new double[] {0, 0.1, 0.3, 0.5, 0.8, 1}) {
      double[] p = kernel.probabilities(x0);
      long[] counts = new long[p.length];
      for (int o = 0; o < p.length; o++) {
        counts[o] = Math.round(n * p[o]);
      }
      LinearMeanBounds.Bounds interval =
          b.bounds(
              n, m.outputMean(x0), b.meanSquare(m.outputMean(x0), m.outputVariance(x0)), counts);
      assertThat(interval.lower()).as("x0 %s", x0).isLessThanOrEqualTo(x0 + 1e-9);
      assertThat(interval.upper()).as("x0 %s", x0).isGreaterThanOrEqualTo(x0 - 1e-9);
      assertThat(interval.method()).isEqualTo(MeanIntervalMethod.STUDENTISED_OUTPUT_MEAN_AND_TAILS);
      if (x0 == 0.5) {
        assertThat(interval.upper() - interval.lower()).isLessThan(0.02);
      }
    }
  }
}
