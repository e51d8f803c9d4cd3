package io.ogpm.mechanism.random;

import io.ogpm.annotation.Internal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Replay-safe randomness: the random bits for a record's field are a pseudorandom function of a
 * secret key and of everything the field's output depends on: the field and its mechanism, the
 * record id, the user, and the input value. A record that Flink replays after a failure, or that a
 * producer sends twice, gets the identical perturbed value, so a retry reveals nothing new
 * (averaging two independent draws of the same value would weaken the privacy guarantee). Records
 * that differ in any of these get independent bits: two records that share an id but carry
 * different values do not share noise (shared noise would make their outputs equal, or differ by
 * exactly the difference of their inputs, and so reveal one input to anyone who knows the other).
 *
 * <p>The PRF is SipHash-2-4 with 128-bit output (Aumasson and Bernstein, 2012), a keyed function
 * designed to be a PRF on short inputs. Its key {@code (k0, k1)} is the first 16 bytes of {@code
 * SHA-256("ogpm-keyed-prf-v2" || secret)}, read as two little-endian 64-bit words.
 *
 * <p><b>Message layout</b> (v2). The message for block {@code i} of a record's field is a sequence
 * of 64-bit words, each fed to SipHash as eight little-endian bytes:
 *
 * <pre>
 *   header('F', |field|)  units(field)            per field: absorbed once ({@link #forField})
 *   header('M', |mech|)   units(mech)
 *   header(t_id, |id|)    units(id)               per record ({@link Field#forRecord})
 *   header(t_user, |user|) units(user)
 *   bits(value)
 *   i                                             block counter 0, 1, ...
 *
 *   header(t, n) = t * 2^56 + n      type tag in the top byte, length n in UTF-16 code units
 *   units(s)     = the UTF-16 code units of s, two bytes each, little-endian, zero-padded to a
 *                  multiple of 8 bytes
 *   t_id, t_user = 'S' (string) or 'I' (integer: its canonical decimal, see {@link Identifier});
 *                  t_user = 'N' with n = 0 when there is no user
 *   bits(value)  = IEEE 754 bits of the input value (Double.doubleToLongBits), -0.0 read as +0.0
 * </pre>
 *
 * The encoding is injective: reading from the left, each header gives a tag and a length, hence
 * where its padded units end; the value and the counter are one word each. So no two distinct
 * (field, mechanism, id, user, value, block) tuples share a message: not ("ab", "c") and ("a",
 * "bc"), not an id and the same id with trailing NULs, not the string "5" and the integer 5, not
 * user "" and no user. Strings are hashed as UTF-16 code units, not UTF-8, so unpaired surrogates
 * (which a JSON {@code \ud800} escape can produce) stay distinct instead of becoming '?'.
 *
 * <p>The value is the double the mechanism is given, after clamping or wrapping. {@code -0.0} and
 * {@code +0.0} are one value: the mechanisms compare with {@code ==}, so both draw from the same
 * distribution, and a producer that re-serialises a zero with or without its sign must still get a
 * replay, not a second independent draw of the same reading.
 *
 * <p>Each block gives two 64-bit words; a sampler rarely needs more than the first block. Immutable
 * and thread-safe (the {@link RecordBits} it hands out are not). The key never appears in {@link
 * #toString()}.
 */
@Internal
public final class KeyedPrf {
  /** Fewest bytes of secret accepted: 128 bits. */
  public static final int MIN_SECRET_BYTES = 16;

  /** The domain-separation label of the key derivation; its version changes with the layout. */
  static final String LABEL = "ogpm-keyed-prf-v2";

  private static final int FIELD_TAG = 'F';
  private static final int MECHANISM_TAG = 'M';

  private final long k0;
  private final long k1;

  private KeyedPrf(long k0, long k1) {
    this.k0 = k0;
    this.k1 = k1;
  }

  /**
   * A PRF keyed by a secret of at least 16 bytes (for example 32 bytes of {@code /dev/urandom}). A
   * secret whose bytes are all equal (a file of zeros, of one repeated character) is refused: it is
   * not a secret. Messages never quote the secret.
   */
  public static KeyedPrf fromSecret(byte[] secret) {
    if (secret == null || secret.length < MIN_SECRET_BYTES) {
      throw new IllegalArgumentException(
          "the secret key must have at least "
              + MIN_SECRET_BYTES
              + " bytes, got "
              + (secret == null ? 0 : secret.length));
    }
    if (isOneByteRepeated(secret)) {
      throw new IllegalArgumentException(
          "the secret key is one byte value repeated "
              + secret.length
              + " times: not a secret; use "
              + "at least "
              + MIN_SECRET_BYTES
              + " random bytes");
    }
    byte[] label = LABEL.getBytes(StandardCharsets.US_ASCII);
    byte[] input = Arrays.copyOf(label, label.length + secret.length);
    System.arraycopy(secret, 0, input, label.length, secret.length);
    byte[] digest = AesCtrSource.sha256(input);
    Arrays.fill(input, (byte) 0);
    long a = littleEndianLong(digest, 0);
    long b = littleEndianLong(digest, 8);
    Arrays.fill(digest, (byte) 0);
    return new KeyedPrf(a, b);
  }

  /** Whether every byte of a non-empty array is the same: a key anyone can guess. */
  public static boolean isOneByteRepeated(byte[] secret) {
    for (int i = 1; i < secret.length; i++) {
      if (secret[i] != secret[0]) {
        return false;
      }
    }
    return secret.length > 0;
  }

  /**
   * The PRF restricted to one field: the field's name and a description of its mechanism (any text
   * that changes whenever the output distribution does, such as the mechanism spec), so that a
   * changed configuration never reuses the bits of the old one. This prefix is absorbed once, here.
   */
  public Field forField(String field, String mechanism) {
    SipHash24 prefix = new SipHash24(k0, k1);
    absorb(prefix, FIELD_TAG, field);
    absorb(prefix, MECHANISM_TAG, mechanism);
    return new Field(prefix);
  }

  /** {@code header(tag, |s|) || units(s)}; starts and ends on a word boundary. */
  private static void absorb(SipHash24 h, int tag, String s) {
    h.addLong(((long) tag << 56) | s.length());
    h.addChars(s);
    h.padToWord();
  }

  @Override
  public String toString() {
    return "KeyedPrf{SipHash-2-4-128, " + LABEL + ", key hidden}";
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
    public RandomBits forRecord(Identifier id, Identifier user, double value) {
      return newBits().load(id, user, value);
    }

    /**
     * A reusable holder of one record's bits at a time, for a single thread: no allocation per
     * record.
     */
    public RecordBits newBits() {
      return new RecordBits(prefix);
    }

    /** The first uniform double of a record's stream. */
    public double uniform(Identifier id, Identifier user, double value) {
      return forRecord(id, user, value).nextUniform();
    }
  }

  /**
   * One record's bits: block i = SipHash-128(key, prefix || id || user || value || i), two words
   * per block. The state after the value is kept, so each block costs one more word. Not
   * thread-safe; {@link #load} starts the stream of another record.
   */
  public static final class RecordBits implements RandomBits {
    private final SipHash24 prefix;
    private final SipHash24 state;
    private final long[] block = new long[2];
    private long blockIndex;
    private int used = 2;
    private boolean loaded;

    private RecordBits(SipHash24 prefix) {
      this.prefix = prefix;
      this.state = prefix.copy();
    }

    /** Starts the stream of the record with this id, user and input value; returns this. */
    public RecordBits load(Identifier id, Identifier user, double value) {
      state.setTo(prefix);
      absorb(state, id.tag(), id.text());
      absorb(state, user.tag(), user.text());
      // value + 0.0 is +0.0 for either zero and leaves every other value unchanged.
      state.addLong(Double.doubleToLongBits(value + 0.0));
      blockIndex = 0;
      loaded = true;
      nextBlock();
      return this;
    }

    private void nextBlock() {
      state.finishAfter(blockIndex++, block);
      used = 0;
    }

    @Override
    public long nextLong() {
      if (used == 2) {
        if (!loaded) {
          throw new IllegalStateException("no record loaded");
        }
        nextBlock();
      }
      return block[used++];
    }
  }
}
