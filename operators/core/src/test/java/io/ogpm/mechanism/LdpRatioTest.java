package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.DoubleStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Mass 1 and the exact LDP ratio for every mechanism, eps in [0.001, 30], inputs across the domain
 * including both ends and the points where the central piece starts to clamp.
 */
class LdpRatioTest {
  /** Relative rounding allowed on e^eps: densities are computed in doubles. */
  static final double ROUNDING = 1e-12;

  static List<Mechanisms.Named> mechanisms() {
    return Mechanisms.allEpsilons();
  }

  static double[] inputsFor(PiecewiseUnitMechanism m) {
    double[] even = PrivacyCheck.evenInputs(300);
    double[] extra = {0.0, Math.nextUp(0.0), Math.nextDown(1.0), 1.0, 0.5, 1e-9, 1 - 1e-9};
    double[] clamp = new double[0];
    if (m instanceof ClassicalOgpm c) {
      double s = c.shape().central();
      clamp = new double[] {s / 2, Math.nextDown(s / 2), Math.nextUp(s / 2), 1 - s / 2};
    }
    return DoubleStream.concat(
            DoubleStream.of(even),
            DoubleStream.concat(DoubleStream.of(extra), DoubleStream.of(clamp)))
        .toArray();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mechanisms")
  void everyOutputDistributionHasMassOneInsideTheOutputDomain(Mechanisms.Named named) {
    PiecewiseUnitMechanism m = named.mechanism();
    for (double z : inputsFor(m)) {
      PiecewiseDistribution d = m.distribution(z);
      // Mass 1 up to the rounding of the piece boundaries (density times an ulp) and 1e-12.
      double rounding = d.massTolerance() - PiecewiseDistribution.MASS_TOLERANCE + 1e-12;
      assertThat(d.totalMass())
          .as("mass at z=%s", z)
          .isCloseTo(1.0, org.assertj.core.data.Offset.offset(rounding));
      assertThat(d.supportLo()).as("support start at z=%s", z).isEqualTo(m.outputLo());
      assertThat(d.supportHi()).as("support end at z=%s", z).isEqualTo(m.outputHi());
      // No gaps: the pieces tile the output domain.
      List<PiecewiseDistribution.Piece> pieces = d.pieces();
      for (int i = 1; i < pieces.size(); i++) {
        assertThat(pieces.get(i).from()).isEqualTo(pieces.get(i - 1).to());
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mechanisms")
  void densityRatioNeverExceedsExpEpsilon(Mechanisms.Named named) {
    PiecewiseUnitMechanism m = named.mechanism();
    PrivacyCheck.Result r = PrivacyCheck.worstRatio(m, inputsFor(m));
    assertThat(r.worstRatio())
        .as(
            "worst ratio %s at y=%s between z=%s and z=%s",
            r.worstRatio(), r.output(), r.inputHigh(), r.inputLow())
        .isLessThanOrEqualTo(Math.exp(m.epsilon()) * (1 + ROUNDING));
    // The budget is used, not wasted: the optimum puts high and low density on the same output.
    assertThat(r.worstRatio()).isGreaterThanOrEqualTo(Math.exp(m.epsilon()) * (1 - ROUNDING));
  }
}
