package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;

/**
 * A unit mechanism whose output distribution is piecewise uniform plus point masses, so that it can
 * be printed, integrated exactly and checked exactly for the LDP ratio.
 */
@Internal
public interface PiecewiseUnitMechanism extends UnitMechanism {
  /** The output distribution for input z in [0, 1], in unit coordinates. */
  PiecewiseDistribution distribution(double z);

  /**
   * Whether the output density is positive on a piece of positive length for every input, so that
   * outputs carry information about where in the domain the inputs lie and a window's distribution
   * can be reconstructed. False for a mechanism that releases atoms only (the hybrid mechanism
   * below its switch, which is Duchi et al.'s two outputs): its outputs identify the mean alone.
   */
  default boolean resolvesDistributions() {
    return true;
  }

  @Override
  default double outputMean(double z) {
    return distribution(z).mean();
  }

  @Override
  default double outputVariance(double z) {
    return distribution(z).variance();
  }

  @Override
  default double noiseCosineMoment(double z, int k) {
    return distribution(z).cosineMoment(z, 2 * Math.PI * k);
  }

  /** Exact: integrates the loss on every piece and atom of {@link #distribution}. */
  @Override
  default double expectedError(double z, ErrorMetric metric, Distance distance) {
    return distribution(z).expectedError(z, metric, distance, 1);
  }
}
