package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import org.junit.jupiter.api.Test;

/** The transition matrix describes what the accumulator counts, column by column. */
class TransitionMatrixTest {
  private static Mechanism mechanism(MechanismType type, double eps, Domain domain) {
    return MechanismCatalog.of(
        MechanismSpec.builder().type(type).epsilon(eps).domain(domain).build());
  }

  /**
   * Mechanisms whose outputs reach beyond the binned range or the circle: staircase (unbounded
   * tails into the end bins; on a circle, wrapped around it), pm on a circle (outputs beyond [lo,
   * hi) binned by their place on the circle), t-pm on a circle (an atom at hi, reported just below
   * it), and the plain cases.
   */
  private static final Mechanism[] CASES = {
    mechanism(MechanismType.OGPM, 2, Domain.classical(-1, 3)),
    mechanism(MechanismType.STAIRCASE, 1, Domain.classical(0, 10)),
    mechanism(MechanismType.PM, 1, Domain.classical(0, 1)),
    mechanism(MechanismType.OGPM, 2, Domain.circular(10, 370)),
    mechanism(MechanismType.PM, 3, Domain.circular(10, 370)),
    mechanism(MechanismType.T_PM, 1, Domain.circular(10, 370)),
    mechanism(MechanismType.STAIRCASE, 2, Domain.circular(10, 370)),
  };

  @Test
  void columnsAreDistributionsOverTheOutputBins() {
    for (Mechanism m : CASES) {
      FieldBinning binning = FieldBinning.of(m, 8);
      TransitionMatrix t = TransitionMatrix.of(m, binning);
      assertThat(t.rows()).isEqualTo(binning.outputBins());
      assertThat(t.columns()).isEqualTo(8);
      assertThat(t.circular()).isEqualTo(m.domain().isCircular());
      for (int i = 0; i < t.columns(); i++) {
        double sum = 0;
        for (int j = 0; j < t.rows(); j++) {
          assertThat(t.get(j, i)).isNotNegative();
          // The mean square of a probability over the bin is at least the square of its mean.
          assertThat(t.meanSquare(j, i))
              .isGreaterThanOrEqualTo(t.get(j, i) * t.get(j, i) * (1 - 1e-12));
          sum += t.get(j, i);
        }
        assertThat(sum).as("%s, column %s", m, i).isCloseTo(1, within(1e-9));
      }
    }
  }

  @Test
  void columnsAreTheFrequenciesOfTheBinnedOutputs() {
    // 20,000 inputs spread evenly over one input bin, perturbed and binned by the accumulator:
    // every
    // output bin's count is a sum of independent indicators with mean n p (p the column's
    // probability). Bernstein: |count - n p| >= t with probability at most 2 exp(-t^2 / (2 (n p (1
    // -
    // p) + t / 3))) = 1e-9 at t = L / 3 + sqrt(L^2 / 9 + 2 L n p (1 - p)), L = ln(2e9); over 7
    // cases
    // of at most 40 bins, a false failure has probability below 3e-7.
    int n = 20_000;
    AesCtrSource bits = AesCtrSource.seeded(17);
    for (Mechanism m : CASES) {
      FieldBinning binning = FieldBinning.of(m, 8);
      TransitionMatrix t = TransitionMatrix.of(m, binning);
      int i = 7; // the last input bin: next to hi, where the atoms and the seam are
      FieldAccumulator acc = FieldAccumulator.forBinning(binning);
      for (int r = 0; r < n; r++) {
        double x =
            Math.min(binning.lo() + (i + (r + 0.5) / n) * binning.binWidth(), m.domain().hi());
        acc.add(m.perturb(x, bits), binning);
      }
      long[] counts = acc.getHistogram();
      for (int j = 0; j < t.rows(); j++) {
        double p = t.get(j, i);
        double l = Math.log(2e9);
        double tolerance = l / 3 + Math.sqrt(l * l / 9 + 2 * l * n * p * (1 - p));
        assertThat((double) counts[j])
            .as("%s, output bin %s", m, j)
            .isCloseTo(n * p, within(tolerance));
      }
    }
  }

  @Test
  void onlyPiecewiseMechanismsHaveOne() {
    Mechanism laplace = mechanism(MechanismType.T_LAPLACE, 1, Domain.classical(0, 1));
    assertThatThrownBy(() -> TransitionMatrix.of(laplace, FieldBinning.of(laplace, 4)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("reconstruction needs a piecewise mechanism, not t-laplace");
  }
}
