package io.ogpm.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomBits;
import org.junit.jupiter.api.Test;

/**
 * The variance of one report's unbiased estimate, in units of the domain, against what it must be:
 * Wang et al.'s closed form for the piecewise mechanism, and a simulation of the unit vector's
 * components on the circle.
 */
class ReportVarianceTest {
  /**
   * PM on [-1, 1] is unbiased (slope 1) with Var[M(x)] = x^2 / (t - 1) + (t + 3) / (3 (t - 1)^2), t
   * = e^(eps/2), largest at the ends; over the width squared, 4.
   */
  @Test
  void thePiecewiseMechanismsIsWangEtAlsClosedFormAtTheEnds() {
    for (double eps : new double[] {0.5, 1, 2, 4}) {
      MechanismSpec pm =
          MechanismSpec.builder()
              .type(MechanismType.PM)
              .domain(Domain.classical(-1, 1))
              .epsilon(1)
              .build();
      double t = Math.exp(eps / 2);
      double expected = (1 / (t - 1) + (t + 3) / (3 * (t - 1) * (t - 1))) / 4;
      assertThat(ReportVariance.of(pm, eps))
          .as("eps %s", eps)
          .isCloseTo(expected, within(1e-9 * expected));
    }
  }

  /**
   * On a circle, e^{iy} / rho1 estimates e^{ix}: the larger variance of its two components, in
   * radians over (2 pi)^2, simulated with 400,000 reports (relative standard error about 0.3 %).
   */
  @Test
  void onACircleItIsTheLargerVarianceOfTheUnitVectorsComponents() {
    Domain circle = Domain.circular(0, 2 * Math.PI);
    for (double eps : new double[] {1, 3}) {
      MechanismSpec spec =
          MechanismSpec.builder().type(MechanismType.OGPM).domain(circle).epsilon(eps).build();
      Mechanism m = MechanismCatalog.of(spec);
      RandomBits bits = AesCtrSource.seeded(11);
      int n = 400_000;
      double sc = 0;
      double ss = 0;
      double sc2 = 0;
      double ss2 = 0;
      for (int i = 0; i < n; i++) {
        double y = m.perturb(1.0, bits) - 1.0;
        sc += Math.cos(y);
        ss += Math.sin(y);
        sc2 += Math.cos(y) * Math.cos(y);
        ss2 += Math.sin(y) * Math.sin(y);
      }
      double rho1 = sc / n;
      double varCos = sc2 / n - rho1 * rho1;
      double varSin = ss2 / n - (ss / n) * (ss / n);
      double simulated = Math.max(varCos, varSin) / (rho1 * rho1) / (4 * Math.PI * Math.PI);
      assertThat(ReportVariance.of(spec, eps))
          .as("eps %s", eps)
          .isCloseTo(simulated, within(0.02 * simulated));
    }
  }

  @Test
  void theInputsSpreadAtMostEvenlyOverTheDomain() {
    assertThat(ReportVariance.ofInputs()).isEqualTo(1.0 / 12);
  }
}
