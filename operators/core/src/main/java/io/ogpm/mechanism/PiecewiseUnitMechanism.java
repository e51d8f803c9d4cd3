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
