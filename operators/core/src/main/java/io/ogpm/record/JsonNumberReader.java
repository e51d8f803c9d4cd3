package io.ogpm.record;

import com.fasterxml.jackson.core.io.NumberInput;
import io.ogpm.mechanism.random.Identifier;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Reads a JSON number from its bytes as Jackson reads it, for {@link PlainJsonScanner}: {@link
 * #scan} checks the text against JSON's grammar and takes in its digits on the way, then {@link
 * #value} gives the double (correctly rounded, as {@link Double#parseDouble}) and {@link
 * #integerIdentifier} the integer an id or user holds. The scanned number's digits are kept in
 * fields, so a number is read once and nothing is allocated (but beyond Clinger's fast path).
 *
 * <p>Not thread-safe: one per scanner.
 */
final class JsonNumberReader {
  /** Longest number read here, in characters (Jackson accepts up to 400). */
  static final int MAX_NUMBER = 24;

  /** Exact powers of ten as doubles: 10^22 is the largest a double holds exactly. */
  private static final double[] POWERS_OF_TEN = new double[23];

  static {
    double p = 1;
    for (int i = 0; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = p;
      p *= 10;
    }
  }

  /**
   * The scanned number: its digits' value (exact up to 15 of them), how many (leading zeros too),
   * how many come before the point (-1: no point), whether it has an exponent, whether it is an
   * integer (neither point nor exponent).
   */
  private long digits;

  private int count;
  private int point;
  private boolean exponent;
  private boolean integer;

  /**
   * Past the number at {@code from}, in JSON's grammar: {@code -? (0 | [1-9][0-9]*) (. [0-9]+)?
   * ([eE] [+-]? [0-9]+)?}, of at most {@value #MAX_NUMBER} characters.
   *
   * @return where it ends
   * @throws NotPlainJson outside the grammar or longer
   * @throws ArrayIndexOutOfBoundsException if the input ends inside it
   */
  int scan(byte[] in, int from) {
    int p = from;
    if (in[p] == '-') {
      p++;
    }
    // Locals in the loops: fields would be stored on every step.
    long digits = 0;
    int count = 0;
    int point = -1;
    byte b = in[p];
    if (b == '0') {
      p++;
      count = 1;
    } else if (b >= '1' && b <= '9') {
      while (p < in.length && (b = in[p]) >= '0' && b <= '9') {
        digits = 10 * digits + (b - '0');
        count++;
        p++;
      }
    } else {
      throw NotPlainJson.INSTANCE;
    }
    if (p < in.length && in[p] == '.') {
      p++;
      point = count;
      while (p < in.length && (b = in[p]) >= '0' && b <= '9') {
        digits = 10 * digits + (b - '0');
        count++;
        p++;
      }
      if (count == point) {
        throw NotPlainJson.INSTANCE;
      }
    }
    boolean exponent = p < in.length && (in[p] == 'e' || in[p] == 'E');
    if (exponent) {
      p++;
      if (in[p] == '+' || in[p] == '-') {
        p++;
      }
      int first = p;
      while (p < in.length && in[p] >= '0' && in[p] <= '9') {
        p++;
      }
      if (p == first) {
        throw NotPlainJson.INSTANCE;
      }
    }
    if (p - from > MAX_NUMBER) {
      throw NotPlainJson.INSTANCE;
    }
    this.digits = digits;
    this.count = count;
    this.point = point;
    this.exponent = exponent;
    this.integer = point < 0 && !exponent;
    return p;
  }

  /**
   * Whether the scanned number is an integer: no point, no exponent (Jackson's int, long or
   * BigInteger).
   */
  boolean integer() {
    return integer;
  }

  /**
   * The scanned number {@code in[from, to)} as a double, as Jackson reads it. (The integer -0,
   * which Jackson reads as the int 0, reads as -0.0 here: the plan perturbs both as +0.0.)
   */
  double value(byte[] in, int from, int to) {
    return exponent || count > 15
        ? parseDouble(in, from, to)
        : exactDecimal(in[from] == '-', digits, point < 0 ? 0 : point - count);
  }

  /**
   * An integer id or user, {@code in[from, from + length)}: one of at most 18 digits is a long; a
   * longer one (at most {@value #MAX_NUMBER} characters) a BigInteger, the same identifier as
   * Jackson's long or BigInteger.
   */
  static Identifier integerIdentifier(byte[] in, int from, int length) {
    boolean negative = in[from] == '-';
    int digits = negative ? length - 1 : length;
    if (digits > 18) {
      return Identifier.integer(
          new BigInteger(new String(in, from, length, StandardCharsets.ISO_8859_1)));
    }
    long v = 0;
    for (int i = from + (negative ? 1 : 0); i < from + length; i++) {
      v = v * 10 + (in[i] - '0');
    }
    return Identifier.integer(negative ? -v : v);
  }

  /**
   * The double nearest to the decimal {@code in[from, to)} (JSON's number grammar, checked), as
   * Jackson reads it: correctly rounded, like {@link Double#parseDouble}. An integer Jackson reads
   * as a long or BigInteger and converts, which rounds correctly too (-0 does not come here).
   *
   * <p>Clinger's fast path: with at most 15 digits the digits are an exact double below 2^53, and
   * 10^k is exact for k <= 22, so one multiplication or division, correctly rounded by IEEE 754,
   * gives the correctly rounded value (W. D. Clinger, "How to read floating point numbers
   * accurately", PLDI 1990). The digits are counted with their leading zeros (one test per digit
   * instead of three), so a decimal of more than 15 digits in all goes to Jackson's fast parser, as
   * in the Jackson read, even when fewer are significant: rare in sensor data (0.000123456789012
   * has 15), and the same double either way.
   */
  static double parseDouble(byte[] in, int from, int to) {
    int i = from;
    boolean negative = in[i] == '-';
    if (negative) {
      i++;
    }
    long digits = 0;
    int count = 0;
    int point = -1;
    for (; i < to; i++) {
      int d = in[i] - '0';
      if (d >= 0 && d <= 9) {
        digits = digits * 10 + d;
        count++;
      } else if (d == '.' - '0') {
        point = count;
      } else {
        break;
      }
    }
    if (count > 15) {
      return slowParse(in, from, to);
    }
    int exponent = point < 0 ? 0 : point - count;
    if (i < to) {
      // past the 'e' or 'E'
      i++;
      boolean negativeExponent = in[i] == '-';
      if (in[i] == '-' || in[i] == '+') {
        i++;
      }
      if (to - i > 3) {
        return slowParse(in, from, to);
      }
      int e = 0;
      for (; i < to; i++) {
        e = e * 10 + (in[i] - '0');
      }
      exponent += negativeExponent ? -e : e;
    }
    if (digits != 0 && (exponent >= POWERS_OF_TEN.length || -exponent >= POWERS_OF_TEN.length)) {
      return slowParse(in, from, to);
    }
    return exactDecimal(negative, digits, exponent);
  }

  /**
   * {@code digits 10^exponent}, correctly rounded, by Clinger's fast path (see {@link
   * #parseDouble}): for at most 15 digits and |exponent| at most 22.
   */
  private static double exactDecimal(boolean negative, long digits, int exponent) {
    double value;
    if (digits == 0) {
      value = 0;
    } else if (exponent >= 0) {
      value = digits * POWERS_OF_TEN[exponent];
    } else {
      value = digits / POWERS_OF_TEN[-exponent];
    }
    return negative ? -value : value;
  }

  /**
   * Beyond Clinger's fast path: Jackson's own fast parser (FastDoubleParser, correctly rounded),
   * the one the Jackson read uses, on the number's characters.
   */
  private static double slowParse(byte[] in, int from, int to) {
    char[] chars = new char[to - from];
    for (int i = from; i < to; i++) {
      chars[i - from] = (char) in[i];
    }
    return NumberInput.parseDouble(chars, 0, chars.length, true);
  }
}
