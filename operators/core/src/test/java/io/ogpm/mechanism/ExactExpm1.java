package io.ogpm.mechanism;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Exact rational bounds on {@code e^x - 1} for the exact value of a double x >= 0, for tests,
 * independent of {@link CertifiedExp}: no rounding at all. With {@code x = M / 2^F} (M, F
 * integers), the partial Taylor sum {@code S_n = sum_{k=1..n} x^k / k!} is the fraction {@code
 * sum_k M^k 2^(F (n - k)) n!/k! / (n! 2^(F n))}, a lower bound (the omitted terms are positive);
 * adding {@code t_n r / (1 - r)}, {@code t_n = x^n / n!}, {@code r = x / (n + 1) < 1}, bounds the
 * tail from above (each later term is at most r times the one before).
 */
final class ExactExpm1 {
  private ExactExpm1() {}

  /** A non-negative fraction num / den. */
  record Fraction(BigInteger num, BigInteger den) {
    /** Whether {@code a / b <= this}, exactly. */
    boolean bounds(BigInteger a, BigInteger b) {
      return a.multiply(den).compareTo(num.multiply(b)) <= 0;
    }

    /** Whether {@code a / b > this}, exactly. */
    boolean isExceededBy(BigInteger a, BigInteger b) {
      return !bounds(a, b);
    }

    BigDecimal decimal() {
      return new BigDecimal(num).divide(new BigDecimal(den), new java.math.MathContext(80));
    }
  }

  /** A lower bound on e^x - 1 within 2^-300 relative: the partial sum to {@link #terms}. */
  static Fraction lower(double x) {
    return lower(x, 300);
  }

  /** An upper bound on e^x - 1: the partial sum to {@link #terms} plus the tail bound. */
  static Fraction upper(double x) {
    return upper(x, 300);
  }

  /** A lower bound on e^x - 1 within 2^-bits relative. */
  static Fraction lower(double x, int bits) {
    return partialSum(x, terms(x, bits));
  }

  /** An upper bound on e^x - 1 within 2^-bits relative. */
  static Fraction upper(double x, int bits) {
    int n = terms(x, bits);
    Fraction s = partialSum(x, n);
    if (x == 0) {
      return s;
    }
    // s = P / Q with Q = n! 2^(F n); the tail bound (x^n / n!) x / (n + 1 - x) = M^(n+1) / (Q D)
    // with D = 2^F (n + 1) - M > 0 (n + 1 > x).
    BigInteger[] mf = dyadic(x);
    BigInteger m = mf[0];
    int f = mf[1].intValueExact();
    BigInteger d = BigInteger.valueOf(n + 1).shiftLeft(f).subtract(m);
    return new Fraction(s.num().multiply(d).add(m.pow(n + 1)), s.den().multiply(d));
  }

  private static Fraction partialSum(double x, int n) {
    if (x == 0) {
      return new Fraction(BigInteger.ZERO, BigInteger.ONE);
    }
    BigInteger[] mf = dyadic(x);
    BigInteger m = mf[0];
    int f = mf[1].intValueExact();
    BigInteger num = BigInteger.ZERO;
    BigInteger fallingFactorial = BigInteger.ONE; // n! / k!, from k = n down
    for (int k = n; k >= 1; k--) {
      num = num.add(m.pow(k).shiftLeft(f * (n - k)).multiply(fallingFactorial));
      fallingFactorial = fallingFactorial.multiply(BigInteger.valueOf(k));
    }
    // fallingFactorial is now n!
    return new Fraction(num, fallingFactorial.shiftLeft(f * n));
  }

  /** {@code {M, F}} with {@code x = M / 2^F}, F >= 0. */
  private static BigInteger[] dyadic(double x) {
    BigDecimal exact = new BigDecimal(x);
    int f = 0;
    while (exact.stripTrailingZeros().scale() > 0) {
      exact = exact.multiply(BigDecimal.valueOf(2));
      f++;
    }
    return new BigInteger[] {exact.toBigIntegerExact(), BigInteger.valueOf(f)};
  }

  /**
   * Terms enough for 2^-bits relative: past 2x + 2, until {@code x^n / n!} is below 2^-bits (e^x -
   * 1 >= x).
   */
  static int terms(double x, int bits) {
    if (x == 0) {
      return 1;
    }
    double logTerm = 0; // ln(x^n / n!)
    int n = 0;
    while (n < 2 * x + 2 || logTerm - Math.log(x) > -bits * Math.log(2)) {
      n++;
      logTerm += Math.log(x) - Math.log(n);
    }
    return n;
  }
}
