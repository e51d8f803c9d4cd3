package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;
import io.ogpm.annotation.PublicEvolving;

/**
 * A mechanism on the unit domain: inputs z in [0, 1] (a circle of period 1 when {@link
 * #circular()}), outputs in [{@link #outputLo()}, {@link #outputHi()}). Every mechanism of the
 * paper is defined on a unit (or fixed) domain and carried to [lo, hi) by the affine map of the
 * Theorem "Transformation invariants", which keeps both the privacy level and the error ordering;
 * {@link Mechanism} applies that map.
 *
 * <p>Implementations are immutable and thread-safe.
 */
@PublicEvolving
public interface UnitMechanism {
  /** The privacy parameter this mechanism satisfies. */
  double epsilon();

  /** Whether inputs and outputs live on a circle of period 1. */
  boolean circular();

  /** Lower end of the output domain, in unit coordinates. */
  double outputLo();

  /** Upper (open) end of the output domain, in unit coordinates. */
  double outputHi();

  /**
   * The output for input z and a uniform draw u in [0, 1), by inverse-cdf sampling: one uniform,
   * one output, no rejection. Not snapped to a grid; the caller snaps.
   */
  double inverseCdf(double z, double u);

  /** {@code E[dist(M(z), z)^k]} in unit coordinates (period 1 for circular distance). */
  double expectedError(double z, ErrorMetric metric, Distance distance);

  /**
   * The largest expected error over all inputs. The default searches: a scan of 2048 inputs with
   * both ends, then Brent's method around the largest (see {@code Optimize}); exact when the
   * maximum sits at an end, as for every mechanism in the paper (Lemma 1).
   */
  /** {@code E[M(z)]}, in unit coordinates. */
  double outputMean(double z);

  /** {@code Var[M(z)]}, in unit coordinates. */
  double outputVariance(double z);

  /**
   * {@code E[cos(2 pi k (M(z) - z))]}: the k-th trigonometric moment of the noise on the unit
   * circle (for a rotation-invariant circular mechanism, the same for every z).
   */
  double noiseCosineMoment(double z, int k);

  /** The largest output variance over all inputs (by search, as {@link #worstCaseError}). */
  default double maxOutputVariance() {
    double z = Optimize.maximize(this::outputVariance, 0, 1, 512);
    return Math.max(outputVariance(z), Math.max(outputVariance(0), outputVariance(1)));
  }

  /**
   * The sampler of output cells on a grid. The default draws a 53-bit uniform, applies {@link
   * #inverseCdf} and snaps: its cell probabilities are floating-point approximations, so it
   * certifies no epsilon and {@link Mechanism} refuses it. Every shipped mechanism overrides it
   * with an exact sampler ({@link TwoLevelCellSampler}, or exact geometric noise); the default is
   * left for analysis and for mechanisms under audit.
   */
  @Internal
  default CellSampler cellSampler(OutputGrid grid) {
    return (z, bits) -> grid.cell(inverseCdf(z, bits.nextUniform()));
  }

  default double worstCaseError(ErrorMetric metric, Distance distance) {
    double z = Optimize.maximize(v -> expectedError(v, metric, distance), 0, 1, 2048);
    return Math.max(
        expectedError(z, metric, distance),
        Math.max(expectedError(0, metric, distance), expectedError(1, metric, distance)));
  }
}
