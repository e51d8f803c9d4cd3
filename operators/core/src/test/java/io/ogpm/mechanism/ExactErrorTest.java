package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.catalog.MechanismCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Exact errors against the paper's closed forms, the l2 optimum, and OGPM-U's unbiasedness. */
class ExactErrorTest {
  @ParameterizedTest
  @ValueSource(doubles = {0.01, 0.5, 1, 2, 4, 8, 16})
  void classicalMseMatchesTheAppendixClosedForm(double eps) {
    ClassicalOgpm m = ClassicalOgpm.optimal(eps, Objective.L1);
    for (int i = 0; i <= 200; i++) {
      double x = i / 200.0 * Math.nextDown(1.0);
      double exact = m.expectedError(x, ErrorMetric.L2, Distance.LINEAR);
      assertThat(exact)
          .as("x=%s", x)
          .isCloseTo(PaperClosedForms.classicalMse(eps, x), within(1e-12));
    }
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.01, 0.5, 1, 2, 4, 8, 16})
  void circularMseMatchesTheoremCircularMse(double eps) {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(eps).domain(Domain.circular(0, 2 * Math.PI)).build());
    for (double x : new double[] {0, 1, Math.PI, 5, 2 * Math.PI}) {
      assertThat(m.expectedError(x, ErrorMetric.L2, Distance.CIRCULAR))
          .as("x=%s", x)
          .isCloseTo(PaperClosedForms.circularMse(eps), within(1e-12));
    }
  }

  @Test
  void squareErrorOptimumBeatsTheClosedFormAtEveryEpsilon() {
    for (double eps = 0.001; eps <= 50; eps *= 1.05) {
      double l2 =
          ClassicalOgpm.optimal(eps, Objective.L2).worstCaseError(ErrorMetric.L2, Distance.LINEAR);
      double l1 =
          ClassicalOgpm.optimal(eps, Objective.L1).worstCaseError(ErrorMetric.L2, Distance.LINEAR);
      assertThat(l2).as("eps=%s", eps).isLessThan(l1);
      double l2c =
          CircularOgpm.optimal(eps, Objective.L2).worstCaseError(ErrorMetric.L2, Distance.CIRCULAR);
      double l1c =
          CircularOgpm.optimal(eps, Objective.L1).worstCaseError(ErrorMetric.L2, Distance.CIRCULAR);
      assertThat(l2c).as("circular eps=%s", eps).isLessThan(l1c);
    }
  }

  @Test
  void absoluteErrorClosedFormBeatsTheSquareErrorOptimumInAbsoluteError() {
    for (double eps = 0.01; eps <= 50; eps *= 1.1) {
      double l1 =
          ClassicalOgpm.optimal(eps, Objective.L1).worstCaseError(ErrorMetric.L1, Distance.LINEAR);
      double l2 =
          ClassicalOgpm.optimal(eps, Objective.L2).worstCaseError(ErrorMetric.L1, Distance.LINEAR);
      assertThat(l1).as("eps=%s", eps).isLessThan(l2);
    }
  }

  @Test
  void bothShapesAreLocalMinimaOfTheirWorstCaseError() {
    for (double eps = 0.001; eps <= 50; eps *= 1.3) {
      for (Objective objective : Objective.values()) {
        OgpmShape best = OgpmShape.optimal(eps, objective);
        double at = best.worstCaseError(objective.metric());
        // Perturb log p by 1 % of eps either way: the worst-case error must not drop.
        for (double delta : new double[] {-0.01, 0.01}) {
          double p = Math.exp(Math.log(best.high()) + delta * eps);
          OgpmShape moved = OgpmShape.withHighDensity(eps, p);
          assertThat(moved.worstCaseError(objective.metric()))
              .as("eps=%s objective=%s delta=%s", eps, objective, delta)
              .isGreaterThan(at);
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.001, 0.1, 1, 2, 4, 8, 30})
  void unbiasedOgpmHasMeanXByFormula(double eps) {
    UnbiasedOgpm m = UnbiasedOgpm.of(eps);
    double c = m.enlargement();
    for (int i = 0; i <= 100; i++) {
      double x = i / 100.0;
      // Rounding: 1e-12 of the output domain's width 2C + 1, plus the high density times a few
      // ulps of the piece boundaries (the mean is a sum of density * length * midpoint).
      PiecewiseDistribution d = m.distribution(x);
      double high = d.pieces().get(1).density();
      double tolerance = 1e-12 * (2 * c + 1) + 8 * high * Math.ulp(c + 1) * (c + 1);
      assertThat(d.mean()).as("x=%s", x).isCloseTo(x, within(tolerance));
    }
  }
}
