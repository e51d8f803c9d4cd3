package io.ogpm.mechanism.random;

/**
 * SipHash-2-4 with 128-bit output (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012,
 * and the reference implementation's 128-bit mode), fed incrementally. Bytes are packed
 * little-endian into 64-bit words; two compression rounds per word, four finalisation rounds per
 * output word; the last word carries the message length in its top byte. The state can be copied,
 * so a common prefix (a field name) is absorbed once.
 */
final class SipHash24 {
  private long v0;
  private long v1;
  private long v2;
  private long v3;
  private long word;
  private int bytesInWord;
  private long length;

  SipHash24(long k0, long k1) {
    v0 = k0 ^ 0x736f6d6570736575L;
    v1 = k1 ^ 0x646f72616e646f6dL ^ 0xee;
    v2 = k0 ^ 0x6c7967656e657261L;
    v3 = k1 ^ 0x7465646279746573L;
  }

  private SipHash24(SipHash24 other) {
    setTo(other);
  }

  /** An independent copy of the current state. */
  SipHash24 copy() {
    return new SipHash24(this);
  }

  /** Makes this state equal to {@code other}'s, without allocating. */
  void setTo(SipHash24 other) {
    v0 = other.v0;
    v1 = other.v1;
    v2 = other.v2;
    v3 = other.v3;
    word = other.word;
    bytesInWord = other.bytesInWord;
    length = other.length;
  }

  void addByte(int b) {
    word |= ((long) (b & 0xFF)) << (8 * bytesInWord);
    length++;
    if (++bytesInWord == 8) {
      compress(word);
      word = 0;
      bytesInWord = 0;
    }
  }

  /** A 16-bit unit as two bytes, little-endian. */
  void addUnit(int unit) {
    if (bytesInWord <= 6) {
      word |= ((long) (unit & 0xFFFF)) << (8 * bytesInWord);
      length += 2;
      bytesInWord += 2;
      if (bytesInWord == 8) {
        compress(word);
        word = 0;
        bytesInWord = 0;
      }
    } else {
      addByte(unit);
      addByte(unit >>> 8);
    }
  }

  /** The UTF-16 code units of a string, two bytes each, little-endian; four units per word. */
  void addChars(String s) {
    int i = 0;
    int n = s.length();
    if (bytesInWord == 0) {
      for (; i + 4 <= n; i += 4) {
        compress(
            s.charAt(i)
                | ((long) s.charAt(i + 1) << 16)
                | ((long) s.charAt(i + 2) << 32)
                | ((long) s.charAt(i + 3) << 48));
      }
      length += 2L * i;
    }
    for (; i < n; i++) {
      addUnit(s.charAt(i));
    }
  }

  /** Zero bytes up to the next word boundary. */
  void padToWord() {
    while (bytesInWord != 0) {
      addByte(0);
    }
  }

  /** A 64-bit value as eight bytes, little-endian. */
  void addLong(long value) {
    length += 8;
    if (bytesInWord == 0) {
      compress(value);
    } else {
      int used = 8 * bytesInWord;
      compress(word | (value << used));
      word = value >>> (64 - used);
    }
  }

  /**
   * Finishes the message and writes the two 64-bit output words (little-endian halves of the
   * 128-bit tag) into {@code out[0]} and {@code out[1]}. The state is consumed.
   */
  void finish(long[] out) {
    compress(word | (length << 56));
    v2 ^= 0xee;
    out[0] = finalization();
    v1 ^= 0xdd;
    out[1] = finalization();
  }

  /**
   * The 128-bit tag of the message so far followed by one more 64-bit word, written as {@link
   * #finish} does; this state is left as it was (so a stream of blocks that differ only in their
   * last word costs one word each, and no copy).
   */
  void finishAfter(long lastWord, long[] out) {
    long s0 = v0;
    long s1 = v1;
    long s2 = v2;
    long s3 = v3;
    long sWord = word;
    int sBytes = bytesInWord;
    long sLength = length;
    addLong(lastWord);
    finish(out);
    v0 = s0;
    v1 = s1;
    v2 = s2;
    v3 = s3;
    word = sWord;
    bytesInWord = sBytes;
    length = sLength;
  }

  /** Four finalisation rounds, then the output word they give. */
  private long finalization() {
    round();
    round();
    round();
    round();
    return v0 ^ v1 ^ v2 ^ v3;
  }

  private void compress(long m) {
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }

  private void round() {
    v0 += v1;
    v1 = Long.rotateLeft(v1, 13);
    v1 ^= v0;
    v0 = Long.rotateLeft(v0, 32);
    v2 += v3;
    v3 = Long.rotateLeft(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = Long.rotateLeft(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = Long.rotateLeft(v1, 17);
    v1 ^= v2;
    v2 = Long.rotateLeft(v2, 32);
  }
}
