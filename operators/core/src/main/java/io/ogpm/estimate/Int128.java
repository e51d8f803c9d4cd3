package io.ogpm.estimate;

import java.math.BigInteger;

/**
 * 128-bit two's-complement integers held in two longs, a high word and a low word read as unsigned:
 * {@code high 2^64 + unsigned(low)}. Static methods on (high, low) pairs, so that an exact sum kept
 * in two long fields (as a Flink POJO keeps it) is added to without allocating. Sums wrap modulo
 * 2^128 as a long's wrap modulo 2^64; the callers stay far from that.
 */
final class Int128 {
  private static final BigInteger LOW_WORD = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private Int128() {}

  /**
   * The high word of {@code (high, low) + (addHigh, addLow)}; its low word is {@code low + addLow}.
   * Adding a long v is adding {@code (v >> 63, v)}, v sign-extended. The high word takes the carry
   * out of the low words: their unsigned sum wrapped below {@code low}.
   */
  static long addHigh(long high, long low, long addHigh, long addLow) {
    return high + addHigh + (Long.compareUnsigned(low + addLow, low) < 0 ? 1 : 0);
  }

  /** The integer of a (high, low) pair. */
  static BigInteger toBigInteger(long high, long low) {
    return BigInteger.valueOf(high).shiftLeft(64).add(BigInteger.valueOf(low).and(LOW_WORD));
  }

  /**
   * The {high, low} words of {@code v}.
   *
   * @throws ArithmeticException if v does not fit in 128 bits
   */
  static long[] words(BigInteger v) {
    return new long[] {v.shiftRight(64).longValueExact(), v.longValue()};
  }
}
