package io.ogpm.mechanism.random;

/**
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012), fed
 * incrementally. Bytes are packed little-endian into 64-bit words; two compression rounds per word,
 * four finalisation rounds; the last word carries the message length in its top byte.
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
    v1 = k1 ^ 0x646f72616e646f6dL;
    v2 = k0 ^ 0x6c7967656e657261L;
    v3 = k1 ^ 0x7465646279746573L;
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
      // Fast path: both bytes fit in the current word.
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

  long finish() {
    compress(word | (length << 56));
    v2 ^= 0xFF;
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
