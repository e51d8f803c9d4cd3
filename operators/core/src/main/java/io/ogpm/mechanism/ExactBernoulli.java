package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.random.RandomBits;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * A coin that comes up true with a fixed real probability p in (0, 1), exactly: a uniform U in [0,
 * 1), read 64 bits at a time, is compared with the binary expansion of p, and the coin is {@code U
 * < p}. The first word where U and p differ decides (U below p in that word means U < p whatever
 * follows, and above means U > p), so the probability is exactly p, and the expected number of
 * words read is {@code 1 + 2^-64 + ...}. This is the lazy comparison of exact samplers (von
 * Neumann; Knuth and Yao; Karney, "Sampling exactly from the normal distribution", 2016) applied to
 * one fixed probability.
 *
 * <p>The words of p come from certified enclosures ({@link CertifiedExp#exp}): word i is known once
 * the lower and upper bounds agree on it. The constructor computes the leading words (the run of 0
 * or all-ones words that starts a tiny p or a p near 1, then at least three more, so 192 bits); a
 * draw that ties all of them (probability below 2^-192) computes the next word with more digits.
 * Every p here is transcendental, so bounds tight enough always exist.
 *
 * <p>Immutable and thread-safe.
 */
@Internal
public final class ExactBernoulli {
  /** Words known past the leading run of 0 or all-ones words. */
  static final int SIGNIFICANT_WORDS = 3;

  private static final int FIRST_DIGITS = 100;
  private static final int MAX_DIGITS = 1 << 16;
  private static final BigDecimal TWO_POW_64 = new BigDecimal(BigInteger.ONE.shiftLeft(64));

  private final String description;
  private final IntFunction<CertifiedExp.Enclosure> probability;
  private final long[] words;

  private ExactBernoulli(String description, IntFunction<CertifiedExp.Enclosure> probability) {
    this.description = description;
    this.probability = probability;
    this.words = leadingWords();
  }

  /** {@code e^-x} for an exact {@code x > 0}. */
  public static ExactBernoulli expMinus(BigDecimal x) {
    positive(x);
    return new ExactBernoulli(
        "e^-" + x.doubleValue(),
        digits -> {
          CertifiedExp.Enclosure e = CertifiedExp.exp(x, digits);
          return new CertifiedExp.Enclosure(
              reciprocal(e.hi(), RoundingMode.FLOOR, digits),
              reciprocal(e.lo(), RoundingMode.CEILING, digits));
        });
  }

  /**
   * {@code 1 / (1 + e^x)} for an exact {@code x > 0}: a bit of geometric noise (see {@link
   * ExactGeometric}).
   */
  public static ExactBernoulli logistic(BigDecimal x) {
    positive(x);
    return new ExactBernoulli(
        "1/(1+e^" + x.doubleValue() + ")",
        digits -> {
          CertifiedExp.Enclosure e = CertifiedExp.exp(x, digits);
          BigDecimal lowDenominator =
              BigDecimal.ONE.add(e.hi(), new MathContext(digits + 10, RoundingMode.CEILING));
          BigDecimal highDenominator =
              BigDecimal.ONE.add(e.lo(), new MathContext(digits + 10, RoundingMode.FLOOR));
          return new CertifiedExp.Enclosure(
              reciprocal(lowDenominator, RoundingMode.FLOOR, digits),
              reciprocal(highDenominator, RoundingMode.CEILING, digits));
        });
  }

  /**
   * {@code a / (a + b e^-x)} for integers {@code a, b > 0} and an exact {@code x > 0}: the choice
   * between a part of a + b cells at level 1 and b cells at level {@code e^-x}, when the a cells
   * are taken together ({@code 1 / (1 + (b / a) e^-x)}, increasing in {@code e^x}).
   */
  public static ExactBernoulli ratio(long a, long b, BigDecimal x) {
    positive(x);
    if (a <= 0 || b <= 0) {
      throw new IllegalArgumentException("need a, b > 0, got a = " + a + ", b = " + b);
    }
    BigDecimal bigA = BigDecimal.valueOf(a);
    BigDecimal bigB = BigDecimal.valueOf(b);
    return new ExactBernoulli(
        a + "/(" + a + "+" + b + " e^-" + x.doubleValue() + ")",
        digits -> {
          CertifiedExp.Enclosure e = CertifiedExp.exp(x, digits);
          MathContext down = new MathContext(digits + 10, RoundingMode.FLOOR);
          MathContext up = new MathContext(digits + 10, RoundingMode.CEILING);
          // t = b / (a e^x): larger t, smaller probability 1 / (1 + t).
          BigDecimal tHigh = bigB.divide(bigA.multiply(e.lo(), down), up);
          BigDecimal tLow = bigB.divide(bigA.multiply(e.hi(), up), down);
          return new CertifiedExp.Enclosure(
              reciprocal(BigDecimal.ONE.add(tHigh, up), RoundingMode.FLOOR, digits),
              reciprocal(BigDecimal.ONE.add(tLow, down), RoundingMode.CEILING, digits));
        });
  }

  /** One exact draw: true with probability p. */
  public boolean sample(RandomBits bits) {
    for (int i = 0; ; i++) {
      long w = i < words.length ? words[i] : word(i);
      long u = bits.nextLong();
      if (u != w) {
        return Long.compareUnsigned(u, w) < 0;
      }
    }
  }

  /** What p is, for messages. */
  public String description() {
    return description;
  }

  /** Certified bounds on p, each within about {@code 10^-digits} relative. */
  CertifiedExp.Enclosure enclose(int digits) {
    return probability.apply(digits);
  }

  /**
   * The words the constructor computed: word i holds bits {@code 64 i + 1} to {@code 64 i + 64} of
   * p.
   */
  long[] knownWords() {
    return words.clone();
  }

  /**
   * Word i of p's binary expansion: {@code floor(p 2^(64 (i + 1))) mod 2^64}, with as many digits
   * as it takes.
   */
  long word(int i) {
    for (int digits = FIRST_DIGITS; digits <= MAX_DIGITS; digits *= 2) {
      BigInteger[] range = scaled(enclose(digits), i + 1);
      if (range[0].equals(range[1])) {
        return range[0].longValue();
      }
    }
    throw new IllegalStateException("no certified word " + i + " of " + description);
  }

  /**
   * The leading run of 0 or all-ones words and {@link #SIGNIFICANT_WORDS} more, from one enclosure
   * (the digits doubled until it is tight enough).
   */
  private long[] leadingWords() {
    for (int digits = FIRST_DIGITS; digits <= MAX_DIGITS; digits *= 2) {
      CertifiedExp.Enclosure e = enclose(digits);
      if (e.lo().compareTo(e.hi()) > 0) {
        throw new IllegalStateException(
            "bounds on " + description + " cross: [" + e.lo() + ", " + e.hi() + "]");
      }
      if (!(e.lo().signum() > 0 && e.hi().compareTo(BigDecimal.ONE) < 0)) {
        continue; // p within 10^-digits of 0 or 1: more digits
      }
      long[] known = new long[0];
      for (int n = 1; ; n++) {
        BigInteger[] range = scaled(e, n);
        if (!range[0].equals(range[1])) {
          break;
        }
        known = Arrays.copyOf(known, n);
        known[n - 1] = range[0].longValue();
      }
      if (known.length >= leadingRun(known) + SIGNIFICANT_WORDS) {
        return known;
      }
    }
    throw new IllegalStateException("no certified binary expansion of " + description);
  }

  /** How many words at the start equal the first, when it is 0 or all ones. */
  private static int leadingRun(long[] known) {
    if (known.length == 0 || (known[0] != 0 && known[0] != -1L)) {
      return 0;
    }
    int run = 1;
    while (run < known.length && known[run] == known[0]) {
      run++;
    }
    return run;
  }

  /** {@code floor(lo 2^(64 n))} and {@code floor(hi 2^(64 n))}. */
  private static BigInteger[] scaled(CertifiedExp.Enclosure e, int n) {
    BigDecimal scale = TWO_POW_64.pow(n);
    return new BigInteger[] {
      e.lo().multiply(scale).setScale(0, RoundingMode.FLOOR).toBigIntegerExact(),
      e.hi().multiply(scale).setScale(0, RoundingMode.FLOOR).toBigIntegerExact()
    };
  }

  private static BigDecimal reciprocal(BigDecimal v, RoundingMode mode, int digits) {
    return BigDecimal.ONE.divide(v, new MathContext(digits + 10, mode));
  }

  private static void positive(BigDecimal x) {
    if (x.signum() <= 0) {
      throw new IllegalArgumentException("need x > 0, got " + x);
    }
  }

  @Override
  public String toString() {
    return "ExactBernoulli{" + description + "}";
  }
}
