package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.ClassicalOgpm;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
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
    return Mechanism.of(MechanismSpec.builder().type(type).epsilon(eps).domain(Domain.classical(lo, hi)).build());
  }

  /** An accumulator that has seen n values of mean {@code mean} (sums only, empty histogram). */
  private static FieldAccumulator withMean(FieldEstimator estimator, long n, double mean) {
    FieldAccumulator acc = estimator.newAccumulator();
    acc.setCount(n);
    acc.setSum(n * mean);
    return acc;
  }

  @Test
  void ogpmIsUnbiasedOnlyWhereItsCentralPieceIsNotClamped() {
    // OGPM's mean function is affine exactly where the central piece of length s fits in the
    // domain, [lo + s/2 w, hi - s/2 w]; the reported range is that range on a grid of w / 256 steps.
    double lo = 2;
    double w = 10;
    Mechanism m = classical(MechanismType.OGPM, 2, lo, lo + w);
    double s = ((ClassicalOgpm) m.unit()).shape().central();
    FieldEstimator estimator = FieldEstimator.of(m, 10);
    LinearMeans means = estimator.estimate(withMean(estimator, 1000, m.outputMean(lo + w / 2)), false).linear();
    double step = w / AFFINE_POINTS;
    assertThat(means.unbiasedFrom()).isBetween(lo + s / 2 * w - 1e-9 * w, lo + s / 2 * w + step);
    assertThat(means.unbiasedTo()).isBetween(lo + w - s / 2 * w - step, lo + w - s / 2 * w + 1e-9 * w);
    // Through the inverse of that affine part, the expected output mean of any input in the range
    // maps back to the input itself.
    for (double x : new double[] {means.unbiasedFrom(), lo + 0.3 * w, lo + 0.5 * w, lo + 0.7 * w, means.unbiasedTo()}) {
      LinearMeans at = estimator.estimate(withMean(estimator, 1000, m.outputMean(x)), false).linear();
      assertThat(at.unbiased()).as("x = %s", x).isCloseTo(x, within(1e-12 * w));
      assertThat(at.raw()).isEqualTo(m.outputMean(x));
    }
  }

  @Test
  void unbiasedMechanismsAreUnbiasedOverTheWholeDomain() {
    for (MechanismType type : new MechanismType[] {MechanismType.PM, MechanismType.SW, MechanismType.OGPM_U}) {
      Mechanism m = classical(type, 1.5, -4, 6);
      FieldEstimator estimator = FieldEstimator.of(m, 10);
      LinearMeans means = estimator.estimate(withMean(estimator, 1000, m.outputMean(-3)), false).linear();
      assertThat(means.unbiasedFrom()).as(type.id()).isEqualTo(-4);
      assertThat(means.unbiasedTo()).as(type.id()).isEqualTo(6);
      assertThat(means.unbiased()).as(type.id()).isCloseTo(-3, within(1e-11));
    }
  }

  @Test
  void mechanismsWhoseMeanFunctionIsNowhereAffineHaveNoUnbiasedEstimate() {
    // Truncated and bounded Laplace: the truncation bends the mean function at every input, so no
    // range is exact. The headline is then the raw mean (moved into the interval if need be).
    for (MechanismType type : new MechanismType[] {MechanismType.T_LAPLACE, MechanismType.B_LAPLACE}) {
      Mechanism m = classical(type, 1, 0, 1);
      FieldEstimator estimator = FieldEstimator.of(m, 10);
      LinearMeans means = estimator.estimate(withMean(estimator, 1000, 0.5), false).linear();
      assertThat(means.unbiased()).as(type.id()).isNaN();
      assertThat(means.unbiasedFrom()).as(type.id()).isNaN();
      assertThat(means.unbiasedTo()).as(type.id()).isNaN();
      assertThat(means.mean().estimate()).as(type.id()).isEqualTo(0.5);
    }
  }
}
