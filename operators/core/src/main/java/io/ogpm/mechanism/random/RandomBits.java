package io.ogpm.mechanism.random;

import io.ogpm.annotation.PublicEvolving;

/**
 * A source of uniform random bits (as Apache Commons RNG separates its providers from its samplers:
 * the samplers in {@code io.ogpm.mechanism} take one of these). Implementations are not
 * thread-safe: give each thread, each Flink subtask, its own.
 *
 * <p>Production code uses {@link AesCtrSource#secure()} or, for replay-safe records, {@link
 * KeyedPrf}. {@link AesCtrSource#seeded(long)} exists for tests and reproducible experiments.
 * {@code java.util.Random} and {@code SplittableRandom} are never used: their outputs predict their
 * future outputs.
 */
@PublicEvolving
public interface RandomBits {
  /** 64 uniform random bits. */
  long nextLong();

  /** A uniform double in [0, 1) with 53 random bits: a multiple of 2^-53. */
  default double nextUniform() {
    return Uniforms.fromBits(nextLong());
  }

  /**
   * A uniform integer in [0, n) for {@code 0 < n <= 2^62}, exactly: Lemire's multiply-and-reject
   * method ("Fast random integer generation in an interval", 2019), which rejects with probability
   * below n / 2^64 and otherwise uses one draw.
   */
  default long nextBounded(long n) {
    long r = nextLong();
    long low = r * n;
    if (Long.compareUnsigned(low, n) < 0) {
      long threshold = Long.remainderUnsigned(-n, n);
      while (Long.compareUnsigned(low, threshold) < 0) {
        r = nextLong();
        low = r * n;
      }
    }
    return Uniforms.unsignedMultiplyHigh(r, n);
  }
}
