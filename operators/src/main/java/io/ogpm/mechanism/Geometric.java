package io.ogpm.mechanism;

import io.ogpm.mechanism.random.RandomBits;

/**
 * Exact sampling of a (truncated) geometric distribution: {@code P(m) ∝ e^(-lambda m)} for m in
 * {0, ..., max}. The building block of every discrete Laplace-type sampler here.
 *
 * <p>The method is the binary search of Google's differential-privacy library ({@code
 * SecureNoiseMath}/{@code LaplaceNoise.sampleGeometric}): the interval (left, right] is split at a
 * point that halves its probability mass, and one uniform draw decides which half holds the
 * sample, with the exact conditional probability {@code (1 - e^(-lambda (mid - left))) / (1 -
 * e^(-lambda (right - left)))}. Every step's probability is close to 1/2, so a 53-bit uniform
 * decides it to 2^-53 relative; unlike {@code floor(-ln(U) / lambda)}, the far tail is not cut
 * off where U runs out of bits, so no output has probability zero for one input and not for
 * another. At most ~64 steps.
 */
public final class Geometric {
  private Geometric() {}

  /**
   * A sample in {0, ..., max} with {@code P(m) ∝ e^(-lambda m)}.
   *
   * @param lambda decay per step, > 0
   * @param max largest value, >= 0 (use {@code Long.MAX_VALUE - 1} for an untruncated sample)
   */
  public static long sample(RandomBits bits, double lambda, long max) {
    long left = -1; // exclusive
    long right = max; // inclusive
    while (right - left > 1) {
      double span = (double) (right - left);
      long mid = left - (long) Math.floor((Math.log(0.5) + Math.log1p(Math.exp(-lambda * span))) / lambda);
      mid = Math.min(Math.max(mid, left + 1), right - 1);
      double q = Math.expm1(-lambda * (mid - left)) / Math.expm1(-lambda * span);
      if (bits.nextUniform() < q) {
        right = mid;
      } else {
        left = mid;
      }
    }
    return right;
  }

  /**
   * A two-sided geometric (discrete Laplace) sample: {@code P(k) ∝ e^(-lambda |k|)} for k in
   * [-maxNegative, maxPositive]. The side is chosen by its exact mass, then the magnitude by
   * {@link #sample}; zero belongs to the non-negative side.
   */
  public static long twoSided(RandomBits bits, double lambda, long maxNegative, long maxPositive) {
    // Mass of {0..P}: (1 - e^(-l (P+1))) / (1 - e^-l); of {-N..-1}: e^-l (1 - e^(-l N)) / (1 - e^-l).
    double positive = -Math.expm1(-lambda * ((double) maxPositive + 1));
    double negative = maxNegative <= 0 ? 0 : Math.exp(-lambda) * -Math.expm1(-lambda * (double) maxNegative);
    if (bits.nextUniform() * (positive + negative) < positive) {
      return sample(bits, lambda, maxPositive);
    }
    return -1 - sample(bits, lambda, maxNegative - 1);
  }
}
