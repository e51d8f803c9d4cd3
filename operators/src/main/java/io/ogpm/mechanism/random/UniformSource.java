package io.ogpm.mechanism.random;

/**
 * A stream of uniform random bits. Implementations are not thread-safe: give each thread (each
 * Flink subtask) its own.
 *
 * <p>Production code uses {@link AesCtrSource#secure()}; {@link AesCtrSource#seeded(long)} exists
 * for tests and reproducible experiments. {@code java.util.Random} and {@code SplittableRandom}
 * are never used: they are predictable from their outputs.
 */
public interface UniformSource {
  /** 64 uniform random bits. */
  long nextLong();

  /** A uniform double in [0, 1) with 53 random bits: a multiple of 2^-53. */
  default double nextUniform() {
    return Uniforms.fromBits(nextLong());
  }
}
