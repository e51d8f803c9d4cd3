package io.ogpm.mechanism.random;

import io.ogpm.annotation.Internal;

/** Conversions from random bits to uniform numbers. */
@Internal
public final class Uniforms {
  private static final double TWO_POW_MINUS_53 = 0x1.0p-53;

  private Uniforms() {}

  /**
   * The top 53 bits of {@code bits} as a double in [0, 1): exact, every multiple of 2^-53 equally
   * likely.
   */
  public static double fromBits(long bits) {
    return (bits >>> 11) * TWO_POW_MINUS_53;
  }

  /** The high 64 bits of the unsigned 128-bit product {@code a * b}. */
  public static long unsignedMultiplyHigh(long a, long b) {
    return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
  }
}
