package io.ogpm.mechanism.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.OgpmShape;
import io.ogpm.mechanism.TwoLevelMechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import org.junit.jupiter.api.Test;

/**
 * The auditor passes every shipped mechanism at its epsilon and catches the two negative controls:
 * a density 20 % too high, and a sampler that emits unsnapped doubles. Each audit runs at
 * confidence 99.9 %, so a correct mechanism is flagged by chance with probability at most 0.1 % per
 * audit (about 1.5 % for the whole class).
 */
class PrivacyAuditorTest {
  static final PrivacyAuditor.Options OPTIONS = new PrivacyAuditor.Options(100_000, 40, 0.001, 7);

  @Test
  void everyShippedMechanismPassesAtItsEpsilon() {
    double eps = 1.5;
    for (MechanismType type : MechanismType.values()) {
      Domain domain =
          type == MechanismType.PURKAYASTHA
              ? Domain.circular(0, 2 * Math.PI)
              : Domain.classical(-1, 3);
      Mechanism m =
          MechanismCatalog.of(
              MechanismSpec.builder().type(type).epsilon(eps).domain(domain).build());
      PrivacyAuditor.Result r = PrivacyAuditor.audit(MechanismSamplers.snapped(m), OPTIONS);
      assertThat(r.epsilonLowerBound())
          .as("%s: %s", type.id(), r.describe())
          .isLessThanOrEqualTo(eps);
    }
    Mechanism circle =
        MechanismCatalog.of(
            MechanismSpec.builder()
                .epsilon(3)
                .objective(Objective.L2)
                .domain(Domain.circular(-Math.PI, Math.PI))
                .build());
    assertThat(PrivacyAuditor.audit(MechanismSamplers.snapped(circle), OPTIONS).epsilonLowerBound())
        .isLessThanOrEqualTo(3);
  }

  @Test
  void theBoundIsTightForTheOptimalMechanism() {
    // OGPM puts high and low density on the same outputs, so the auditor should get close to eps.
    Mechanism m = MechanismCatalog.of(MechanismSpec.builder().epsilon(2).build());
    PrivacyAuditor.Result r =
        PrivacyAuditor.audit(
            MechanismSamplers.snapped(m), new PrivacyAuditor.Options(400_000, 40, 0.001, 8));
    assertThat(r.epsilonLowerBound()).isCloseTo(2, within(0.2)).isLessThanOrEqualTo(2);
  }

  @Test
  void aDensityTwentyPercentTooHighIsCaught() {
    double eps = 1;
    PrivacyAuditor.Result r =
        PrivacyAuditor.audit(
            MechanismSamplers.snapped(new TooHigh(eps, 1.2), 32),
            new PrivacyAuditor.Options(400_000, 40, 0.001, 9));
    assertThat(r.epsilonLowerBound()).as(r.describe()).isGreaterThan(eps);
  }

  @Test
  void unsnappedDoublesAreCaught() {
    for (double eps : new double[] {1, 4}) {
      Mechanism m =
          MechanismCatalog.of(
              MechanismSpec.builder().epsilon(eps).domain(Domain.classical(-2, 2)).build());
      PrivacyAuditor.Result r = PrivacyAuditor.audit(MechanismSamplers.unsnapped(m), OPTIONS);
      assertThat(r.epsilonLowerBound()).as(r.describe()).isGreaterThan(eps);
      assertThat(r.event()).contains("not producible");
    }
  }

  @Test
  void clopperPearsonBoundsMatchKnownValues() {
    // Exact values: k = 0 gives the upper bound 1 - alpha^(1/n); k = n the lower bound alpha^(1/n).
    assertThat(ClopperPearson.upper(0, 100, 0.05))
        .isCloseTo(1 - Math.pow(0.05, 0.01), within(1e-12));
    assertThat(ClopperPearson.lower(100, 100, 0.05)).isCloseTo(Math.pow(0.05, 0.01), within(1e-12));
    // k = 10, n = 100: the one-sided 95 % bounds are 0.0553 and 0.1637 (standard tables).
    assertThat(ClopperPearson.lower(10, 100, 0.05)).isCloseTo(0.0553, within(5e-4));
    assertThat(ClopperPearson.upper(10, 100, 0.05)).isCloseTo(0.1637, within(5e-4));
  }

  @Test
  void clopperPearsonBoundsAreAccurateForTinyProportionsAndOnTheConservativeSide() {
    // k = 1: the lower bound is the alpha-quantile of Beta(1, n), 1 - (1 - alpha)^(1/n), exactly;
    // near 5e-11 for n = 1e9, so an absolute accuracy would not do.
    double n = 1e9;
    double exact = -Math.expm1(Math.log1p(-0.05) / n);
    assertThat(ClopperPearson.lower(1, (long) n, 0.05)).isCloseTo(exact, within(1e-14 * exact));
    // k = n - 1: the upper bound is the (1 - alpha)-quantile of Beta(n, 1), (1 - alpha)^(1/n).
    double upperExact = Math.pow(0.95, 1.0 / 50);
    assertThat(ClopperPearson.upper(49, 50, 0.05)).isCloseTo(upperExact, within(1e-14));
    // k = 1, n = 1: Beta(1, 1) is uniform, its alpha-quantile is alpha.
    assertThat(ClopperPearson.lower(1, 1, 0.025)).isCloseTo(0.025, within(1e-16));
    // The conservative side, against the beta function as computed (the closed forms above agree
    // to its accuracy, 1e-14 relative): the cdf at the lower bound is at most alpha, at the upper
    // bound at least 1 - alpha.
    assertThat(
            org.hipparchus.special.Beta.regularizedBeta(
                ClopperPearson.lower(30, 1000, 1e-6), 30, 971))
        .isLessThanOrEqualTo(1e-6);
    assertThat(
            org.hipparchus.special.Beta.regularizedBeta(
                ClopperPearson.upper(30, 1000, 1e-6), 31, 970))
        .isGreaterThanOrEqualTo(1 - 1e-6);
  }

  /**
   * Theorem 3 at eps {@code intended} with its high density {@code factor} times too high (the bump
   * shrunk to keep mass 1). It states the epsilon it really spends, {@code intended + ln(factor)}:
   * the integer sampler refuses a mechanism whose densities spend more than it states.
   */
  record TooHigh(double intended, double factor) implements TwoLevelMechanism {
    private OgpmShape shape() {
      return OgpmShape.absoluteErrorOptimal(intended);
    }

    @Override
    public double epsilon() {
      return intended + Math.log(factor);
    }

    @Override
    public double backgroundMass() {
      return shape().low();
    }

    @Override
    public double bumpLength() {
      return (1 - shape().low()) / (factor * shape().high() - shape().low());
    }

    @Override
    public double bumpStart(double z) {
      return Math.min(Math.max(z - bumpLength() / 2, 0), 1 - bumpLength());
    }

    @Override
    public boolean circular() {
      return false;
    }

    @Override
    public double outputLo() {
      return 0;
    }

    @Override
    public double outputHi() {
      return 1;
    }
  }
}
