package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The (high, low) words add as the integers they stand for do, modulo 2^128. */
class Int128Test {
  private static final BigInteger MODULUS = BigInteger.ONE.shiftLeft(128);
  private static final BigInteger HALF = BigInteger.ONE.shiftLeft(127);

  @Test
  void addingWordsIsAddingTheIntegersModulo2To128() {
    long[] edges = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, 1L << 63 | 1};
    SplittableRandom random = new SplittableRandom(11);
    for (int i = 0; i < 20_000; i++) {
      long high = i < 2_401 ? edges[i % 7] : random.nextLong();
      long low = i < 2_401 ? edges[i / 7 % 7] : random.nextLong();
      long addHigh = i < 2_401 ? edges[i / 49 % 7] : random.nextLong();
      long addLow = i < 2_401 ? edges[i / 343 % 7] : random.nextLong();
      BigInteger expected =
          wrap(Int128.toBigInteger(high, low).add(Int128.toBigInteger(addHigh, addLow)));
      assertThat(Int128.toBigInteger(Int128.addHigh(high, low, addHigh, addLow), low + addLow))
          .as("(%d, %d) + (%d, %d)", high, low, addHigh, addLow)
          .isEqualTo(expected);
    }
  }

  @Test
  void aLongSignExtendedAddsItsValue() {
    long high = 0;
    long low = -2; // 2^64 - 2
    long v = -5;
    assertThat(Int128.toBigInteger(Int128.addHigh(high, low, v >> 63, v), low + v))
        .isEqualTo(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.valueOf(7)));
  }

  @Test
  void wordsAreTheInverseOfTheInteger() {
    for (BigInteger v :
        new BigInteger[] {
          BigInteger.ZERO,
          BigInteger.valueOf(-70).shiftLeft(60),
          BigInteger.ONE.shiftLeft(64),
          HALF.subtract(BigInteger.ONE),
          HALF.negate()
        }) {
      long[] words = Int128.words(v);
      assertThat(Int128.toBigInteger(words[0], words[1])).isEqualTo(v);
    }
    assertThatThrownBy(() -> Int128.words(HALF.shiftLeft(1)))
        .isInstanceOf(ArithmeticException.class);
  }

  /** The two's-complement value of v modulo 2^128. */
  private static BigInteger wrap(BigInteger v) {
    BigInteger m = v.mod(MODULUS);
    return m.compareTo(HALF) >= 0 ? m.subtract(MODULUS) : m;
  }
}
