package io.ogpm.mechanism.polar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.CircularOgpm;
import io.ogpm.mechanism.ClassicalOgpm;
import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.Objective;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The eps split (docs/mechanisms.md, "The polar split") and the shape of the error curve. */
class PolarSplitTest {
  static final double EPS = 1 + 2 * Math.PI;

  @Test
  void theoremThreeAndFourMechanismsUnderSquareError() {
    // docs/mechanisms.md, "The polar split": the paper's mechanisms (objective l1) measured in
    // square error give
    // eps1 = 1.30, eps2 = 5.98, total 0.365 (the paper's 1.32 + 5.69 does not add up to 7.283).
    PolarSplit.Point p = PolarSplit.of(EPS, 1, ErrorMetric.L2, Objective.L1).optimum();
    assertThat(p.epsRadius()).isCloseTo(1.30, within(0.005));
    assertThat(p.epsAngle()).isCloseTo(5.98, within(0.005));
    assertThat(p.epsRadius() + p.epsAngle()).isEqualTo(EPS);
    assertThat(p.error()).isCloseTo(0.365, within(0.0005));
  }

  @Test
  void squareErrorOptimalMechanismsUnderSquareError() {
    // docs/mechanisms.md, "The polar split": 1.53, 5.75, total 0.299.
    PolarSplit.Point p = PolarSplit.of(EPS, 1, ErrorMetric.L2, Objective.L2).optimum();
    assertThat(p.epsRadius()).isCloseTo(1.53, within(0.005));
    assertThat(p.epsAngle()).isCloseTo(5.75, within(0.005));
    assertThat(p.error()).isCloseTo(0.299, within(0.0005));
  }

  @Test
  void theOptimumIsTheLeastOfTheCurveAndItsStationaryPoint() {
    PolarSplit split = PolarSplit.of(3, 2.5, ErrorMetric.L1, Objective.L1);
    PolarSplit.Point best = split.optimum();
    List<PolarSplit.Point> curve = split.curve(1000);
    assertThat(curve).hasSize(1001);
    assertThat(curve.get(0).epsRadius()).isZero();
    assertThat(curve.get(1000).epsAngle()).isZero();
    for (PolarSplit.Point p : curve) {
      assertThat(best.error()).isLessThanOrEqualTo(p.error() + 1e-15);
    }
    // Interior minimum of a smooth curve: both sides rise.
    double h = 1e-4;
    assertThat(split.at(best.epsRadius() - h).error()).isGreaterThan(best.error());
    assertThat(split.at(best.epsRadius() + h).error()).isGreaterThan(best.error());
  }

  @Test
  void eachTermIsTheExactWorstCaseOfItsMechanism() {
    PolarSplit split = PolarSplit.of(4, 3, ErrorMetric.L2, Objective.L2);
    PolarSplit.Point p = split.at(1.5);
    double radius =
        ClassicalOgpm.optimal(1.5, Objective.L2).worstCaseError(ErrorMetric.L2, Distance.LINEAR)
            * 9;
    double angle =
        CircularOgpm.optimal(2.5, Objective.L2).worstCaseError(ErrorMetric.L2, Distance.CIRCULAR)
            * 4
            * Math.PI
            * Math.PI;
    assertThat(p.errorRadius()).isCloseTo(radius, within(1e-12));
    assertThat(p.errorAngle()).isCloseTo(angle, within(1e-12));
    // eps1 = 0 or eps2 = 0: uniform output.
    assertThat(split.at(0).errorRadius()).isCloseTo(3.0, within(1e-15)); // R^2 / 3
    assertThat(split.at(4).errorAngle()).isCloseTo(Math.PI * Math.PI / 3, within(1e-14));
    PolarSplit l1 = PolarSplit.of(4, 3, ErrorMetric.L1, Objective.L1);
    assertThat(l1.at(0).errorRadius()).isCloseTo(1.5, within(1e-15));
    assertThat(l1.at(4).errorAngle()).isCloseTo(Math.PI / 2, within(1e-15));
    // Near zero the mechanisms tend to the uniform output.
    assertThat(split.at(1e-7).errorRadius()).isCloseTo(3.0, within(1e-6));
  }

  @Test
  void badValuesAreNamed() {
    assertThatThrownBy(() -> PolarSplit.of(0, 1, ErrorMetric.L1, Objective.L1))
        .hasMessage("epsilon must be > 0, got 0.0");
    assertThatThrownBy(() -> PolarSplit.of(1, -1, ErrorMetric.L1, Objective.L1))
        .hasMessage("radius-max must be > 0, got -1.0");
    assertThatThrownBy(() -> PolarSplit.of(1, 1, ErrorMetric.L1, Objective.L1).at(1.5))
        .hasMessage("epsRadius must be in [0, 1.0], got 1.5");
    assertThatThrownBy(() -> PolarSplit.of(1, 1, ErrorMetric.L1, Objective.L1).curve(0))
        .hasMessage("curve points must be >= 1, got 0");
  }
}
