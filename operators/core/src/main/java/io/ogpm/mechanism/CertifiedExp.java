package io.ogpm.mechanism;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Certified bounds on {@code e^x} for the exact privacy checks of the integer samplers (and,
 * through {@link #exp}, for the binary expansions of the exact noise samplers' probabilities):
 * decisions such as "is this integer ratio at most e^eps?" are made in exact arithmetic against a
 * bound that is proved to lie below {@code e^x - 1}, never against {@code Math.exp}, whose result
 * may lie on either side of the true value. Here x is the exact value of a double.
 *
 * <p>For construction only (BigDecimal, up to a few thousand operations at x = 700); no sampler
 * calls it per draw (except {@link ExactBernoulli} past its 192 precomputed bits, with probability
 * below 2^-192 per draw).
 */
final class CertifiedExp {
  /** Rounding toward zero (all quantities here are non-negative) with 64 significant digits. */
  private static final MathContext DOWN = new MathContext(64, RoundingMode.FLOOR);

  /** The series stops when a term falls below this fraction of the sum. */
  private static final BigDecimal CUTOFF = BigDecimal.ONE.movePointLeft(64);

  /** Steps from the floating-point guess of ln(1 + a) to a certified bound: a few are enough. */
  private static final int MAX_STEPS = 64;

  private CertifiedExp() {}

  /**
   * A lower bound on {@code e^x - 1} for a finite double {@code x >= 0}: the partial sum of the
   * Taylor series {@code sum_{k>=1} x^k / k!} with every product, quotient and sum rounded toward
   * zero. By induction each computed term is at most {@code x^k / k!}, so the computed sum is at
   * most the exact partial sum, and the terms left out are non-negative. The sum runs past {@code k
   * = x} (from there terms shrink geometrically) until a term is below 10^-64 of the sum, so the
   * bound is within about 10^-60 relative of {@code e^x - 1}.
   */
  static BigDecimal expm1LowerBound(double x) {
    if (!(x >= 0) || Double.isInfinite(x)) {
      throw new IllegalArgumentException("x must be finite and >= 0, got " + x);
    }
    BigDecimal exact = new BigDecimal(x);
    BigDecimal term = exact;
    BigDecimal sum = exact;
    for (int k = 2; k <= x || term.compareTo(sum.multiply(CUTOFF)) > 0; k++) {
      term = term.multiply(exact, DOWN).divide(BigDecimal.valueOf(k), DOWN);
      sum = sum.add(term, DOWN);
    }
    return sum;
  }

  /** Certified bounds {@code lo <= v <= hi} on a positive real v. */
  record Enclosure(BigDecimal lo, BigDecimal hi) {}

  private static final BigDecimal HALF = new BigDecimal("0.5");

  /**
   * Bounds {@code lo <= e^x <= hi} for an exact {@code x >= 0}, each within about {@code
   * 10^-digits} relative. The argument is halved s times to {@code y <= 1/2} (exact in decimal),
   * the Taylor series of {@code e^y} is summed twice, every operation rounded down for lo and up
   * for hi, until a term falls below {@code 10^-(digits + 10 + s)}; hi adds the last term once
   * more, which bounds the rest of the series (each later term is at most {@code y / (k + 1) <=
   * 1/4} times the one before, so the rest is at most a third of the last term). Both are then
   * squared s times with the same directed rounding (squaring is increasing on positives), which
   * doubles the relative error each time: the guard digits cover it.
   */
  static Enclosure exp(BigDecimal x, int digits) {
    if (x.signum() < 0 || digits < 1) {
      throw new IllegalArgumentException(
          "need x >= 0 and digits >= 1, got x = " + x + ", digits = " + digits);
    }
    int halvings = 0;
    BigDecimal y = x;
    while (y.compareTo(HALF) > 0) {
      y = y.multiply(HALF);
      halvings++;
    }
    int precision = digits + 10 + halvings;
    MathContext down = new MathContext(precision, RoundingMode.FLOOR);
    MathContext up = new MathContext(precision, RoundingMode.CEILING);
    BigDecimal cutoff = BigDecimal.ONE.movePointLeft(precision);
    BigDecimal lo = BigDecimal.ONE;
    BigDecimal hi = BigDecimal.ONE;
    BigDecimal termLo = BigDecimal.ONE;
    BigDecimal termHi = BigDecimal.ONE;
    for (int k = 1; y.signum() > 0; k++) {
      BigDecimal n = BigDecimal.valueOf(k);
      termLo = termLo.multiply(y, down).divide(n, down);
      termHi = termHi.multiply(y, up).divide(n, up);
      lo = lo.add(termLo, down);
      hi = hi.add(termHi, up);
      if (termHi.compareTo(cutoff) < 0) {
        hi = hi.add(termHi, up);
        break;
      }
    }
    for (int i = 0; i < halvings; i++) {
      lo = lo.multiply(lo, down);
      hi = hi.multiply(hi, up);
    }
    return new Enclosure(lo, hi);
  }

  /** Whether {@code num / den <= e^x - 1} is certified by {@link #expm1LowerBound}. */
  static boolean certifiesAtMost(BigInteger num, BigInteger den, double x) {
    return new BigDecimal(num).compareTo(expm1LowerBound(x).multiply(new BigDecimal(den))) <= 0;
  }

  /**
   * A double r with {@code e^r >= 1 + num / den}, certified: the first double, stepping up from two
   * ulps below the floating-point {@code log1p(num / den)}, for which {@link #certifiesAtMost}
   * holds. So r is never below {@code ln(1 + num / den)} and at most a few ulps above it.
   *
   * @param num non-negative
   * @param den positive
   */
  static double log1pUpperBound(BigInteger num, BigInteger den) {
    if (num.signum() < 0 || den.signum() <= 0) {
      throw new IllegalArgumentException("need num >= 0 and den > 0, got " + num + " / " + den);
    }
    double guess =
        Math.log1p(
            new BigDecimal(num).divide(new BigDecimal(den), MathContext.DECIMAL128).doubleValue());
    double r = Math.max(0, Math.nextDown(Math.nextDown(guess)));
    for (int step = 0; !certifiesAtMost(num, den, r); step++) {
      if (step == MAX_STEPS) {
        throw new IllegalStateException(
            "no certified bound on ln(1 + " + num + " / " + den + ") near " + guess);
      }
      r = Math.nextUp(r);
    }
    return r;
  }
}
