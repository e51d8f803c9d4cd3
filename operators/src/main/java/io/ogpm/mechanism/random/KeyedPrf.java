package io.ogpm.mechanism.random;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Replay-safe randomness: the uniform draw for a record's field is a pseudorandom function of a
 * secret key, the record id and the field name. A record that Flink replays after a failure, or
 * that a producer sends twice, gets the identical perturbed value, so a retry reveals nothing new
 * (averaging two independent draws of the same value would halve the noise).
 *
 * <p>The PRF is SipHash-2-4 (Aumasson and Bernstein, 2012), a keyed function designed to be a PRF
 * on short inputs, with a 128-bit key derived from the operator's secret by SHA-256 with a domain
 * separation label. The message is the field name and the record id as UTF-16 code units, the
 * field prefixed by its length, so no two (id, field) pairs share a message.
 *
 * <p>Immutable and thread-safe. The key never appears in {@link #toString()}.
 */
public final class KeyedPrf {
  /** Fewest bytes of secret accepted: 128 bits. */
  public static final int MIN_SECRET_BYTES = 16;

  private final long k0;
  private final long k1;

  private KeyedPrf(long k0, long k1) {
    this.k0 = k0;
    this.k1 = k1;
  }

  /**
   * A PRF keyed by a secret of at least 16 bytes (for example 32 bytes from {@code /dev/urandom}).
   */
  public static KeyedPrf fromSecret(byte[] secret) {
    if (secret == null || secret.length < MIN_SECRET_BYTES) {
      throw new IllegalArgumentException(
          "the secret key must have at least " + MIN_SECRET_BYTES + " bytes, got "
              + (secret == null ? 0 : secret.length));
    }
    byte[] label = "ogpm-keyed-prf-v1".getBytes(StandardCharsets.US_ASCII);
    byte[] input = Arrays.copyOf(label, label.length + secret.length);
    System.arraycopy(secret, 0, input, label.length, secret.length);
    byte[] digest = AesCtrSource.sha256(input);
    Arrays.fill(input, (byte) 0);
    return new KeyedPrf(littleEndianLong(digest, 0), littleEndianLong(digest, 8));
  }

  /** The 64-bit PRF output for (record id, field). */
  public long bits(String recordId, String field) {
    SipHash24 h = new SipHash24(k0, k1);
    h.addUnit(field.length() >>> 16);
    h.addUnit(field.length() & 0xFFFF);
    for (int i = 0; i < field.length(); i++) {
      h.addUnit(field.charAt(i));
    }
    for (int i = 0; i < recordId.length(); i++) {
      h.addUnit(recordId.charAt(i));
    }
    return h.finish();
  }

  /** The uniform draw in [0, 1) for (record id, field). */
  public double uniform(String recordId, String field) {
    return Uniforms.fromBits(bits(recordId, field));
  }

  @Override
  public String toString() {
    return "KeyedPrf{SipHash-2-4, key hidden}";
  }

  private static long littleEndianLong(byte[] b, int off) {
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = (v << 8) | (b[off + i] & 0xFFL);
    }
    return v;
  }
}
