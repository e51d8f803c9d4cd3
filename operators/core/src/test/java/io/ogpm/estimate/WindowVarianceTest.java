package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The window's variance estimate is, in expectation, the average output variance at its readings:
 * exactly for mechanisms whose variance is a combination of 1, the mean function and the mean
 * square, and from above for ogpm; clamped to the mechanism's range of variances; its Edgeworth
 * term is symmetric for symmetric mechanisms and none for symmetric noise of constant variance.
 */
class WindowVarianceTest {
  private static final Domain DOMAIN = Domain.classical(-2, 3);

  private static Mechanism mechanism(MechanismType type, double eps) {
    return MechanismCatalog.of(
        MechanismSpec.builder().type(type).epsilon(eps).domain(DOMAIN).build());
  }

  /** The estimate at a reading's expected mean and mean square: what a window of it averages to. */
  private static double expected(WindowVariance model, Mechanism m, double x) {
    double g = m.outputMean(x);
    return model.estimate(g, model.meanSquare(g, m.outputVariance(x)));
  }

  @Test
  void forAffineMechanismsTheEstimateIsExactlyTheVarianceAtEveryReadingAndEveryMix() {
    SplittableRandom random = new SplittableRandom(3);
    for (MechanismType type :
        new MechanismType[] {
          MechanismType.PM, MechanismType.SW, MechanismType.HM, MechanismType.STAIRCASE
        }) {
      for (double eps : new double[] {0.5, 2, 5.5, 8}) {
        if (type == MechanismType.HM && eps < 0.61) {
          continue; // Duchi's two outputs alone: below
        }
        Mechanism m = mechanism(type, eps);
        WindowVariance model = WindowVariance.of(m);
        double scale = m.maxOutputVariance();
        for (int i = 0; i < 200; i++) {
          double x = -2 + 5 * random.nextDouble();
          assertThat(expected(model, m, x))
              .as("%s at eps %s, x %s", type, eps, x)
              .isCloseTo(m.outputVariance(x), within(1e-6 * scale));
        }
        // A mix of two readings: the estimate is linear in the window's mean and mean square, so
        // it averages the variances, without the readings' own spread.
        double g0 = m.outputMean(-2);
        double g1 = m.outputMean(3);
        double mean = 0.5 * (g0 + g1);
        double square =
            0.5
                * (model.meanSquare(g0, m.outputVariance(-2))
                    + model.meanSquare(g1, m.outputVariance(3)));
        assertThat(model.estimate(mean, square))
            .as("%s at eps %s, ends 50/50", type, eps)
            .isCloseTo(0.5 * (m.outputVariance(-2) + m.outputVariance(3)), within(1e-6 * scale));
      }
    }
  }

  @Test
  void forHmBelowEpsilonPoint61TheEstimateBoundsTheVarianceFromAbove() {
    // Duchi's two outputs +-D: the mean square is D^2 whatever the reading, so the window's sums
    // say nothing of the variance D^2 - (k x)^2 that its mean does not; the fit is raised above it.
    Mechanism m = mechanism(MechanismType.HM, 0.5);
    WindowVariance model = WindowVariance.of(m);
    SplittableRandom random = new SplittableRandom(5);
    for (int i = 0; i < 200; i++) {
      double x = -2 + 5 * random.nextDouble();
      assertThat(expected(model, m, x))
          .as("x %s", x)
          .isGreaterThanOrEqualTo(m.outputVariance(x) * (1 - 1e-6))
          .isLessThanOrEqualTo(m.maxOutputVariance());
    }
  }

  @Test
  void forOgpmTheEstimateLiesAboveTheVarianceAtEveryReading() {
    SplittableRandom random = new SplittableRandom(4);
    for (double eps : new double[] {0.5, 1, 2, 4, 5.5, 8}) {
      Mechanism m = mechanism(MechanismType.OGPM, eps);
      WindowVariance model = WindowVariance.of(m);
      double worstShortfall = 0;
      double worstExcess = 0;
      for (int i = 0; i < 2000; i++) {
        double x = -2 + 5 * random.nextDouble();
        double v = m.outputVariance(x);
        double estimate = expected(model, m, x);
        worstShortfall = Math.max(worstShortfall, (v - estimate) / v);
        worstExcess = Math.max(worstExcess, (estimate - v) / v);
      }
      // Raised above the variance on a fine grid; between its points within a millionth of it.
      assertThat(worstShortfall).as("eps %s: below the variance", eps).isLessThan(1e-6);
      // And a fit, not the largest variance: within a few tenths of the variance.
      assertThat(worstExcess).as("eps %s: above the variance", eps).isLessThan(0.5);
    }
  }

  /** The smallest variance over the fit's inputs. */
  private static double smallest(Mechanism m) {
    double v = Double.POSITIVE_INFINITY;
    for (int i = 0; i <= NormalApproximation.INPUTS; i++) {
      v = Math.min(v, m.outputVariance(-2 + 5.0 * i / NormalApproximation.INPUTS));
    }
    return v;
  }

  @Test
  void anEstimateIsClampedToTheRangeOfTheVariance() {
    Mechanism pm = mechanism(MechanismType.PM, 5.5);
    WindowVariance model = WindowVariance.of(pm);
    double g = pm.outputMean(0.5);
    // A mean square below what any reading gives (a window of outputs all at its mean) and far
    // above (outputs all at the output domain's ends).
    assertThat(model.estimate(g, 0)).isCloseTo(smallest(pm), within(1e-12));
    assertThat(model.estimate(g, 1e6)).isEqualTo(pm.maxOutputVariance());
  }

  @Test
  void theEdgeworthTermIsSymmetricForPmAndNoneForTheStaircase() {
    double z = Interval.Z95;
    WindowVariance pm = WindowVariance.of(mechanism(MechanismType.PM, 5.5));
    assertThat(pm.term(z, true)).isPositive().isCloseTo(pm.term(z, false), within(1e-9));
    // Larger at higher epsilon, where the output is more skewed at the ends.
    assertThat(WindowVariance.of(mechanism(MechanismType.PM, 8)).term(z, true))
        .isGreaterThan(pm.term(z, true));
    // Symmetric noise of one variance everywhere: the variance is known, the mean's skewness 0.
    WindowVariance staircase = WindowVariance.of(mechanism(MechanismType.STAIRCASE, 5.5));
    assertThat(staircase.term(z, true)).isCloseTo(0, within(1e-9));
    assertThat(staircase.term(z, false)).isCloseTo(0, within(1e-9));
  }
}
