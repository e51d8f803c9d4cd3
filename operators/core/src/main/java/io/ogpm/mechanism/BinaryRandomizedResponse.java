package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.random.RandomBits;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Warner's randomized response on one bit, with an integer flip threshold: the bit is flipped with
 * probability exactly {@code T / 2^53} and kept with {@code (2^53 - T) / 2^53}, so the ratio of the
 * two outcomes' probabilities for any two inputs is at most {@code (2^53 - T) / T}. T is the
 * smallest integer for which {@code (2^53 - 2T) / T <= e^eps - 1} is proved in exact arithmetic
 * against {@link CertifiedExp}'s lower bound on {@code e^eps - 1}: the keep probability is as close
 * to {@code e^eps / (1 + e^eps)} as 53 bits allow, never above it.
 *
 * <p>Any randomized choice of the bit before the response (Duchi et al.'s rounding of an input to
 * an end of the domain) keeps the ratio: each outcome's probability is then a mixture of the keep
 * and flip probabilities.
 */
@Internal
public final class BinaryRandomizedResponse {
  private static final BigInteger TWO_POW_53 = BigInteger.ONE.shiftLeft(53);

  private final long flipThreshold;
  private final double realizedEpsilon;

  private BinaryRandomizedResponse(long flipThreshold, double realizedEpsilon) {
    this.flipThreshold = flipThreshold;
    this.realizedEpsilon = realizedEpsilon;
  }

  /** The response at epsilon, which must be positive and finite. */
  public static BinaryRandomizedResponse of(double epsilon) {
    Checks.positive("epsilon", epsilon);
    Checks.finite("epsilon", epsilon);
    BigDecimal bound = CertifiedExp.expm1LowerBound(epsilon);
    // The smallest T >= 1 with 2^53 <= T (2 + L), that is (2^53 - 2T) / T <= L.
    BigDecimal twoPlusBound = bound.add(BigDecimal.valueOf(2));
    long t =
        new BigDecimal(TWO_POW_53)
            .divide(twoPlusBound, new MathContext(40, RoundingMode.CEILING))
            .setScale(0, RoundingMode.CEILING)
            .longValueExact();
    t = Math.max(1, t);
    while (t > 1
        && twoPlusBound.multiply(BigDecimal.valueOf(t - 1)).compareTo(new BigDecimal(TWO_POW_53))
            >= 0) {
      t--;
    }
    BigInteger num = TWO_POW_53.subtract(BigInteger.valueOf(2 * t));
    BigInteger den = BigInteger.valueOf(t);
    if (!CertifiedExp.certifiesAtMost(num, den, epsilon)) {
      throw new IllegalStateException("T = " + t + " does not certify epsilon " + epsilon);
    }
    return new BinaryRandomizedResponse(
        t, Math.min(epsilon, CertifiedExp.log1pUpperBound(num, den)));
  }

  /** Whether the bit is kept: one 53-bit draw against the threshold. */
  public boolean keep(RandomBits bits) {
    return (bits.nextLong() >>> 11) >= flipThreshold;
  }

  /** The probability of keeping the bit, {@code (2^53 - T) / 2^53}: exact as a double. */
  public double keepProbability() {
    return Math.scalb((double) ((1L << 53) - flipThreshold), -53);
  }

  /**
   * A double r, at most eps, with {@code e^r >= (2^53 - T) / T} certified: the exact worst ratio of
   * the response's probabilities.
   */
  public double realizedEpsilon() {
    return realizedEpsilon;
  }

  /** T: the bit is flipped with probability {@code T / 2^53}. */
  long flipThreshold() {
    return flipThreshold;
  }

  @Override
  public String toString() {
    return "BinaryRandomizedResponse{keep=" + keepProbability() + "}";
  }
}
