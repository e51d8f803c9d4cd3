package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The certified bounds against exact fractions ({@link ExactExpm1}) computed without rounding. */
class CertifiedExpTest {
  @ParameterizedTest(name = "x={0}")
  @ValueSource(
      doubles = {
        0,
        Double.MIN_VALUE,
        1e-300,
        1e-12,
        1e-6,
        0.011,
        0.01105,
        0.5,
        1,
        2,
        8,
        30,
        60,
        355,
        700
      })
  void theLowerBoundIsBelowEToTheXMinusOneAndWithin1eMinus58OfIt(double x) {
    BigDecimal bound = CertifiedExp.expm1LowerBound(x);
    BigInteger num = bound.unscaledValue();
    BigInteger den = bound.scale() >= 0 ? BigInteger.TEN.pow(bound.scale()) : BigInteger.ONE;
    if (bound.scale() < 0) {
      num = num.multiply(BigInteger.TEN.pow(-bound.scale()));
    }
    // bound <= upper: below e^x - 1 is possible only then; tight: bound >= lower (1 - 1e-58).
    assertThat(ExactExpm1.upper(x).bounds(num, den)).as("below the upper bound").isTrue();
    BigDecimal lower = ExactExpm1.lower(x).decimal();
    assertThat(
            bound.compareTo(
                lower.multiply(BigDecimal.ONE.subtract(BigDecimal.ONE.movePointLeft(58)))))
        .isGreaterThanOrEqualTo(0);
    // and it agrees with the floating-point expm1 (within 1 ulp by its specification).
    double expm1 = Math.expm1(x);
    assertThat(Math.abs(bound.doubleValue() - expm1)).isLessThanOrEqualTo(Math.ulp(expm1));
  }

  @ParameterizedTest(name = "x={0}")
  @ValueSource(doubles = {0, 1e-300, 1e-9, 0.011, 0.5, 1, 8, 30, 80})
  void log1pUpperBoundIsCertifiedAndWithinAFewUlps(double x) {
    // a / b: the double e^x - 1 nudged by a tiny fraction, so it is not a double's exact value.
    BigDecimal target =
        new BigDecimal(Math.expm1(x))
            .multiply(BigDecimal.ONE.add(BigDecimal.ONE.movePointLeft(30)));
    BigInteger a = target.unscaledValue();
    BigInteger b = BigInteger.TEN.pow(target.scale());
    double r = CertifiedExp.log1pUpperBound(a, b);
    // e^r - 1 >= a / b: proved by an exact lower bound.
    assertThat(ExactExpm1.lower(r).bounds(a, b)).as("e^%s - 1 >= %s", r, target).isTrue();
    // tight: three ulps lower, e^r' - 1 < a / b, proved by an exact upper bound.
    double lower = Math.nextDown(Math.nextDown(Math.nextDown(r)));
    if (lower > 0) {
      assertThat(ExactExpm1.upper(lower).isExceededBy(a, b))
          .as("e^%s - 1 < %s", lower, target)
          .isTrue();
    }
  }

  @Test
  void certifiesAtMostDecidesExactly() {
    // e - 1 = 1.71828182845904523536...: 171828182845 / 10^11 is below it, 171828182846 / 10^11
    // above.
    BigInteger den = BigInteger.TEN.pow(11);
    assertThat(CertifiedExp.certifiesAtMost(BigInteger.valueOf(171828182845L), den, 1)).isTrue();
    assertThat(CertifiedExp.certifiesAtMost(BigInteger.valueOf(171828182846L), den, 1)).isFalse();
    assertThat(CertifiedExp.certifiesAtMost(BigInteger.ZERO, BigInteger.ONE, 0)).isTrue();
    assertThat(CertifiedExp.certifiesAtMost(BigInteger.ONE, BigInteger.TEN.pow(400), 0)).isFalse();
  }

  /**
   * The enclosure of e^x holds the exact value (between exact fractions) and is within 10^-digits
   * relative.
   */
  @ParameterizedTest(name = "x={0}")
  @ValueSource(doubles = {0, 1e-300, 0x1.0p-80, 1e-6, 0.5, 0.75, 1, 8, 40, 350, 700})
  void theExpEnclosureHoldsEToTheXAndIsTight(double x) {
    for (int digits : new int[] {20, 100, 300}) {
      CertifiedExp.Enclosure e = CertifiedExp.exp(new BigDecimal(x), digits);
      // lo - 1 <= lower(e^x - 1) would not prove it; lo - 1 <= upper and hi - 1 >= lower are what
      // hold.
      BigDecimal loMinusOne = e.lo().subtract(BigDecimal.ONE);
      BigDecimal hiMinusOne = e.hi().subtract(BigDecimal.ONE);
      ExactExpm1.Fraction lower = ExactExpm1.lower(x, 1100);
      ExactExpm1.Fraction upper = ExactExpm1.upper(x, 1100);
      // lo <= e^x: lo - 1 <= lower bound of e^x - 1 ... decided as fractions.
      assertThat(lower.bounds(numerator(loMinusOne), denominator(loMinusOne)))
          .as("lo <= e^%s at %s digits", x, digits)
          .isTrue();
      assertThat(
              upper.isExceededBy(numerator(hiMinusOne), denominator(hiMinusOne))
                  || hiMinusOne.signum() == 0 && x == 0)
          .as("hi >= e^%s at %s digits", x, digits)
          .isTrue();
      BigDecimal width = e.hi().subtract(e.lo()).divide(e.lo(), java.math.MathContext.DECIMAL64);
      assertThat(width.compareTo(BigDecimal.ONE.movePointLeft(digits)))
          .as("width at %s digits", digits)
          .isLessThanOrEqualTo(0);
    }
  }

  static BigInteger numerator(BigDecimal v) {
    return v.scale() >= 0
        ? v.unscaledValue()
        : v.unscaledValue().multiply(BigInteger.TEN.pow(-v.scale()));
  }

  static BigInteger denominator(BigDecimal v) {
    return v.scale() >= 0 ? BigInteger.TEN.pow(v.scale()) : BigInteger.ONE;
  }

  @Test
  void refusesWhatItCannotBound() {
    for (double x : new double[] {-1e-300, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> CertifiedExp.expm1LowerBound(x))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(String.valueOf(x));
    }
    assertThatThrownBy(() -> CertifiedExp.log1pUpperBound(BigInteger.ONE, BigInteger.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
