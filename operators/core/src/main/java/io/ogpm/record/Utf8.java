package io.ogpm.record;

/**
 * Validation of UTF-8 as RFC 3629 defines it (section 4, table of well-formed byte sequences):
 * shortest form, no surrogates, at most U+10FFFF. Bytes that pass are their text's one encoding,
 * which Jackson writes back as they are. Static, for the scanner's string loop.
 */
final class Utf8 {
  private Utf8() {}

  /**
   * The length of the valid UTF-8 sequence at {@code p}, whose first byte is not ASCII.
   *
   * @throws NotPlainJson if it is not a valid sequence
   * @throws ArrayIndexOutOfBoundsException if the input ends inside it
   */
  static int sequenceLength(byte[] in, int p) {
    int b = in[p] & 0xFF;
    int length;
    int low = 0x80;
    int high = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
      length = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      length = 3;
      // E0: not an overlong form; ED: not a surrogate.
      low = b == 0xE0 ? 0xA0 : low;
      high = b == 0xED ? 0x9F : high;
    } else if (b >= 0xF0 && b <= 0xF4) {
      length = 4;
      // F0: not an overlong form; F4: not beyond U+10FFFF.
      low = b == 0xF0 ? 0x90 : low;
      high = b == 0xF4 ? 0x8F : high;
    } else {
      throw NotPlainJson.INSTANCE;
    }
    int second = in[p + 1] & 0xFF;
    if (second < low || second > high) {
      throw NotPlainJson.INSTANCE;
    }
    for (int i = 2; i < length; i++) {
      if ((in[p + i] & 0xC0) != 0x80) {
        throw NotPlainJson.INSTANCE;
      }
    }
    return length;
  }
}
