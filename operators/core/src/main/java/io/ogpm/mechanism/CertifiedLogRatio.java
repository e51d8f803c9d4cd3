package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;
import java.math.BigDecimal;

/**
 * The exact worst-case log ratio of a sampler's cell probabilities between two inputs, when it is a
 * known exact number (for the geometric-noise samplers: a decay per cell times the largest change
 * in exponent two inputs can cause, both exact), and the certified epsilon it gives.
 *
 * @param worst the exact worst log ratio, at most eps
 * @param certifiedEpsilon the smallest double at least {@code worst}, and at most eps
 */
@Internal
public record CertifiedLogRatio(BigDecimal worst, double certifiedEpsilon) {
  /**
   * @param mechanism names the mechanism in messages
   * @param epsilon the mechanism's eps
   * @param worst the exact worst log ratio of its sampler
   * @throws IllegalArgumentException naming the mechanism and eps if the sampler would spend more
   *     than eps
   */
  public static CertifiedLogRatio of(Object mechanism, double epsilon, BigDecimal worst) {
    if (worst.compareTo(new BigDecimal(epsilon)) > 0) {
      throw new IllegalArgumentException(
          mechanism
              + ": the sampler's worst log ratio "
              + worst.toPlainString()
              + " exceeds epsilon "
              + epsilon);
    }
    return new CertifiedLogRatio(worst, Math.min(epsilon, atLeast(worst)));
  }

  /** The smallest double at least v. */
  static double atLeast(BigDecimal v) {
    double d = v.doubleValue();
    return new BigDecimal(d).compareTo(v) < 0 ? Math.nextUp(d) : d;
  }

  /** {@code x 2^shift}, exactly. */
  public static BigDecimal dyadic(double x, int shift) {
    BigDecimal exact = new BigDecimal(x);
    BigDecimal two = BigDecimal.valueOf(2);
    return shift >= 0 ? exact.multiply(two.pow(shift)) : exact.divide(two.pow(-shift));
  }
}
