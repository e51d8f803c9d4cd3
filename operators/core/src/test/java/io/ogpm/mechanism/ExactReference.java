package io.ogpm.mechanism;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Exact references for tests in other packages, from {@link ExactExpm1}'s fractions (computed
 * without rounding, independently of the production {@link CertifiedExp}).
 */
public final class ExactReference {
  private static final int BITS = 1100;

  private ExactReference() {}

  /**
   * {@code e^-x} for a double {@code x >= 0}: an interval of {@link DecimalInterval#DIGITS} digits.
   */
  public static DecimalInterval expMinus(double x) {
    ExactExpm1.Fraction lower = ExactExpm1.lower(x, 4 * DecimalInterval.DIGITS);
    ExactExpm1.Fraction upper = ExactExpm1.upper(x, 4 * DecimalInterval.DIGITS);
    // e^-x = 1 / (1 + E) = den / (den + num)
    return new DecimalInterval(
        quotient(upper.den(), upper.den().add(upper.num()), RoundingMode.FLOOR),
        quotient(lower.den(), lower.den().add(lower.num()), RoundingMode.CEILING));
  }

  /**
   * {@code floor(e^-x 2^(64 n))} for a double {@code x >= 0}, or null if 1100 bits do not decide
   * it.
   */
  public static BigInteger expMinusPrefix(double x, int n) {
    ExactExpm1.Fraction lower = ExactExpm1.lower(x, BITS);
    ExactExpm1.Fraction upper = ExactExpm1.upper(x, BITS);
    BigInteger scale = BigInteger.ONE.shiftLeft(64 * n);
    BigInteger a = upper.den().multiply(scale).divide(upper.den().add(upper.num()));
    BigInteger b = lower.den().multiply(scale).divide(lower.den().add(lower.num()));
    return a.equals(b) ? a : null;
  }

  private static BigDecimal quotient(BigInteger num, BigInteger den, RoundingMode mode) {
    return new BigDecimal(num)
        .divide(new BigDecimal(den), new MathContext(DecimalInterval.DIGITS + 5, mode));
  }
}
