package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.PiecewiseDistribution;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import org.junit.jupiter.api.Test;

/**
 * The binned kernel: probabilities and tails agree and sum to 1, and its largest density holds
 * everywhere.
 */
class BinnedKernelTest {
  private static Mechanism classical(MechanismType type, double eps) {
    return MechanismCatalog.of(
        MechanismSpec.builder().type(type).epsilon(eps).domain(Domain.classical(-2, 3)).build());
  }

  @Test
  void binProbabilitiesSumToOneAndTheTailsAreTheirSuffixSums() {
    for (MechanismType type :
        new MechanismType[] {
          MechanismType.OGPM,
          MechanismType.PM,
          MechanismType.SW,
          MechanismType.PM_C,
          MechanismType.T_PM,
          MechanismType.T_SW,
          MechanismType.OGPM_U
        }) {
      Mechanism m = classical(type, 1.5);
      BinnedKernel kernel = new BinnedKernel(m, FieldBinning.of(m, 17));
      for (double x : new double[] {-2, -1.3, 0.5, 2.99, 3}) {
        double[] p = kernel.probabilities(x);
        double[] t = kernel.upperTails(x);
        double sum = 0;
        for (int o = p.length - 1; o >= 0; o--) {
          sum += p[o];
          assertThat(t[o]).as("%s at %s, bin %s", type.id(), x, o).isCloseTo(sum, within(1e-12));
        }
        assertThat(sum).isCloseTo(1, within(1e-9));
      }
    }
    Mechanism circle =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(2).domain(Domain.circular(0, 360)).build());
    BinnedKernel kernel = new BinnedKernel(circle, FieldBinning.of(circle, 12));
    for (double x : new double[] {0, 5, 355}) {
      double sum = 0;
      for (double p : kernel.probabilities(x)) {
        sum += p;
      }
      assertThat(sum).isCloseTo(1, within(1e-9));
    }
  }

  @Test
  void theLargestDensityAtSixtyFiveInputsIsTheLargestAnywhere() {
    // The snapping slack rests on it: every piecewise mechanism's density levels do not depend on
    // x.
    for (MechanismType type : MechanismType.values()) {
      if (!type.supportsClassical()) {
        continue;
      }
      for (double eps : new double[] {0.5, 2, 8}) {
        Mechanism m = classical(type, eps);
        if (!m.isPiecewise()) {
          continue;
        }
        BinnedKernel kernel = new BinnedKernel(m, FieldBinning.of(m, 10));
        for (int i = 0; i <= 4096; i++) {
          for (PiecewiseDistribution.Piece p : m.distribution(-2 + 5.0 * i / 4096).pieces()) {
            assertThat(p.density())
                .as("%s at eps %s", type.id(), eps)
                .isLessThanOrEqualTo(kernel.maxDensity());
          }
        }
        assertThat(kernel.edgeSlack()).isEqualTo(kernel.maxDensity() * m.cellWidth() / 2);
      }
    }
  }
}
