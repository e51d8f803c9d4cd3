package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.ogpm.mechanism.ClassicalOgpm;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import org.junit.jupiter.api.Test;

/**
 * The intervals' formulas against their closed forms: OGPM's mean-function envelopes, the identity
 * for unbiased mechanisms, the confidence disk on the circle, and "no interval" where none is
 * valid.
 */
class IntervalDerivationTest {
  private static final double STEP = 1.0 / MeanIdentification.POINTS;

  @Test
  void ogpmConsistentMeansAreTheClosedFormEnvelopesInverted() {
    // On [0, 1], OGPM's g is q/2 + (1 - q)(l(x) + s/2) with l = clamp(x - s/2, 0, 1 - s): flat on
    // [0, s/2] and [1 - s/2, 1], affine between. Its concave majorant is the chord from (0, g0) to
    // (1 - s/2, g1), its convex minorant the chord from (s/2, g0) to (1, g1).
    for (double eps : new double[] {0.5, 1, 4}) {
      Mechanism m = MechanismCatalog.of(MechanismSpec.builder().epsilon(eps).build());
      double s = ((ClassicalOgpm) m.unit()).shape().central();
      double g0 = m.outputMean(0);
      double g1 = m.outputMean(1);
      MeanIdentification id = MeanIdentification.of(m);
      assertThat(id.minMean()).isEqualTo(g0);
      assertThat(id.maxMean()).isEqualTo(g1);
      for (double[] lu :
          new double[][] {{0.2, 0.3}, {0.0, 0.5}, {0.5, 0.5}, {0.7, 1.0}, {0.01, 0.02}}) {
        double lower = g0 + lu[0] * (g1 - g0);
        double upper = g0 + lu[1] * (g1 - g0);
        double[] mu = id.inputMeans(lower, upper);
        double exactLow = lu[0] * (1 - s / 2);
        double exactHigh = s / 2 + lu[1] * (1 - s / 2);
        // Contains the exact interval, exceeds it by at most one grid step.
        assertThat(mu[0])
            .as("eps %s, %s", eps, lu[0])
            .isBetween(exactLow - STEP - 1e-12, exactLow + 1e-12);
        assertThat(mu[1])
            .as("eps %s, %s", eps, lu[1])
            .isBetween(exactHigh - 1e-12, exactHigh + STEP + 1e-12);
      }
      // Output means beyond what any inputs give are clipped: the interval never leaves the domain.
      assertThat(id.inputMeans(g0 - 1, g0 - 0.5))
          .containsExactly(new double[] {0, s / 2}, within(STEP + 1e-12));
      assertThat(id.inputMeans(g1 + 0.5, g1 + 1)[0]).isCloseTo(1 - s / 2, within(STEP + 1e-12));
      assertThat(id.inputMeans(g1 + 0.5, g1 + 1)[1]).isEqualTo(1);
    }
  }

  @Test
  void theEnvelopesScaleWithADomainThatDoesNotStartAtZero() {
    // The same closed forms on [-5, 3]: an input mean mu is lo + w times the unit one.
    double lo = -5;
    double w = 8;
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(1).domain(Domain.classical(lo, lo + w)).build());
    double s = ((ClassicalOgpm) m.unit()).shape().central();
    double g0 = m.outputMean(lo);
    double g1 = m.outputMean(lo + w);
    MeanIdentification id = MeanIdentification.of(m);
    double step = w * STEP;
    for (double[] lu : new double[][] {{0.1, 0.15}, {0.3, 0.9}, {0.6, 0.6}}) {
      double[] mu = id.inputMeans(g0 + lu[0] * (g1 - g0), g0 + lu[1] * (g1 - g0));
      double exactLow = lo + w * lu[0] * (1 - s / 2);
      double exactHigh = lo + w * (s / 2 + lu[1] * (1 - s / 2));
      assertThat(mu[0]).as("%s", lu[0]).isBetween(exactLow - step - 1e-12, exactLow + 1e-12);
      assertThat(mu[1]).as("%s", lu[1]).isBetween(exactHigh - 1e-12, exactHigh + step + 1e-12);
    }
    // Clipped at the ends: no input mean below lo or above hi.
    double[] below = id.inputMeans(g0 - 3, g0 - 1);
    assertThat(below[0]).isEqualTo(lo);
    assertThat(below[1]).isCloseTo(lo + w * s / 2, within(step + 1e-12));
    double[] above = id.inputMeans(g1 + 1, g1 + 3);
    assertThat(above[0]).isCloseTo(lo + w - w * s / 2, within(step + 1e-12));
    assertThat(above[1]).isEqualTo(lo + w);
    assertThat(id.inputMeans(g0, g1)).containsExactly(lo, lo + w);
  }

  @Test
  void unbiasedMechanismIntervalIsTheNormalIntervalOfTheOutputMean() {
    // pm: E[M(x)] = x, so the consistent means are [L, U] itself; L and U are the raw mean +- (1.96
    // + term / sqrt n) sd / sqrt(n), sd the square root of the window's variance estimate (plus a
    // grid cell and the numerical tolerance), plus the slack of one grid cell and the numerical
    // tolerance. The estimate is that of the average variance given the window's inputs: pm's
    // variance is quadratic in x, so the model is exact and the estimate unbiased.
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder()
                .type(MechanismType.PM)
                .epsilon(2)
                .domain(Domain.classical(-1, 3))
                .build());
    FieldEstimator estimator = FieldEstimator.of(m, 10);
    AesCtrSource bits = AesCtrSource.seeded(5);
    FieldAccumulator acc = estimator.newAccumulator();
    int n = 5_000;
    double averageVariance = 0;
    for (int i = 0; i < n; i++) {
      double x = 0.5 + 2 * bits.nextUniform();
      averageVariance += m.outputVariance(x) / n;
      acc.add(m.perturb(x, bits), estimator.binning());
    }
    WindowVariance model = WindowVariance.of(m);
    double estimate = model.estimate(acc.mean(), acc.meanSquare(estimator.binning()));
    // Its standard error here is about 2 % (the sample variance's at pm's kurtosis).
    assertThat(estimate).isCloseTo(averageVariance, within(0.06 * averageVariance));
    assertThat(estimate).isLessThan(0.8 * m.maxOutputVariance());
    LinearMeans means = estimator.estimate(acc, false).linear();
    double sd = Math.sqrt(estimate) + m.cellWidth() + 1e-6 * 4;
    double upper = (Interval.Z95 + model.term(Interval.Z95, true) / Math.sqrt(n)) * sd;
    double lower = (Interval.Z95 + model.term(Interval.Z95, false) / Math.sqrt(n)) * sd;
    double step = 4 * STEP;
    assertThat(means.mean().lower())
        .isCloseTo(acc.mean() - lower / Math.sqrt(n), within(step + 1e-6));
    assertThat(means.mean().upper())
        .isCloseTo(acc.mean() + upper / Math.sqrt(n), within(step + 1e-6));
    assertThat(means.intervalMethod()).isEqualTo(MeanIntervalMethod.STUDENTISED_OUTPUT_MEAN);
    assertThat(means.mean().estimate()).isCloseTo(acc.mean(), within(1e-9));
    assertThat(means.raw()).isEqualTo(acc.mean());
  }

  @Test
  void estimatesOutsideTheIntervalAreMovedToItsNearestEnd() {
    assertThat(Interval.within(5, 1, 3)).isEqualTo(new Interval(3, 1, 3));
    assertThat(Interval.within(-5, 1, 3)).isEqualTo(new Interval(1, 1, 3));
    assertThat(Interval.within(2, 1, 3)).isEqualTo(new Interval(2, 1, 3));
    Interval none = Interval.within(2, Double.NaN, Double.NaN);
    assertThat(none.hasBounds()).isFalse();
    assertThat(none.estimate()).isEqualTo(2);
    assertThat(Interval.pointOnly(7).hasBounds()).isFalse();
    assertThat(Interval.pointOnly(7).contains(7)).isFalse();
  }

  @Test
  void wholeCircleHoldsEveryAngleAndWrappedArcsCrossTheSeam() {
    assertThat(new Interval(0, -180, 180).containsOnCircle(179.5, -180, 360)).isTrue();
    assertThat(new Interval(0, -180, 180).containsOnCircle(-180, -180, 360)).isTrue();
    Interval seam = new Interval(180, 170, -170);
    assertThat(seam.containsOnCircle(175, -180, 360)).isTrue();
    assertThat(seam.containsOnCircle(-175, -180, 360)).isTrue();
    assertThat(seam.containsOnCircle(0, -180, 360)).isFalse();
  }

  @Test
  void resultantDiskGivesDirectionsAndLengthsOfItsPoints() {
    double r = 0.1;
    // Far from the origin and inside the unit disk: the tangents.
    ResultantDisk d = new ResultantDisk(0, 0.5, r);
    assertThat(d.direction()).isCloseTo(Math.PI / 2, within(1e-15));
    assertThat(d.directionHalfWidth()).isCloseTo(Math.asin(0.2), within(1e-15));
    assertThat(d.minLength()).isCloseTo(0.4, within(1e-15));
    assertThat(d.maxLength()).isCloseTo(0.6, within(1e-15));
    // Holding the origin: any direction.
    ResultantDisk around = new ResultantDisk(0.05, 0.05, r);
    assertThat(around.directionHalfWidth()).isEqualTo(Math.PI);
    assertThat(around.minLength()).isZero();
    // Near the unit circle: the directions of the points within it (where the circles meet).
    ResultantDisk edge = new ResultantDisk(1.05, 0, r);
    double meet = Math.acos((1 + 1.05 * 1.05 - r * r) / (2 * 1.05));
    assertThat(edge.directionHalfWidth())
        .isCloseTo(meet, within(1e-15))
        .isLessThan(Math.asin(r / 1.05));
    assertThat(edge.minLength()).isCloseTo(0.95, within(1e-15));
    assertThat(edge.maxLength()).isEqualTo(1);
    assertThat(new ResultantDisk(1.2, 0, r).directionHalfWidth()).isZero();
    // The disk is closed: one whose edge passes through the origin holds it.
    assertThat(new ResultantDisk(0, 0.5, 0.5).directionHalfWidth()).isEqualTo(Math.PI);
    assertThat(new ResultantDisk(0, 0.5, 0.5).minLength()).isZero();
    // Reaching beyond the unit circle, but with its tangent points (at distance sqrt(l^2 - r^2) =
    // 0.86 from the origin) inside it: still the tangents.
    ResultantDisk wide = new ResultantDisk(0, -0.95, 0.4);
    assertThat(wide.direction()).isCloseTo(-Math.PI / 2, within(1e-15));
    assertThat(wide.directionHalfWidth()).isCloseTo(Math.asin(0.4 / 0.95), within(1e-15));
    assertThat(wide.minLength()).isCloseTo(0.55, within(1e-15));
    assertThat(wide.maxLength()).isEqualTo(1);
    // Touching the unit disk from outside: the single direction of the touching point.
    assertThat(new ResultantDisk(-1.25, 0, 0.25).directionHalfWidth()).isZero();
    assertThat(new ResultantDisk(-1.25, 0, 0.25).minLength()).isEqualTo(1);
    assertThat(ResultantDisk.CHI95_2).isCloseTo(2.4477468306808, within(1e-12));
  }

  @Test
  void circularIntervalsAreOneDimensionalTestsOfTheLargestComponentVariance() {
    Domain circle = Domain.circular(0, 360);
    Mechanism m = MechanismCatalog.of(MechanismSpec.builder().epsilon(1).domain(circle).build());
    FieldEstimator estimator = FieldEstimator.of(m, 12);
    double rho1 = m.noiseCosineMoment(0, 1);
    double rho2 = m.noiseCosineMoment(0, 2);
    double sd = Math.sqrt(Math.max((1 - rho2) / 2, (1 + rho2) / 2 - rho1 * rho1));
    int n = 2_000;
    FieldAccumulator acc =
        estimator
            .newAccumulator()
            .withMoments(
                n,
                0,
                n * 0.2 * Math.cos(Math.toRadians(30)),
                n * 0.2 * Math.sin(Math.toRadians(30)))
            // A second moment (C, S) = e^{2i 120 deg}: the window's variance across 30 degrees is
            // one output's along its reading, the largest (FieldEstimatorTest checks the rest).
            .withDoubledAngleMoments(
                n * rho2 * Math.cos(Math.toRadians(240)), n * rho2 * Math.sin(Math.toRadians(240)));
    CircularMeans means = estimator.estimate(acc, false).circular();
    double c = sd / Math.sqrt(n) / rho1;
    double length = 0.2 / rho1;
    // The direction: v's component across it within 1.96 c; the length: the disk's radius.
    double half = Math.toDegrees(Math.asin(Interval.Z95 * c / length));
    assertThat(means.direction().estimate()).isCloseTo(30, within(1e-9));
    // (1e-4 degrees: the slack for the moments' numerical error and the grid, 1e-6 of the sd.)
    assertThat(means.direction().lower()).isCloseTo(30 - half, within(1e-4));
    assertThat(means.direction().upper()).isCloseTo(30 + half, within(1e-4));
    assertThat(means.resultantLength().estimate()).isCloseTo(length, within(1e-12));
    double radius = ResultantDisk.CHI95_2 * c;
    assertThat(means.resultantLength().lower()).isCloseTo(length - radius, within(1e-6));
    assertThat(means.resultantLength().upper()).isCloseTo(length + radius, within(1e-6));
    // Narrower than the disk's projection, which it replaces: 1.96 against 2.45 across.
    assertThat(half).isLessThan(Math.toDegrees(Math.asin(radius / length)) * 0.81);
    // A shorter mean vector: the disk holds the origin, the direction is the whole circle.
    acc.withMoments(n, 0, n * 0.01, 0);
    CircularMeans flat = estimator.estimate(acc, false).circular();
    assertThat(flat.direction().lower()).isEqualTo(0);
    assertThat(flat.direction().upper()).isEqualTo(360);
    assertThat(flat.resultantLength().lower()).isZero();
  }

  @Test
  void mechanismsThatAreNotRotationInvariantGetNoCircularInterval() {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder()
                .type(MechanismType.PM)
                .epsilon(2)
                .domain(Domain.circular(0, 360))
                .build());
    FieldEstimator estimator = FieldEstimator.of(m, 12);
    AesCtrSource bits = AesCtrSource.seeded(8);
    FieldAccumulator acc = estimator.newAccumulator();
    for (int i = 0; i < 1_000; i++) {
      acc.add(m.perturb(90, bits), estimator.binning());
    }
    FieldEstimate e = estimator.estimate(acc, true);
    assertThat(e.circular().direction().hasBounds()).isFalse();
    assertThat(e.circular().resultantLength().hasBounds()).isFalse();
    assertThat(e.circular().reconstructedDirection().hasBounds()).isFalse();
    for (boolean em : new boolean[] {false, true}) {
      JsonNode json = EstimateJson.render(e, em);
      assertThat(json.get("circularMeanInterval").isNull()).isTrue();
      assertThat(json.get("resultantLengthInterval").isNull()).isTrue();
      assertThat(json.get("circularMean").isNumber()).isTrue();
    }
  }
}
