package io.ogpm.mechanism.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import org.junit.jupiter.api.Test;

/**
 * The Hybrid Mechanism against Wang et al.'s closed forms: unbiased, the worst-case variance of its
 * theorem, Duchi et al.'s mechanism alone at small epsilon, and a sampler whose draws follow the
 * distribution the estimators use.
 */
class HybridMechanismTest {
  /**
   * PM's variance at t in [-1, 1]: {@code t^2 / (e^(eps/2) - 1) + (e^(eps/2) + 3) / (3 (e^(eps/2) -
   * 1)^2)}.
   */
  static double pmVariance(double eps, double t) {
    double h = Math.exp(eps / 2);
    return t * t / (h - 1) + (h + 3) / (3 * (h - 1) * (h - 1));
  }

  /** Duchi et al.'s variance at t: {@code ((e^eps + 1) / (e^eps - 1))^2 - t^2}. */
  static double duchiVariance(double eps, double t) {
    double d = (Math.exp(eps) + 1) / Math.expm1(eps);
    return d * d - t * t;
  }

  @Test
  void alphaIsTheClosedFormAndTheVarianceIsFlatAboveTheThreshold() {
    for (double eps : new double[] {0.7, 1, 2, 4, 8}) {
      HybridMechanism m = HybridMechanism.of(eps);
      assertThat(m.alpha()).as("eps %s", eps).isCloseTo(1 - Math.exp(-eps / 2), within(1e-9));
      double middle = 4 * m.outputVariance(0.5);
      assertThat(4 * m.outputVariance(0)).isCloseTo(middle, within(1e-9 * middle));
      assertThat(4 * m.outputVariance(1)).isCloseTo(middle, within(1e-9 * middle));
      // Below both parts' worst cases.
      assertThat(middle).isLessThan(pmVariance(eps, 1)).isLessThan(duchiVariance(eps, 0));
    }
  }

  @Test
  void belowAboutZeroPointSixOneItIsDuchisMechanism() {
    // The flat mixture's variance equals Duchi's worst case at eps* = 0.610986...
    for (double eps : new double[] {0.01, 0.1, 0.5, 0.6}) {
      HybridMechanism m = HybridMechanism.of(eps);
      assertThat(m.alpha()).as("eps %s", eps).isZero();
      assertThat(4 * m.outputVariance(0.5))
          .isCloseTo(duchiVariance(eps, 0), within(1e-9 * duchiVariance(eps, 0)));
    }
    assertThat(HybridMechanism.of(0.62).alpha()).isPositive();
  }

  @Test
  void unbiased() {
    for (double eps : new double[] {0.3, 1, 4}) {
      HybridMechanism m = HybridMechanism.of(eps);
      for (double z : new double[] {0, 0.1, 0.5, 0.77, 1}) {
        assertThat(m.outputMean(z)).as("eps %s z %s", eps, z).isCloseTo(z, within(1e-12));
      }
    }
  }

  @Test
  void theSamplerCertifiesAtMostEpsilonAndDrawsTheDistribution() {
    for (double eps : new double[] {0.5, 1, 4}) {
      Mechanism m =
          MechanismCatalog.of(
              MechanismSpec.builder()
                  .type(MechanismType.HM)
                  .epsilon(eps)
                  .domain(Domain.classical(0, 1))
                  .build());
      assertThat(m.realizedEpsilon()).isLessThanOrEqualTo(eps).isGreaterThan(eps * (1 - 1e-9));
      AesCtrSource bits = AesCtrSource.seeded(44);
      HybridMechanism unit = (HybridMechanism) m.unit();
      for (double x : new double[] {0, 0.3, 1}) {
        int n = 200_000;
        double sum = 0;
        for (int i = 0; i < n; i++) {
          sum += m.perturb(x, bits);
        }
        // Four standard errors of the mean at the exact variance (a 6e-5 two-sided miss).
        double sd = Math.sqrt(unit.outputVariance(x) / n);
        assertThat(sum / n).as("eps %s x %s", eps, x).isCloseTo(x, within(4 * sd + 1e-9));
      }
    }
  }
}
