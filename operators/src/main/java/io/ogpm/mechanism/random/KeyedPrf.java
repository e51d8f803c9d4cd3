package io.ogpm.mechanism.random;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Replay-safe randomness: the random bits for a record's field are a pseudorandom function of a
 * secret key, the record id and the field name. A record that Flink replays after a failure, or
 * that a producer sends twice, gets the identical perturbed value, so a retry reveals nothing new
 * (averaging two independent draws of the same value would weaken the privacy guarantee).
 *
 * <p>The PRF is SipHash-2-4 with 128-bit output (Aumasson and Bernstein, 2012), a keyed function
 * designed to be a PRF on short inputs, keyed with 128 bits derived from the operator's secret by
 * SHA-256 under a domain-separation label. The message is the field name prefixed by its length
 * and zero-padded to a 64-bit boundary, the record id, and a 64-bit block counter (UTF-16 code
 * units, little-endian), so no two (field, id, block) triples share a message. Each block gives two 64-bit words; a sampler rarely needs
 * more than the first block.
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

  /** A PRF keyed by a secret of at least 16 bytes (for example 32 bytes of {@code /dev/urandom}). */
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

  /** The PRF restricted to one field: the field's prefix is absorbed once, here. */
  public Field forField(String field) {
    SipHash24 prefix = new SipHash24(k0, k1);
    prefix.addUnit(field.length() >>> 16);
    prefix.addUnit(field.length() & 0xFFFF);
    prefix.addChars(field);
    // The id starts on a word boundary, so it is absorbed four characters per word. The padding is
    // unambiguous: the field's length is in the message.
    prefix.padToWord();
    return new Field(prefix);
  }

  @Override
  public String toString() {
    return "KeyedPrf{SipHash-2-4-128, key hidden}";
  }

  private static long littleEndianLong(byte[] b, int off) {
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = (v << 8) | (b[off + i] & 0xFFL);
    }
    return v;
  }

  /** The PRF for one field. Immutable and thread-safe. */
  public static final class Field {
    private final SipHash24 prefix;

    private Field(SipHash24 prefix) {
      this.prefix = prefix;
    }

    /** The random bits for one record: a deterministic stream of PRF blocks. */
    public RandomBits forRecord(String recordId) {
      return new RecordBits(prefix, recordId);
    }

    /** The first uniform double of a record's stream. */
    public double uniform(String recordId) {
      return forRecord(recordId).nextUniform();
    }
  }

  /**
   * Block i = SipHash-128(key, prefix || id || i); two words per block. Samplers almost always need
   * only block 0, so it is computed eagerly and later blocks re-absorb the id.
   */
  private static final class RecordBits implements RandomBits {
    private final SipHash24 prefix;
    private final String recordId;
    private long word0;
    private long word1;
    private long blockIndex;
    private int used;

    RecordBits(SipHash24 prefix, String recordId) {
      this.prefix = prefix;
      this.recordId = recordId;
      computeBlock();
    }

    private void computeBlock() {
      SipHash24 h = prefix.copy();
      h.addChars(recordId);
      h.addLong(blockIndex++);
      long[] out = new long[2];
      h.finish(out);
      word0 = out[0];
      word1 = out[1];
      used = 0;
    }

    @Override
    public long nextLong() {
      switch (used) {
        case 0:
          used = 1;
          return word0;
        case 1:
          used = 2;
          return word1;
        default:
          computeBlock();
          used = 1;
          return word0;
      }
    }
  }
}
