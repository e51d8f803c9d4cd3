package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.ClassicalOgpm;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * What {@link FieldEstimator} promises, from accumulators filled by hand (no sampling): the affine
 * part of the mean function behind the unbiased estimate, the linear interval's half-width and
 * slack, the circular disk's radius, the headlines, and the reconstruction's means.
 */
class FieldEstimatorTest {
  /** The grid the affine range is found on: 256 steps of the domain. */
  private static final int AFFINE_POINTS = 256;

  private static Mechanism classical(MechanismType type, double eps, double lo, double hi) {
    return MechanismCatalog.of(
        MechanismSpec.builder().type(type).epsilon(eps).domain(Domain.classical(lo, hi)).build());
  }

  /** An accumulator that has seen n values of mean {@code mean} (sums only, empty histogram). */
  /**
   * A window of n outputs with this mean, spread as the mechanism's largest variance (the mean
   * square about the centre that gives).
   */
  private static FieldAccumulator withMean(FieldEstimator estimator, long n, double mean) {
    FieldBinning b = estimator.binning();
    double shift = mean - b.centre();
    return estimator
        .newAccumulator()
        .withMoments(n, n * mean, 0, 0)
        .withSquares(n * (shift * shift + estimator.mechanism().maxOutputVariance()), b);
  }

  @Test
  void ogpmIsUnbiasedOnlyWhereItsCentralPieceIsNotClamped() {
    // OGPM's mean function is affine exactly where the central piece of length s fits in the
    // domain, [lo + s/2 w, hi - s/2 w]; the reported range is that range on a grid of w / 256
    // steps.
    double lo = 2;
    double w = 10;
    Mechanism m = classical(MechanismType.OGPM, 2, lo, lo + w);
    double s = ((ClassicalOgpm) m.unit()).shape().central();
    FieldEstimator estimator = FieldEstimator.of(m, 10);
    LinearMeans means =
        estimator.estimate(withMean(estimator, 1000, m.outputMean(lo + w / 2)), false).linear();
    double step = w / AFFINE_POINTS;
    assertThat(means.unbiasedFrom()).isBetween(lo + s / 2 * w - 1e-9 * w, lo + s / 2 * w + step);
    assertThat(means.unbiasedTo())
        .isBetween(lo + w - s / 2 * w - step, lo + w - s / 2 * w + 1e-9 * w);
    // Through the inverse of that affine part, the expected output mean of any input in the range
    // maps back to the input itself.
    for (double x :
        new double[] {
          means.unbiasedFrom(), lo + 0.3 * w, lo + 0.5 * w, lo + 0.7 * w, means.unbiasedTo()
        }) {
      LinearMeans at =
          estimator.estimate(withMean(estimator, 1000, m.outputMean(x)), false).linear();
      assertThat(at.unbiased()).as("x = %s", x).isCloseTo(x, within(1e-12 * w));
      assertThat(at.raw()).isEqualTo(m.outputMean(x));
    }
  }

  @Test
  void unbiasedMechanismsAreUnbiasedOverTheWholeDomainAtAnyScale() {
    for (MechanismType type :
        new MechanismType[] {MechanismType.PM, MechanismType.SW, MechanismType.OGPM_U}) {
      for (double[] d : new double[][] {{-4, 6}, {-1e6, 1e6}}) {
        Mechanism m = classical(type, 1.5, d[0], d[1]);
        FieldEstimator estimator = FieldEstimator.of(m, 10);
        double x = d[0] + 0.1 * (d[1] - d[0]);
        LinearMeans means =
            estimator.estimate(withMean(estimator, 1000, m.outputMean(x)), false).linear();
        assertThat(means.unbiasedFrom()).as(type.id()).isEqualTo(d[0]);
        assertThat(means.unbiasedTo()).as(type.id()).isEqualTo(d[1]);
        assertThat(means.unbiased()).as(type.id()).isCloseTo(x, within(1e-12 * (d[1] - d[0])));
        assertThat(means.mean().hasBounds()).isTrue();
      }
    }
  }

  @Test
  void mechanismsWhoseMeanFunctionIsNowhereAffineHaveNoUnbiasedEstimate() {
    // Truncated and bounded Laplace: the truncation bends the mean function at every input, so no
    // range is exact. The headline is then the raw mean (moved into the interval if need be).
    for (MechanismType type :
        new MechanismType[] {MechanismType.T_LAPLACE, MechanismType.B_LAPLACE}) {
      Mechanism m = classical(type, 1, 0, 1);
      FieldEstimator estimator = FieldEstimator.of(m, 10);
      LinearMeans means = estimator.estimate(withMean(estimator, 1000, 0.5), false).linear();
      assertThat(means.unbiased()).as(type.id()).isNaN();
      assertThat(means.unbiasedFrom()).as(type.id()).isNaN();
      assertThat(means.unbiasedTo()).as(type.id()).isNaN();
      assertThat(means.mean().estimate()).as(type.id()).isEqualTo(0.5);
    }
  }

  /**
   * One step of MeanIdentification's grid: the identity's envelopes on it are shifted by one step.
   */
  private static double identificationStep(double w) {
    return w / MeanIdentification.POINTS;
  }

  @Test
  void linearIntervalIsTheOutputMeanIntervalWithItsSlackFromTheNormalCountOn() {
    // pm: E[M(x)] = x, so the interval is [L - step, U + step] with [L, U] = mean +- half. In the
    // studentised regime half = (1.96 + term / sqrt n) sd / sqrt(n) + slack, sd = sqrt(the
    // window's variance estimate) + one cell + 1e-6 w; below it, with sd = sqrt(maxVar) + one cell
    // + 1e-6 w, the normal one from the normal count on, else the narrower of the normal one at
    // the widened quantile and Bernstein's half-width over the output range at 5 %; slack one cell
    // + 1e-12 w.
    double lo = -1;
    double w = 4;
    Mechanism m = classical(MechanismType.PM, 4, lo, lo + w);
    FieldEstimator estimator = FieldEstimator.of(m, 10);
    long normalFrom = NormalApproximation.minimumCount(m);
    assertThat(normalFrom).isEqualTo(141); // as OGPM at eps 4: the same skewness bound
    double cellSd = m.cellWidth() + 1e-6 * w;
    double largestSd = Math.sqrt(m.maxOutputVariance()) + cellSd;
    double slack = m.cellWidth() + 1e-12 * w;
    double step = identificationStep(w);
    double mean = 1.25;
    double[] shape = NormalApproximation.largestShape(m);
    WindowVariance variance = WindowVariance.of(m);
    double term = variance.term(Interval.Z95, true);
    double lowerTerm = variance.term(Interval.Z95, false);
    assertThat(lowerTerm).isCloseTo(term, within(1e-9)); // pm is symmetric
    long studentisedFrom = 2;
    while (!NormalApproximation.studentisedHolds(
        studentisedFrom,
        term,
        shape[0],
        shape[1],
        Interval.Z95,
        NormalApproximation.MAX_WIDENED_ERROR,
        NormalApproximation.MAX_REMAINDER)) {
      studentisedFrom++;
    }
    assertThat(studentisedFrom).isLessThan(normalFrom);
    for (long n : new long[] {studentisedFrom - 1, studentisedFrom, 4 * normalFrom}) {
      FieldAccumulator acc = withMean(estimator, n, mean);
      double half;
      double lowerHalf;
      if (n >= studentisedFrom) {
        double sd =
            Math.sqrt(variance.estimate(mean, acc.meanSquare(estimator.binning()))) + cellSd;
        half = (Interval.Z95 + term / Math.sqrt(n)) * sd / Math.sqrt(n) + slack;
        lowerHalf = (Interval.Z95 + lowerTerm / Math.sqrt(n)) * sd / Math.sqrt(n) + slack;
      } else {
        double widened =
            NormalApproximation.widenedQuantile(n, shape[0], shape[1], Interval.Z95, 0.01);
        half =
            Math.min(
                    Double.isNaN(widened)
                        ? Double.POSITIVE_INFINITY
                        : widened * largestSd / Math.sqrt(n),
                    NormalApproximation.bernsteinHalfWidth(
                        n, largestSd * largestSd, m.outputHi() - m.outputLo(), 0.05))
                + slack;
        lowerHalf = half;
      }
      Interval interval = estimator.estimate(acc, false).linear().mean();
      assertThat(interval.lower())
          .as("n = %s", n)
          .isCloseTo(mean - lowerHalf - step, within(1e-13));
      assertThat(interval.upper()).as("n = %s", n).isCloseTo(mean + half + step, within(1e-13));
      assertThat(interval.estimate()).isCloseTo(mean, within(1e-13));
    }
  }

  @Test
  void unboundedOutputsHaveNoIntervalWhereOnlyBernsteinWouldHold() {
    // Staircase: Bernstein needs bounded outputs, so below the normal count there is an interval
    // only where the widened normal one holds.
    Mechanism m = classical(MechanismType.STAIRCASE, 8, 0, 1);
    FieldEstimator estimator = FieldEstimator.of(m, 10);
    long normalFrom = NormalApproximation.minimumCount(m);
    double[] shape = NormalApproximation.largestShape(m);
    int without = 0;
    for (long n = 1; n <= normalFrom; n++) {
      boolean widened =
          !Double.isNaN(
              NormalApproximation.widenedQuantile(n, shape[0], shape[1], Interval.Z95, 0.01));
      LinearMeans means = estimator.estimate(withMean(estimator, n, 0.4), false).linear();
      assertThat(means.mean().hasBounds()).as("n = %s", n).isEqualTo(n >= normalFrom || widened);
      assertThat(means.mean().estimate()).isCloseTo(0.4, within(1e-12));
      without += means.mean().hasBounds() ? 0 : 1;
    }
    assertThat(without).as("counts without an interval").isPositive();
  }

  @Test
  void theUnbiasedHeadlineIsMovedIntoTheInterval() {
    // An output mean below g(lo), which the noise allows: the unbiased estimate is below lo, the
    // interval starts at lo, and the headline is moved there.
    Mechanism m = classical(MechanismType.OGPM, 1, 0, 1);
    FieldEstimator estimator = FieldEstimator.of(m, 10);
    LinearMeans means =
        estimator.estimate(withMean(estimator, 1000, m.outputMean(0) - 0.2), false).linear();
    assertThat(means.unbiased()).isLessThan(0);
    assertThat(means.mean().lower()).isEqualTo(0);
    assertThat(means.mean().estimate()).isEqualTo(0);
  }

  /** An accumulator with values added by hand (outputs chosen, not sampled). */
  private static FieldAccumulator withValues(
      FieldEstimator estimator, double[] values, int[] repeats) {
    FieldAccumulator acc = estimator.newAccumulator();
    for (int v = 0; v < values.length; v++) {
      for (int r = 0; r < repeats[v]; r++) {
        acc.add(values[v], estimator.binning());
      }
    }
    return acc;
  }

  @Test
  void theReconstructedMeanIsLocatedToHalfABinNearestTheUnbiasedOneAndMovedIntoTheSameInterval() {
    Mechanism m = classical(MechanismType.OGPM, 2, 0, 10);
    FieldEstimator estimator = FieldEstimator.of(m, 10);
    assertThat(estimator.canReconstruct()).isTrue();
    FieldAccumulator acc =
        withValues(estimator, new double[] {2.5, 7.5, 9.9}, new int[] {300, 100, 40});
    FieldEstimate withEm = estimator.estimate(acc, true);
    double[] f = withEm.reconstructedHistogram();
    double mean = 0;
    for (int i = 0; i < 10; i++) {
      mean += f[i] * (i + 0.5);
    }
    LinearMeans means = withEm.linear();
    assertThat(means.reconstructed()).isCloseTo(mean, within(1e-12));
    assertThat(estimator.meanOf(f)).isCloseTo(mean, within(1e-12));
    Interval rec = means.reconstructedMean();
    assertThat(rec.lower()).isEqualTo(means.mean().lower());
    assertThat(rec.upper()).isEqualTo(means.mean().upper());
    // The reconstruction locates the mean to half a bin (0.5 here): the point within that nearest
    // the unbiased estimate, moved into the interval.
    double unbiased = means.mean().estimate();
    double located = mean + Math.max(-0.5, Math.min(0.5, unbiased - mean));
    assertThat(Math.abs(unbiased - mean)).isLessThan(0.5);
    assertThat(rec.estimate())
        .isEqualTo(Math.min(Math.max(located, rec.lower()), rec.upper()))
        .isNotEqualTo(mean);
    Reconstruction.Result alone = estimator.reconstruct(acc);
    assertThat(alone.frequencies()).containsExactly(f);
    assertThat(withEm.iterations()).isEqualTo(alone.iterations()).isPositive();
    assertThat(estimator.transition().rows()).isEqualTo(estimator.binning().outputBins());

    FieldEstimate withoutEm = estimator.estimate(acc, false);
    assertThat(withoutEm.reconstructedHistogram()).isNull();
    assertThat(withoutEm.iterations()).isZero();
    assertThat(withoutEm.linear().reconstructedMean()).isNull();
    assertThat(withoutEm.linear().reconstructed()).isNaN();
    assertThat(withoutEm.rawHistogram())
        .containsExactly(0, 0, 300 / 440.0, 0, 0, 0, 0, 100 / 440.0, 0, 40 / 440.0);
  }

  @Test
  void anEmptyWindowHasNoMeansAndNoReconstruction() {
    Mechanism m = classical(MechanismType.OGPM, 2, 0, 10);
    FieldEstimator estimator = FieldEstimator.of(m, 4);
    FieldEstimate e = estimator.estimate(estimator.newAccumulator(), true);
    assertThat(e.count()).isZero();
    assertThat(e.rawHistogram()).containsExactly(0, 0, 0, 0);
    assertThat(e.reconstructedHistogram()).isNull();
    assertThat(e.iterations()).isZero();
    assertThat(e.linear()).isNull();
    assertThat(e.circular()).isNull();
  }

  @Test
  void mechanismsWithoutPiecewiseOutputsAreNotReconstructed() {
    Mechanism m = classical(MechanismType.T_LAPLACE, 2, 0, 10);
    FieldEstimator estimator = FieldEstimator.of(m, 10);
    assertThat(estimator.canReconstruct()).isFalse();
    assertThatThrownBy(estimator::transition)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("reconstruction needs a piecewise mechanism");
    FieldEstimate e =
        estimator.estimate(withValues(estimator, new double[] {3}, new int[] {50}), true);
    assertThat(e.reconstructedHistogram()).isNull();
    assertThat(e.linear().reconstructedMean()).isNull();
  }

  @Test
  void theCircularMeanOfADistributionOverTheBinsIsTheDirectionOfItsBinCentres() {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(2).domain(Domain.circular(10, 370)).build());
    FieldEstimator estimator = FieldEstimator.of(m, 8);
    double[] f = new double[8];
    f[7] = 1;
    assertThat(estimator.circularMeanAngleOf(f))
        .isCloseTo(2 * Math.PI * 7.5 / 8 - 2 * Math.PI, within(1e-15));
    f[7] = 0.5;
    f[1] = 0.5;
    // Bins 1 and 7 are centred at 3 pi / 8 and 15 pi / 8: their mean direction is 9 pi / 8 - pi.
    assertThat(estimator.circularMeanAngleOf(f)).isCloseTo(Math.PI / 8, within(1e-15));
  }

  private static Mechanism circularOgpm(double eps) {
    return MechanismCatalog.of(
        MechanismSpec.builder().epsilon(eps).domain(Domain.circular(10, 370)).build());
  }

  /**
   * An accumulator whose mean resultant vector of the outputs has this length and field direction.
   */
  private static FieldAccumulator withResultant(
      FieldEstimator estimator, long n, double length, double direction) {
    FieldBinning b = estimator.binning();
    double angle = 2 * Math.PI * (direction - b.lo()) / b.width();
    return estimator
        .newAccumulator()
        .withMoments(n, 0, n * length * Math.cos(angle), n * length * Math.sin(angle));
  }

  @Test
  void theCircularIntervalsAreTheDocumentedProjectionsFromTheNormalCountOnAndBernsteinsDiskBelow() {
    // From the normal count on, studentised by the window's covariance: with rho1, rho2 the noise's
    // cosine moments, along = (1 + rho2) / 2 - rho1^2 and across = (1 - rho2) / 2 one output's
    // variances along and across its reading, and (C, S) the window's mean (cos 2y, sin 2y) over
    // rho2 (here 0.8 e^{2i t}, t the direction), the variance across phi is across + (along -
    // across) (1 - C cos 2 phi - S sin 2 phi) / 2 and the largest across + (along - across) (1 +
    // 0.8) / 2; each sd plus the slacks, over sqrt(n) rho1, at most the worst case's c = s /
    // (sqrt(n) rho1). With slack = (angle slack + n 2^-52) / rho1: the length l +-
    // (sqrt(chi2_2(0.95))
    // c_largest + slack); the direction +- asin((1.96 c_w + slack) / l), c_w the largest across-sd
    // over twice the half-width asin((1.96 c_across(t) + slack) / l) each way. Below it, the disk
    // of
    // radius spread / rho1 + slack with spread sqrt(2) times Bernstein's half-width at 2.5 % over a
    // range 1 + rho1 + 2 slack; s the largest component sd plus the slacks (one cell as an angle
    // plus 1e-12, and 1e-6).
    Mechanism m = circularOgpm(4);
    FieldEstimator estimator = FieldEstimator.of(m, 12);
    double rho1 = m.noiseCosineMoment(10, 1);
    double rho2 = m.noiseCosineMoment(10, 2);
    double angleSlack = 2 * Math.PI * m.cellWidth() / 360 + 1e-12;
    double along = (1 + rho2) / 2 - rho1 * rho1;
    double across = (1 - rho2) / 2;
    double extra = angleSlack + 1e-6;
    double s = Math.sqrt(Math.max(across, along)) + extra;
    long normalFrom =
        NormalApproximation.minimumCount(
            rho1, rho2, m.noiseCosineMoment(10, 3), m.noiseCosineMoment(10, 4));
    double length = 0.7;
    double l = length / rho1;
    double t = Math.toRadians(100 - 10);
    double concentration = 0.8;
    for (long n : new long[] {normalFrom - 1, normalFrom, 10 * normalFrom}) {
      double slack = (angleSlack + n * 0x1p-52) / rho1;
      double lower;
      double upper;
      double half;
      if (n >= normalFrom) {
        double c = s / Math.sqrt(n) / rho1;
        DoubleUnaryOperator acrossSd =
            phi -> {
              double share = (1 - concentration * Math.cos(2 * (phi - t))) / 2;
              double sd = Math.sqrt(across + (along - across) * share) + extra;
              return Math.min(c, sd / Math.sqrt(n) / rho1);
            };
        double largest =
            Math.min(
                c,
                (Math.sqrt(across + (along - across) * (1 + concentration) / 2) + extra)
                    / Math.sqrt(n)
                    / rho1);
        assertThat(largest).isLessThan(c); // not the worst case: the test sees the estimate
        lower = l - ResultantDisk.CHI95_2 * largest - slack;
        upper = Math.min(1, l + ResultantDisk.CHI95_2 * largest + slack);
        double first = Math.asin((Interval.Z95 * acrossSd.applyAsDouble(t) + slack) / l);
        // The across-sd grows away from t: the widest over +-2 first is at its ends.
        double widest = acrossSd.applyAsDouble(t + 2 * first);
        assertThat(widest).isGreaterThan(acrossSd.applyAsDouble(t));
        half = Math.toDegrees(Math.asin((Interval.Z95 * widest + slack) / l));
      } else {
        double spread =
            Math.sqrt(2)
                * NormalApproximation.bernsteinHalfWidth(
                    n, s * s, 1 + rho1 + 2 * angleSlack, 0.025);
        double radius = spread / rho1 + slack;
        assertThat(l * l - radius * radius).isLessThan(1); // the tangents bound the directions
        lower = l - radius;
        upper = Math.min(1, l + radius);
        half = Math.toDegrees(Math.asin(radius / l));
      }
      FieldAccumulator acc =
          withResultant(estimator, n, length, 100)
              .withDoubledAngleMoments(
                  n * rho2 * concentration * Math.cos(2 * t),
                  n * rho2 * concentration * Math.sin(2 * t));
      CircularMeans means = estimator.estimate(acc, false).circular();
      assertThat(means.resultantLength().estimate())
          .as("n = %s", n)
          .isCloseTo(Math.min(1, l), within(1e-14));
      assertThat(means.resultantLength().lower()).as("n = %s", n).isCloseTo(lower, within(1e-14));
      assertThat(means.resultantLength().upper()).as("n = %s", n).isCloseTo(upper, within(1e-14));
      assertThat(means.direction().estimate()).isCloseTo(100, within(1e-9));
      assertThat(means.direction().lower()).as("n = %s", n).isCloseTo(100 - half, within(1e-9));
      assertThat(means.direction().upper()).as("n = %s", n).isCloseTo(100 + half, within(1e-9));
    }
  }

  @Test
  void theReconstructedDirectionIsMovedOntoTheArcFromEitherSide() {
    // Every output in one output bin: the reconstruction is symmetric about that bin's centre, so
    // its circular mean is the centre. The outputs' sums point elsewhere (set by hand), so the
    // reconstructed direction falls outside the narrow arc and is moved to its nearer end.
    Mechanism m = circularOgpm(4);
    FieldEstimator estimator = FieldEstimator.of(m, 36);
    long n = 20_000;
    for (double[] c : new double[][] {{205, 100, +1}, {355, 100, -1}, {105, 105, 0}}) {
      FieldAccumulator acc = withResultant(estimator, n, 0.7, c[1]);
      long[] counts = new long[36];
      counts[estimator.binning().outputBin(c[0])] = n;
      acc.setHistogram(counts);
      CircularMeans means = estimator.estimate(acc, true).circular();
      assertThat(means.reconstructed()).isCloseTo(c[0], within(1e-9));
      Interval arc = means.direction();
      Interval rec = means.reconstructedDirection();
      assertThat(rec.lower()).isEqualTo(arc.lower());
      assertThat(rec.upper()).isEqualTo(arc.upper());
      double expected = c[2] > 0 ? arc.upper() : c[2] < 0 ? arc.lower() : c[0];
      assertThat(rec.estimate()).as("reconstruction at %s", c[0]).isCloseTo(expected, within(1e-9));
      assertThat(estimator.estimate(acc, false).circular().reconstructedDirection()).isNull();
      assertThat(estimator.estimate(acc, false).circular().reconstructed()).isNaN();
    }
  }

  @Test
  void directionsAreWrappedIntoTheFieldsHalfOpenRange() {
    // On [1000, 1360) a direction a hair below 0 maps to lo - 1.1e-13, whose wrap lo + (w -
    // 1.1e-13)
    // rounds to hi itself: it must come out as lo.
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(2).domain(Domain.circular(1000, 1360)).build());
    FieldEstimator estimator = FieldEstimator.of(m, 12);
    double angle = (Math.nextDown(1000.0) - 1000) * 2 * Math.PI / 360;
    assertThat(1000 + 360 * angle / (2 * Math.PI)).isEqualTo(Math.nextDown(1000.0));
    FieldAccumulator acc =
        estimator.newAccumulator().withMoments(100, 0, 50 * Math.cos(angle), 50 * Math.sin(angle));
    CircularMeans means = estimator.estimate(acc, false).circular();
    assertThat(means.direction().estimate()).isEqualTo(1000);
    // The same through the arc's ends: a direction at 1180 (angle pi) with the arc within [1000,
    // 1360).
    CircularMeans opposite =
        estimator.estimate(withResultant(estimator, 100_000, 0.5, 1180), false).circular();
    assertThat(opposite.direction().estimate()).isCloseTo(1180, within(1e-9));
    assertThat(opposite.direction().lower()).isBetween(1000.0, 1180.0);
    assertThat(opposite.direction().upper()).isBetween(1180.0, 1360.0);
  }

  @Test
  void mechanismsThatAreNotRotationInvariantReportTheOutputsOwnDirectionAndLength() {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder()
                .type(MechanismType.PM)
                .epsilon(2)
                .domain(Domain.circular(10, 370))
                .build());
    FieldEstimator estimator = FieldEstimator.of(m, 36);
    FieldAccumulator acc =
        withValues(estimator, new double[] {40, 100, 400}, new int[] {10, 20, 5});
    double c = acc.sumCos() / 35;
    double s = acc.sumSin() / 35;
    FieldEstimate estimate = estimator.estimate(acc, true);
    CircularMeans means = estimate.circular();
    double direction = 10 + 360 * Math.atan2(s, c) / (2 * Math.PI);
    assertThat(means.direction().estimate()).isCloseTo(direction, within(1e-9));
    assertThat(means.resultantLength().estimate()).isCloseTo(Math.hypot(c, s), within(1e-15));
    assertThat(means.reconstructedDirection().hasBounds()).isFalse();
    assertThat(means.reconstructed()).isBetween(10.0, 370.0);
    // The reconstruction's direction resolves to asin(chord of half a bin / its length): the
    // headline is the point of that arc nearest the outputs' direction.
    double[] f = estimate.reconstructedHistogram();
    double fc = 0;
    double fs = 0;
    for (int i = 0; i < 36; i++) {
      fc += f[i] * Math.cos(2 * Math.PI * (i + 0.5) / 36);
      fs += f[i] * Math.sin(2 * Math.PI * (i + 0.5) / 36);
    }
    double resolved = Math.toDegrees(Math.asin(2 * Math.sin(Math.PI / 36) / Math.hypot(fc, fs)));
    double apart = Math.abs(Math.IEEEremainder(direction - means.reconstructed(), 360));
    assertThat(apart).isGreaterThan(resolved);
    assertThat(
            Math.abs(
                Math.IEEEremainder(means.reconstructedDirection().estimate() - direction, 360)))
        .isCloseTo(apart - resolved, within(1e-9));
    CircularMeans plain = estimator.estimate(acc, false).circular();
    assertThat(plain.reconstructedDirection()).isNull();
    assertThat(plain.reconstructed()).isNaN();
  }

  /**
   * The lighter estimate the benchmarks set beside the shipped one: the reference EMS schedule, the
   * output mean's interval alone, the disk's direction on the circle, no band; the same counts and
   * raw histogram as the shipped estimate's.
   */
  @Test
  void theEstimateWithoutTailsOrBandIsTheReferenceScheduleWithTheOutputMeansIntervalAndNoBand() {
    Mechanism m = MechanismCatalog.of(MechanismSpec.builder().epsilon(1).build());
    FieldEstimator e = FieldEstimator.of(m, 50);
    FieldAccumulator acc = e.newAccumulator("f");
    io.ogpm.mechanism.random.AesCtrSource bits = io.ogpm.mechanism.random.AesCtrSource.seeded(4);
    for (int i = 0; i < 20_000; i++) {
      acc.add(m.perturb(0.25 + 0.5 * bits.nextUniform(), bits), e.binning());
    }
    FieldEstimate now = e.estimate(acc, true);
    FieldEstimate light = e.estimateWithoutTailsOrBand(acc);
    assertThat(light.count()).isEqualTo(now.count());
    assertThat(light.rawHistogram()).containsExactly(now.rawHistogram());
    assertThat(light.reconstructedHistogram())
        .containsExactly(
            Reconstruction.em(
                    acc.getHistogram(), e.transition(), Reconstruction.Schedule.PLAIN_FIRST)
                .frequencies());
    assertThat(light.distribution()).isNull();
    assertThat(now.distribution()).isNotNull();
    assertThat(light.linear().intervalMethod())
        .isEqualTo(MeanIntervalMethod.STUDENTISED_OUTPUT_MEAN);
    assertThat(now.linear().intervalMethod())
        .isEqualTo(MeanIntervalMethod.STUDENTISED_OUTPUT_MEAN_AND_TAILS);
    // Inputs on the middle half: the tails make the shipped interval several times narrower.
    double lightWidth = light.linear().mean().upper() - light.linear().mean().lower();
    double width = now.linear().mean().upper() - now.linear().mean().lower();
    assertThat(width).isLessThan(lightWidth / 3);
    assertThat(light.linear().raw()).isEqualTo(now.linear().raw());

    Mechanism circle =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(1).domain(Domain.circular(-Math.PI, Math.PI)).build());
    FieldEstimator c = FieldEstimator.of(circle, 50);
    FieldAccumulator angles = c.newAccumulator("a");
    for (int i = 0; i < 5_000; i++) {
      angles.add(circle.perturb(0.3 * bits.nextUniform(), bits), c.binning());
    }
    FieldEstimate lightCircle = c.estimateWithoutTailsOrBand(angles);
    assertThat(lightCircle.circular().direction())
        .isEqualTo(c.circularMeansFromTheDisk(angles).direction());
    assertThat(lightCircle.distribution()).isNull();
    assertThatThrownBy(() -> c.estimateWithoutTailsOrBand(c.newAccumulator("a")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Normal readings around the middle of [0, 1], sd 0.05, clamped to it. */
  private static double[] normalReadings(int n, io.ogpm.mechanism.random.RandomBits bits) {
    double[] xs = new double[n];
    for (int i = 0; i < n; i++) {
      double u1 = (bits.nextLong() >>> 11) * 0x1p-53;
      double u2 = (bits.nextLong() >>> 11) * 0x1p-53;
      double z = Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
      xs[i] = Math.min(1, Math.max(0, 0.5 + 0.05 * z));
    }
    return xs;
  }

  /**
   * OGPM at eps 1 on [0, 1], 10,000 readings normal around the middle (sd 0.05): the median's
   * interval holds the sample median and is narrower than 0.2; the share above 0.6 (about 2.3 %) is
   * in its interval; each estimate is the reconstruction's, moved into its interval, and the
   * interval's middle without a reconstruction, the interval itself the same.
   */
  @Test
  void theDistributionHoldsTheMedianAndTheShareAboveAThreshold() {
    Mechanism m = classical(MechanismType.OGPM, 1, 0, 1);
    FieldEstimator estimator =
        FieldEstimator.of(m, 50, DistributionQuery.DEFAULT.withThresholds(0.6));
    io.ogpm.mechanism.random.AesCtrSource bits = io.ogpm.mechanism.random.AesCtrSource.seeded(61);
    double[] xs = normalReadings(10_000, bits);
    FieldAccumulator acc = estimator.newAccumulator();
    for (double x : xs) {
      acc.add(m.perturb(x, bits), estimator.binning());
    }
    double[] sorted = xs.clone();
    java.util.Arrays.sort(sorted);
    double median = sorted[xs.length / 2 - 1]; // the least t with F(t) >= 0.5
    double above = java.util.Arrays.stream(xs).filter(x -> x > 0.6).count() / (double) xs.length;

    FieldEstimate e = estimator.estimate(acc, true);
    DistributionEstimate d = e.distribution();
    assertThat(d.quantiles())
        .extracting(QuantileEstimate::probability)
        .containsExactly(0.1, 0.5, 0.9);
    Interval m50 = d.quantiles().get(1).interval();
    assertThat(m50.contains(median)).as("%s holds %s", m50, median).isTrue();
    assertThat(m50.upper() - m50.lower()).isLessThan(0.2);
    assertThat(m50.estimate())
        .isEqualTo(
            Math.min(
                Math.max(estimator.quantileOf(e.reconstructedHistogram(), 0.5), m50.lower()),
                m50.upper()));
    assertThat(d.exceedances()).extracting(ExceedanceEstimate::threshold).containsExactly(0.6);
    Interval share = d.exceedances().get(0).interval();
    assertThat(share.contains(above)).as("%s holds %s", share, above).isTrue();
    assertThat(share.estimate())
        .isEqualTo(
            Math.min(
                Math.max(estimator.shareAbove(e.reconstructedHistogram(), 0.6), share.lower()),
                share.upper()));
    assertThat(d.cdf().points()[0]).isEqualTo(0);
    assertThat(d.cdf().points()[d.cdf().points().length - 1]).isEqualTo(1);

    DistributionEstimate raw = estimator.estimate(acc, false).distribution();
    Interval rawMedian = raw.quantiles().get(1).interval();
    assertThat(rawMedian.lower()).isEqualTo(m50.lower());
    assertThat(rawMedian.upper()).isEqualTo(m50.upper());
    assertThat(rawMedian.estimate()).isEqualTo((m50.lower() + m50.upper()) / 2);
    Interval rawShare = raw.exceedances().get(0).interval();
    assertThat(rawShare.estimate()).isEqualTo((share.lower() + share.upper()) / 2);
  }

  /**
   * A circular field's distribution runs along the arc from the domain's start: readings around 90
   * degrees on [0, 360), their median in its interval, the band from 0 to 360.
   */
  @Test
  void aCircularFieldHasADistributionAlongTheArcFromTheDomainsStart() {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(2).domain(Domain.circular(0, 360)).build());
    FieldEstimator estimator =
        FieldEstimator.of(m, 36, DistributionQuery.DEFAULT.withThresholds(0, 120, 360));
    io.ogpm.mechanism.random.AesCtrSource bits = io.ogpm.mechanism.random.AesCtrSource.seeded(62);
    double[] xs = normalReadings(5_000, bits);
    FieldAccumulator acc = estimator.newAccumulator();
    for (int i = 0; i < xs.length; i++) {
      xs[i] = 360 * xs[i] - 90; // around 90, sd 18 degrees
      acc.add(m.perturb(xs[i], bits), estimator.binning());
    }
    double[] sorted = xs.clone();
    java.util.Arrays.sort(sorted);
    DistributionEstimate d = estimator.estimate(acc, true).distribution();
    assertThat(d).isNotNull();
    assertThat(d.cdf().points()[0]).isEqualTo(0);
    assertThat(d.cdf().points()[d.cdf().points().length - 1]).isEqualTo(360);
    Interval median = d.quantiles().get(1).interval();
    assertThat(median.contains(sorted[xs.length / 2 - 1])).as("%s", median).isTrue();
    assertThat(median.estimate()).isBetween(median.lower(), median.upper());
    double above = java.util.Arrays.stream(xs).filter(x -> x > 120).count() / (double) xs.length;
    assertThat(d.exceedances().get(1).interval().contains(above)).isTrue();
    assertThat(d.exceedances().get(0).interval().upper()).isEqualTo(1);
    assertThat(d.exceedances().get(2).interval()).isEqualTo(new Interval(0, 0, 0));
  }

  /**
   * No distribution for an empty window, for a mechanism without a band (no piecewise outputs), or
   * in the estimate without tails or band.
   */
  @Test
  void thereIsNoDistributionWithoutValuesOrABand() {
    Mechanism m = classical(MechanismType.OGPM, 2, 0, 10);
    FieldEstimator estimator = FieldEstimator.of(m, 10);
    assertThat(estimator.query()).isEqualTo(DistributionQuery.DEFAULT);
    assertThat(estimator.estimate(estimator.newAccumulator(), true).distribution()).isNull();
    FieldAccumulator acc = withValues(estimator, new double[] {2.5, 7.5}, new int[] {100, 100});
    assertThat(estimator.estimate(acc, true).distribution()).isNotNull();
    assertThat(estimator.estimateWithoutTailsOrBand(acc).distribution()).isNull();
    FieldEstimator laplace = FieldEstimator.of(classical(MechanismType.T_LAPLACE, 2, 0, 10), 10);
    assertThat(
            laplace
                .estimate(withValues(laplace, new double[] {2.5}, new int[] {100}), false)
                .distribution())
        .isNull();
  }

  /** A threshold outside the field's domain is refused, naming it; its ends are in it. */
  @Test
  void thresholdsMustLieInTheDomain() {
    Mechanism m = classical(MechanismType.OGPM, 2, 0, 10);
    assertThatThrownBy(
            () -> FieldEstimator.of(m, 10, DistributionQuery.DEFAULT.withThresholds(5, 10.5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("exceedance threshold 10.5 is outside the domain [0.0, 10.0]");
    assertThatThrownBy(() -> FieldEstimator.of(m, 10, DistributionQuery.DEFAULT.withThresholds(-1)))
        .hasMessage("exceedance threshold -1.0 is outside the domain [0.0, 10.0]");
    DistributionQuery ends = DistributionQuery.of(new double[] {0.5}, new double[] {0, 10});
    assertThat(FieldEstimator.of(m, 10, ends).query()).isEqualTo(ends);
  }

  /**
   * The reconstruction's quantile and exceedance, by hand: mass spread evenly within each bin, so
   * the cumulative distribution is linear there.
   */
  @Test
  void quantilesAndSharesOfAHistogramAreLinearWithinEachBin() {
    FieldEstimator estimator = FieldEstimator.of(classical(MechanismType.OGPM, 2, 0, 10), 4);
    double[] f = {0.25, 0.5, 0, 0.25}; // bins of 2.5
    assertThat(estimator.quantileOf(f, 0.1)).isCloseTo(1.0, within(1e-12));
    assertThat(estimator.quantileOf(f, 0.5)).isCloseTo(3.75, within(1e-12));
    // F reaches 0.75 at 5 and stays there over the empty bin: the least t is 5.
    assertThat(estimator.quantileOf(f, 0.75)).isCloseTo(5.0, within(1e-12));
    assertThat(estimator.quantileOf(f, 0.875)).isCloseTo(8.75, within(1e-12));
    assertThat(estimator.shareAbove(f, 0)).isEqualTo(1);
    assertThat(estimator.shareAbove(f, 1.25)).isCloseTo(0.875, within(1e-12));
    assertThat(estimator.shareAbove(f, 6)).isCloseTo(0.25, within(1e-12));
    assertThat(estimator.shareAbove(f, 8.75)).isCloseTo(0.125, within(1e-12));
    assertThat(estimator.shareAbove(f, 10)).isEqualTo(0);
  }
}
