package io.ogpm.mechanism;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Interval arithmetic on positive reals for tests: every operation rounds the lower end down and
 * the upper end up, so the true value stays inside. {@link #DIGITS} significant digits.
 */
public record DecimalInterval(BigDecimal lo, BigDecimal hi) {
  public static final int DIGITS = 60;
  private static final MathContext DOWN = new MathContext(DIGITS, RoundingMode.FLOOR);
  private static final MathContext UP = new MathContext(DIGITS, RoundingMode.CEILING);

  public DecimalInterval {
    if (lo.signum() < 0 || lo.compareTo(hi) > 0) {
      throw new IllegalArgumentException("not a positive interval: [" + lo + ", " + hi + "]");
    }
  }

  public static DecimalInterval exactly(long v) {
    return new DecimalInterval(BigDecimal.valueOf(v), BigDecimal.valueOf(v));
  }

  public DecimalInterval plus(DecimalInterval o) {
    return new DecimalInterval(lo.add(o.lo, DOWN), hi.add(o.hi, UP));
  }

  public DecimalInterval times(DecimalInterval o) {
    return new DecimalInterval(lo.multiply(o.lo, DOWN), hi.multiply(o.hi, UP));
  }

  public DecimalInterval dividedBy(DecimalInterval o) {
    return new DecimalInterval(lo.divide(o.hi, DOWN), hi.divide(o.lo, UP));
  }

  /** {@code this - o} where it is certainly non-negative. */
  public DecimalInterval minus(DecimalInterval o) {
    return new DecimalInterval(lo.subtract(o.hi, DOWN), hi.subtract(o.lo, UP));
  }

  public DecimalInterval pow(int n) {
    DecimalInterval out = exactly(1);
    DecimalInterval base = this;
    for (int k = n; k > 0; k >>= 1) {
      if ((k & 1) == 1) {
        out = out.times(base);
      }
      base = base.times(base);
    }
    return out;
  }

  /** Whether every value here is below every value of o. */
  public boolean certainlyBelow(DecimalInterval o) {
    return hi.compareTo(o.lo) < 0;
  }

  /** Width relative to the lower end. */
  public double relativeWidth() {
    return hi.subtract(lo).divide(lo, MathContext.DECIMAL64).doubleValue();
  }
}
