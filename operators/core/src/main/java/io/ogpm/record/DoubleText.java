/*
 * The algorithm below (toDecimal, rop, the digit extraction) is transcribed from DoubleToDecimal,
 * under this licence:
 *
 * Copyright 2018-2020 Raffaello Giulietti
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy
 * of this software and associated documentation files (the "Software"), to deal
 * in the Software without restriction, including without limitation the rights
 * to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 * copies of the Software, and to permit persons to whom the Software is
 * furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in
 * all copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 * OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
 * THE SOFTWARE.
 */

package io.ogpm.record;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigInteger;
import java.nio.ByteOrder;

/**
 * A double's text exactly as {@link Double#toString} writes it, without its cost where that cost is
 * high. On Java 17, {@code Double.toString} runs the FloatingDecimal algorithm, which for the 16-17
 * significant digits of a perturbed value falls back to big-integer arithmetic and allocates.
 * Raffaello Giulietti's Schubfach algorithm writes the shortest decimal that reads back as the same
 * double, and of those the closest, in the same format, with a few 64-bit multiplications.
 *
 * <p>The two agree in the plain-notation range 1e-3 <= |x| < 1e7, where Java 17's algorithm does
 * produce the shortest and closest digits: no decimal of 17 digits or fewer lies on the boundary of
 * a double's rounding interval there (that boundary is a dyadic fraction of at least 30 significant
 * decimal digits), so inclusive or exclusive boundaries never make them choose differently. Outside
 * that range (the computerised notation) Java 17 is known to write too many digits for some values
 * (for example 2.0061014710099768E16, where 2.006101471009977E16 suffices), so those values keep
 * {@code Double.toString}. {@code DoubleTextTest} compares both on millions of values.
 *
 * <p>The plain range is written here, straight into the output bytes: a transcription of the
 * plain-notation part of {@code DoubleToDecimal} (Copyright 2018-2020 Raffaello Giulietti, MIT
 * licence; as shipped in jackson-core's {@code com.fasterxml.jackson.core.io.schubfach}), with two
 * changes that do not change a digit. Jackson's copy, written for Java 8, computes the high half of
 * each 64 x 64-bit product in software (six per value, each four multiplications) and returns a new
 * String; here {@link Math#multiplyHigh} (one instruction) is used, equal to it for the
 * non-negative operands it gets, and the digits go into the caller's buffer, eight in one store
 * ({@link #digits}), so nothing is allocated. And only the eleven powers of ten that the plain
 * range needs are kept, each computed exactly at class loading from its definition (the table check
 * in {@code DoubleTextTest} compares them with Jackson's). Section numbers below refer to
 * Giulietti, "The Schubfach way to render doubles" (2020).
 */
final class DoubleText {
  private DoubleText() {}

  static final double PLAIN_MIN = 1e-3;
  static final double PLAIN_MAX = 1e7;

  /** Longest text {@code Double.toString} writes: {@code -d.ddddddddddddddddE-ddd}. */
  static final int MAX_CHARS = 24;

  /** Significand bits with the hidden one. */
  private static final int P = 53;

  /** The hidden bit, the smallest normal significand. */
  private static final long C_MIN = 1L << (P - 1);

  private static final long T_MASK = C_MIN - 1;
  private static final long MASK_63 = (1L << 63) - 1;

  /** Eight bytes of an array as one little-endian long: eight digits written in one store. */
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** Digits of the decimal written: {@code f} is brought to 17 digits before the extraction. */
  private static final int H = 17;

  private static final long[] POW10 = new long[H + 1];

  /**
   * k for the plain range: its doubles have binary exponents q from -62 (1e-3 is 1.024 x 2^-10,
   * significand 2^52) to -29 (1e7 < 2^24), so {@code k = floor(log10(2^q))} (or of 3/4 2^q) lies in
   * [-19, -9].
   */
  static final int K_LO = -19;

  static final int K_HI = -9;

  /** g1 and g0 of section 9.9.3 for k = K_LO ... K_HI, interleaved. */
  private static final long[] G = new long[2 * (K_HI - K_LO + 1)];

  static {
    POW10[0] = 1;
    for (int i = 1; i <= H; i++) {
      POW10[i] = 10 * POW10[i - 1];
    }
    for (int k = K_LO; k <= K_HI; k++) {
      long[] g = g(k);
      G[2 * (k - K_LO)] = g[0];
      G[2 * (k - K_LO) + 1] = g[1];
    }
  }

  /**
   * g1 and g0 for 10^-k: with {@code 10^-k = beta 2^r}, {@code 2^125 <= beta < 2^126}, {@code g =
   * floor(beta) + 1 = g1 2^63 + g0}, {@code 0 <= g0 < 2^63} (section 9.9.3; r = flog2pow10(-k) -
   * 125). Exact: big integers, no rounding.
   */
  static long[] g(int k) {
    int r = flog2pow10(-k) - 125;
    BigInteger numerator = k <= 0 ? BigInteger.TEN.pow(-k) : BigInteger.ONE;
    BigInteger denominator = k <= 0 ? BigInteger.ONE : BigInteger.TEN.pow(k);
    if (r < 0) {
      numerator = numerator.shiftLeft(-r);
    } else {
      denominator = denominator.shiftLeft(r);
    }
    BigInteger g = numerator.divide(denominator).add(BigInteger.ONE);
    return new long[] {g.shiftRight(63).longValueExact(), g.longValue() & MASK_63};
  }

  /**
   * Writes {@code Double.toString(x)} as ASCII bytes at {@code to[at]} (room for {@link #MAX_CHARS}
   * needed) and returns the index after its last byte. Digits are stored eight at a time, so bytes
   * after the text, within that room, may be overwritten.
   */
  @SuppressWarnings("deprecation")
  static int write(double x, byte[] to, int at) {
    double a = Math.abs(x);
    if (!(a >= PLAIN_MIN && a < PLAIN_MAX)) {
      String s = Double.toString(x);
      // The deprecated getBytes copies each char's low byte: exact for this ASCII text.
      s.getBytes(0, s.length(), to, at);
      return at + s.length();
    }
    // A normal double: c 2^q with c = 2^52 + the stored fraction, q = stored exponent - 1075.
    long bits = Double.doubleToRawLongBits(x);
    int i = at;
    if (bits < 0) {
      to[i++] = '-';
    }
    int mq = 1075 - ((int) (bits >>> (P - 1)) & 0x7FF);
    long c = C_MIN | bits & T_MASK;
    // Section 8.2: a whole number is its own shortest decimal.
    if (0 < mq && mq < P) {
      long f = c >> mq;
      if (f << mq == c) {
        return chars(f, 0, to, i);
      }
    }
    return decimal(-mq, c, to, i);
  }

  /** Figure 4 of the paper, computed as in its figure 7: the decimal for c 2^q, then its text. */
  private static int decimal(int q, long c, byte[] to, int i) {
    int out = (int) c & 1;
    long cb = c << 2;
    long cbr = cb + 2;
    long cbl;
    int k;
    if (c != C_MIN) {
      // regular spacing of the neighbouring doubles
      cbl = cb - 2;
      k = flog10pow2(q);
    } else {
      // a power of two: the double below is half as far as the one above
      cbl = cb - 1;
      k = flog10threeQuartersPow2(q);
    }
    int h = q + flog2pow10(-k) + 2;
    long g1 = G[2 * (k - K_LO)];
    long g0 = G[2 * (k - K_LO) + 1];
    long vb = rop(g1, g0, cb << h);
    long vbl = rop(g1, g0, cbl << h);
    long vbr = rop(g1, g0, cbr << h);
    long s = vb >> 2;
    if (s >= 100) {
      // Section 9.4: is one of the two multiples of ten around s 10^k in the rounding interval?
      long sp10 = 10 * Math.multiplyHigh(s, 115_292_150_460_684_698L << 4);
      long tp10 = sp10 + 10;
      boolean upin = vbl + out <= sp10 << 2;
      boolean wpin = (tp10 << 2) + out <= vbr;
      if (upin != wpin) {
        return chars(upin ? sp10 : tp10, k, to, i);
      }
    }
    long t = s + 1;
    boolean uin = vbl + out <= s << 2;
    boolean win = (t << 2) + out <= vbr;
    if (uin != win) {
      return chars(uin ? s : t, k, to, i);
    }
    // Both s and t in the interval: the closer, the even one on a tie.
    long cmp = vb - (s + t << 1);
    return chars(cmp < 0 || cmp == 0 && (s & 1) == 0 ? s : t, k, to, i);
  }

  /** rop(cp g 2^-127), g = g1 2^63 + g0 (section 9.10, figure 5). */
  private static long rop(long g1, long g0, long cp) {
    long x1 = Math.multiplyHigh(g0, cp);
    long y0 = g1 * cp;
    long y1 = Math.multiplyHigh(g1, cp);
    long z = (y0 >>> 1) + x1;
    long vbp = y1 + (z >>> 63);
    return vbp | (z & MASK_63) + MASK_63 >>> 63;
  }

  /** The text of f 10^e in plain notation (section 10): {@code Double.toString}'s format. */
  private static int chars(long f, int e, byte[] to, int i) {
    int len = flog10pow2(Long.SIZE - Long.numberOfLeadingZeros(f));
    if (f >= POW10[len]) {
      len++;
    }
    // f 10^e = 0.f' 10^e' with f' of exactly 17 digits
    f *= POW10[H - len];
    e += len;
    // f' = h m l: one digit, eight, eight (floor(f / 10^8) = floor(f 193_428_131_138_340_668 /
    // 2^84))
    long hm = Math.multiplyHigh(f, 193_428_131_138_340_668L) >>> 20;
    int l = (int) (f - 100_000_000L * hm);
    int h = (int) (hm * 1_441_151_881L >>> 57);
    int m = (int) (hm - 100_000_000 * h);
    if (e > 0) {
      // 1 <= |x| < 1e7, 0 < e <= 7: ddd.ddd, the point after h and e - 1 digits of m
      to[i++] = (byte) ('0' + h);
      long digits = digits(m);
      if (e == 1) {
        to[i++] = '.';
        LONGS.set(to, i, digits);
      } else {
        // m's digits, then its last 9 - e digits again one byte on, where the point goes before
        // them
        LONGS.set(to, i, digits);
        LONGS.set(to, i + e, digits >>> 8 * (e - 1));
        to[i + e - 1] = '.';
        i++;
      }
      i += 8;
    } else {
      // 1e-3 <= |x| < 1, -3 < e <= 0: 0.00ddd
      to[i++] = '0';
      to[i++] = '.';
      for (; e < 0; e++) {
        to[i++] = '0';
      }
      to[i++] = (byte) ('0' + h);
      i = eightDigits(m, to, i);
    }
    if (l != 0) {
      i = eightDigits(l, to, i);
    }
    // Trailing zeroes go, but not the one right after the point. The leading digit h is not 0.
    while (to[i - 1] == '0') {
      i--;
    }
    if (to[i - 1] == '.') {
      i++;
    }
    return i;
  }

  /** The 8 digits of m < 10^8 at {@code to[i]}, left to right; returns the index after them. */
  private static int eightDigits(int m, byte[] to, int i) {
    LONGS.set(to, i, digits(m));
    return i + 8;
  }

  /**
   * The 8 digits of m < 10^8 as ASCII in one long, the first in the lowest byte (the first in
   * memory, little-endian): m is split in lanes of the long, halves then quarters then digits, each
   * lane divided by a multiplication and a shift that is exact in its range (n / 100 = n 10486 /
   * 2^20 for n <= 43,698; n / 10 = n 103 / 2^10 for n <= 178), no lane's product reaching the next
   * lane. One store instead of eight; {@code DoubleTextTest} checks every m of a stride through [0,
   * 10^8) against {@code String.format("%08d", m)}.
   */
  static long digits(int m) {
    int high = m / 10_000;
    long v = high | (long) (m - 10_000 * high) << 32;
    long q = (v * 10_486 >>> 20) & 0x0000_007F_0000_007FL;
    v = q | (v - 100 * q) << 16;
    q = (v * 103 >>> 10) & 0x000F_000F_000F_000FL;
    v = q | (v - 10 * q) << 8;
    return v + 0x3030_3030_3030_3030L;
  }

  /** floor(log10(2^e)), for |e| <= 5,456,721. */
  private static int flog10pow2(int e) {
    return (int) (e * 661_971_961_083L >> 41);
  }

  /** floor(log10(3/4 2^e)), for -2,956,395 <= e <= 2,500,325. */
  private static int flog10threeQuartersPow2(int e) {
    return (int) (e * 661_971_961_083L + -274_743_187_321L >> 41);
  }

  /** floor(log2(10^e)), for |e| <= 1,838,394. */
  private static int flog2pow10(int e) {
    return (int) (e * 913_124_641_741L >> 38);
  }
}
