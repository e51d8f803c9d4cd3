package io.ogpm.mechanism;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The integers of a {@link TwoLevelCellSampler}, rounded so that its exact worst-case ratio {@code
 * 1 + X}, {@code X = (2^53 - T) NB / (T N)}, is at most e^eps, and as close to it as the integers
 * allow. Every decision is exact: {@code X <= L} with L the certified lower bound on {@code e^eps -
 * 1} of {@link CertifiedExp}, compared as {@code (2^53 - T) NB <= T N L} in BigDecimal.
 *
 * <ol>
 *   <li>T starts at {@code ceil(w 2^53)} (the background mass rounded up, within [1, 2^53]);
 *   <li>N is the smallest bump length with X at most L for that T: it differs from the bump's
 *       length in positions only by rounding, and leaves X short of L by less than 1/N relative;
 *   <li>T is then the smallest threshold with X at most L for that N (at most the first T): it
 *       takes up what N's granularity left, to within about {@code 1/T + 1/(2^53 - T)} relative,
 *       which matters where N is small (a narrow bump at high eps on a coarse grid).
 * </ol>
 *
 * @param threshold T: the background has probability {@code T / 2^53}
 * @param bumpPositions N
 * @param realizedEpsilon a double r, at most eps, with {@code e^r >= 1 + X} certified
 */
record TwoLevelRounding(long threshold, long bumpPositions, double realizedEpsilon) {
  private static final BigInteger TWO_POW_53 = BigInteger.ONE.shiftLeft(53);
  private static final MathContext UP = new MathContext(40, RoundingMode.CEILING);

  /**
   * @param mechanism names the mechanism in messages
   * @param backgroundMass the mechanism's background probability w
   * @param bumpLength the bump's length in positions, not rounded
   * @param backgroundPositions NB
   * @param epsilon the mechanism's eps
   * @throws IllegalArgumentException if the mechanism's own w and bump length do not spend its eps
   *     up to rounding: the integers round, they do not repair a wrong mechanism
   */
  static TwoLevelRounding of(
      Object mechanism,
      double backgroundMass,
      double bumpLength,
      long backgroundPositions,
      double epsilon) {
    checkConsistent(mechanism, backgroundMass, bumpLength, backgroundPositions, epsilon);
    long t = (long) Math.max(1, Math.min(Math.ceil(backgroundMass * 0x1.0p53), 0x1.0p53));
    BigDecimal bound = CertifiedExp.expm1LowerBound(epsilon);
    BigDecimal nb = BigDecimal.valueOf(backgroundPositions);
    BigDecimal outside = new BigDecimal(TWO_POW_53.subtract(BigInteger.valueOf(t))).multiply(nb);
    long n;
    if (outside.signum() == 0) {
      n = (long) Math.max(1, Math.min(Math.ceil(bumpLength), backgroundPositions));
    } else {
      // outside <= t n L
      n = smallestMultiple(BigDecimal.valueOf(t).multiply(bound), outside);
      // 2^53 NB <= T (NB + N L), equivalent to (2^53 - T) NB <= T N L
      t =
          smallestMultiple(
              nb.add(BigDecimal.valueOf(n).multiply(bound)),
              new BigDecimal(TWO_POW_53).multiply(nb));
    }
    if (n > backgroundPositions || t < 1 || t > (1L << 53)) {
      throw new IllegalStateException(
          "no certified two-level sampler at epsilon "
              + epsilon
              + ": N = "
              + n
              + " of "
              + backgroundPositions
              + " positions, T = "
              + t);
    }
    BigInteger num =
        TWO_POW_53
            .subtract(BigInteger.valueOf(t))
            .multiply(BigInteger.valueOf(backgroundPositions));
    BigInteger den = BigInteger.valueOf(t).multiply(BigInteger.valueOf(n));
    if (!CertifiedExp.certifiesAtMost(num, den, epsilon)) {
      throw new IllegalStateException(
          "T = " + t + ", N = " + n + " do not certify epsilon " + epsilon);
    }
    return new TwoLevelRounding(t, n, Math.min(epsilon, CertifiedExp.log1pUpperBound(num, den)));
  }

  /**
   * The mechanism's unrounded ratio {@code 1 + (1 - w) NB / (w s)} must be e^eps to within 1e-6
   * relative plus what 1 - w loses to cancellation (w is a double near 1 at small eps), so that the
   * integers chosen here differ from the mechanism's parameters by rounding only and the sampled
   * distribution is the one the mechanism describes (which the estimators use).
   */
  private static void checkConsistent(
      Object mechanism, double w, double bumpLength, long backgroundPositions, double epsilon) {
    double spent = (1 - w) * backgroundPositions / (w * bumpLength);
    double tolerance = 1e-6 + 0x1.0p-48 / (1 - w);
    if (!(Math.abs(spent / Math.expm1(epsilon) - 1) <= tolerance)) {
      throw new IllegalArgumentException(
          mechanism
              + ": background mass "
              + w
              + " and bump length give a density ratio of "
              + (1 + spent)
              + ", not e^"
              + epsilon
              + " = "
              + Math.exp(epsilon));
    }
  }

  /** The smallest integer k >= 1 with {@code k a >= b}, for a > 0 and b >= 0. */
  private static long smallestMultiple(BigDecimal a, BigDecimal b) {
    // The quotient rounded up (40 digits, then to an integer) is enough; step down while k - 1 is.
    long k = Math.max(1, b.divide(a, UP).setScale(0, RoundingMode.CEILING).longValueExact());
    while (k > 1 && a.multiply(BigDecimal.valueOf(k - 1)).compareTo(b) >= 0) {
      k--;
    }
    return k;
  }
}
