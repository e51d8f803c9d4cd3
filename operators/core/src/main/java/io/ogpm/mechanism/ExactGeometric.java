package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.random.RandomBits;
import java.math.BigDecimal;

/**
 * Exact geometric noise {@code P(m) ∝ e^(-lambda m)}, m = 0, 1, 2, ..., for an exact decay lambda
 * (a double times a power of two, as a BigDecimal): the building block of the discrete Laplace,
 * bounded Laplace, Purkayastha and staircase samplers. Every draw is made of {@link ExactBernoulli}
 * coins and sign bits, so the probabilities are exactly the ones stated, with no floating-point
 * rounding.
 *
 * <p><b>Why it is exact.</b> Write {@code m = 2^L q + r} with {@code r < 2^L} and r's binary digits
 * {@code r_0, ..., r_(L-1)}. Then {@code e^(-lambda m) = e^(-lambda 2^L q) prod_i e^(-lambda 2^i
 * r_i)}: the factors are independent, so
 *
 * <ul>
 *   <li>digit i is 1 with probability {@code e^(-lambda 2^i) / (1 + e^(-lambda 2^i)) = 1 / (1 +
 *       e^(lambda 2^i))}, independently of the others (one {@link ExactBernoulli#logistic} coin
 *       each), which gives the geometric truncated to {@code [0, 2^L)} ({@link #below});
 *   <li>q is geometric with decay {@code lambda 2^L}: the number of heads of the coin {@code
 *       e^(-lambda 2^L)} before its first tail ({@link #saturated}).
 * </ul>
 *
 * A truncation to [0, n] is the geometric on {@code [0, 2^K)}, {@code 2^(K-1) <= n < 2^K},
 * conditioned on {@code m <= n} by rejection, which keeps the ratios of the remaining
 * probabilities; a non-increasing law puts at least half its mass on {@code [0, 2^(K-1))}, so at
 * most 2 rounds are expected. Two-sided noise on [lo, hi] is a sign and a magnitude, rejecting the
 * negative zero and magnitudes outside the side's range (at most 4 rounds expected, see {@link
 * #twoSided}).
 *
 * <p>Immutable and thread-safe; built once per sampler (BigDecimal work in the constructor only).
 */
@Internal
public final class ExactGeometric {
  private final BigDecimal decay;
  private final int lowBits;
  private final ExactBernoulli[] digit;
  private final ExactBernoulli continuation;

  private ExactGeometric(BigDecimal decay, int lowBits) {
    this.decay = decay;
    this.lowBits = lowBits;
    this.digit = new ExactBernoulli[lowBits];
    for (int i = 0; i < lowBits; i++) {
      digit[i] = ExactBernoulli.logistic(decay.multiply(BigDecimal.valueOf(2).pow(i)));
    }
    this.continuation = ExactBernoulli.expMinus(decay.multiply(BigDecimal.valueOf(2).pow(lowBits)));
  }

  /**
   * Geometric noise with decay lambda per step, drawn as {@code lowBits} independent binary digits
   * and a geometric count of blocks of {@code 2^lowBits} steps.
   *
   * @param decay lambda > 0, exact
   * @param lowBits L in [0, 62]
   */
  public static ExactGeometric of(BigDecimal decay, int lowBits) {
    if (decay.signum() <= 0) {
      throw new IllegalArgumentException("decay must be > 0, got " + decay);
    }
    if (lowBits < 0 || lowBits > 62) {
      throw new IllegalArgumentException("lowBits must be in [0, 62], got " + lowBits);
    }
    return new ExactGeometric(decay, lowBits);
  }

  /** lambda, exactly. */
  public BigDecimal decay() {
    return decay;
  }

  /** L: the digits drawn one by one. */
  public int lowBits() {
    return lowBits;
  }

  /** The coin of digit i (for tests). */
  ExactBernoulli digit(int i) {
    return digit[i];
  }

  /** The coin {@code e^(-lambda 2^L)} (for tests). */
  ExactBernoulli continuation() {
    return continuation;
  }

  /** m in {@code [0, 2^k)}, {@code P(m) ∝ e^(-lambda m)}: k independent digit coins, k <= L. */
  public long below(RandomBits bits, int k) {
    if (k > lowBits) {
      throw new IllegalArgumentException("at most " + lowBits + " digits, got " + k);
    }
    long m = 0;
    for (int i = 0; i < k; i++) {
      if (digit[i].sample(bits)) {
        m |= 1L << i;
      }
    }
    return m;
  }

  /**
   * m in [0, n], {@code P(m) ∝ e^(-lambda m)}: {@link #below} and rejection, at most 2 rounds
   * expected.
   */
  public long atMost(RandomBits bits, long n) {
    int k = 64 - Long.numberOfLeadingZeros(n);
    while (true) {
      long m = below(bits, k);
      if (m <= n) {
        return m;
      }
    }
  }

  /**
   * {@code min(m, cap)} for the untruncated m ({@code cap >= 1}): the block count q first, stopped
   * as soon as {@code 2^L q >= cap} (then {@code m >= cap} whatever the digits), then the digits.
   * Reads at most {@code ceil(cap / 2^L)} continuation coins, and {@code 1 / (1 - e^(-lambda 2^L))}
   * of them on average.
   */
  public long saturated(RandomBits bits, long cap) {
    long blocks =
        ((cap - 1) >>> lowBits) + 1; // ceil(cap / 2^L): from this many blocks on, m >= cap
    long q = 0;
    while (q < blocks && continuation.sample(bits)) {
      q++;
    }
    if (q >= blocks) {
      return cap;
    }
    return Math.min((q << lowBits) + below(bits, lowBits), cap);
  }

  /**
   * k in [lo, hi] ({@code lo <= hi}) with {@code P(k) ∝ e^(-lambda |k|)}, where {@code max(|lo|,
   * |hi|) < 2^L}. One-signed ranges shift a truncated geometric (on [lo, hi] with {@code lo >= 0}
   * the law is {@code ∝ e^(-lambda (k - lo))}). Otherwise a sign bit and a magnitude m on {@code
   * [0, 2^K)}, {@code K} the bit length of {@code max(-lo, hi)}, kept if {@code +m <= hi} or {@code
   * 1 <= m <= -lo} (zero only on the positive side): each kept k has probability {@code P(m = |k|)
   * / 2}, proportional to {@code e^(-lambda |k|)}. The kept mass is at least {@code (1/2) P(m <=
   * max(-lo, hi)) >= 1/4} (zero is kept on either side's account), so at most 4 rounds are
   * expected.
   */
  public long twoSided(RandomBits bits, long lo, long hi) {
    if (lo > hi) {
      throw new IllegalArgumentException("empty range [" + lo + ", " + hi + "]");
    }
    if (lo >= 0) {
      return lo + atMost(bits, hi - lo);
    }
    if (hi <= 0) {
      return hi - atMost(bits, hi - lo);
    }
    int k = 64 - Long.numberOfLeadingZeros(Math.max(-lo, hi));
    while (true) {
      boolean negative = bits.nextLong() < 0;
      long m = below(bits, k);
      if (!negative && m <= hi) {
        return m;
      }
      if (negative && m >= 1 && m <= -lo) {
        return -m;
      }
    }
  }

  /**
   * k in Z with {@code P(k) ∝ e^(-lambda |k|)}, reported as {@code max(-cap, min(k, cap))}: a sign
   * bit and {@link #saturated}, rejecting the negative zero (at most 2 rounds expected).
   */
  public long twoSidedSaturated(RandomBits bits, long cap) {
    while (true) {
      boolean negative = bits.nextLong() < 0;
      long m = saturated(bits, cap);
      if (!negative) {
        return m;
      }
      if (m > 0) {
        return -m;
      }
    }
  }

  @Override
  public String toString() {
    return "ExactGeometric{decay=" + decay.doubleValue() + ", lowBits=" + lowBits + "}";
  }
}
