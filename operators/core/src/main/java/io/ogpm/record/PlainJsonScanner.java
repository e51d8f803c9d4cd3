package io.ogpm.record;

import com.fasterxml.jackson.core.io.NumberInput;
import io.ogpm.mechanism.random.Identifier;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The first read of {@link JsonRecordReader}: a byte scanner for records in plain JSON, the shape
 * sensor records have. It either reads a record completely, with exactly the values and passthrough
 * bytes Jackson's reading gives, or gives up at the first thing outside plain JSON, and Jackson's
 * strict reader reads the record. It never refuses a record: every dead letter comes from Jackson's
 * strict reader.
 *
 * <p>Plain JSON, where being valid and what each value reads as are simple to decide: numbers of at
 * most {@value #MAX_NUMBER} characters, in JSON's grammar; strings of printable ASCII and valid
 * UTF-8, whose escapes depend on what the string is read for ({@link #TEXT}); nesting at most
 * {@value #MAX_DEPTH} deep; at most {@value #MAX_KEYS} keys per object. Anything else, including
 * every fault, is given up on. In plain JSON the rest follows: a key's bytes are its name's, a
 * number reads as Jackson reads it ({@link #parseDouble}), and a passthrough value is written as
 * Jackson writes it back: a string or an integer as its own text (the integer {@code -0} as {@code
 * 0}), a decimal as the double it reads as, in {@link Double#toString}'s form.
 *
 * <p>Why: Jackson's parser, created per record, tokenises every member and canonicalises every
 * name, and its strict reader keeps a hash set per object for duplicate keys; the scanner reads
 * each byte once and allocates nothing (README, Performance, has the figures).
 *
 * <p>Records of one source mostly share their structure and differ only in their values, so a
 * record is first {@link #replay replayed} against the last one read in full: where every byte
 * between its scalar values equals the template's, it is read by reading the values alone.
 *
 * <p>Not thread-safe: one per reader.
 */
final class PlainJsonScanner {
  /** Longest number read here, in characters (Jackson accepts up to 400). */
  static final int MAX_NUMBER = 24;

  /** Deepest nesting read here (Jackson accepts {@link RecordPerturber#MAX_NESTING}). */
  static final int MAX_DEPTH = 32;

  /**
   * Most keys of one object read here: duplicates are found by comparing each key with the earlier
   * ones.
   */
  static final int MAX_KEYS = 64;

  /** Largest record kept as a template, in bytes: sensor records are a few hundred. */
  static final int MAX_TEMPLATE_BYTES = 4096;

  /** Most scalar values of a template. */
  static final int MAX_SLOTS = 256;

  /** Kinds of scalar values, by their first byte ({@link #kind}); containers have none. */
  private static final byte CONTAINER = 0;

  private static final byte STRING = 1;
  private static final byte NUMBER = 2;
  private static final byte LITERAL = 3;

  /**
   * What a string is read for, which decides the escapes it may hold ({@link #pastEscape}): its
   * text (a key, an id or a user: none, so its bytes are its text), to be carried into the output
   * (those Jackson writes back as they are), or to be dropped (any valid one).
   */
  private static final byte TEXT = 0;

  private static final byte CARRIED = 1;
  private static final byte DROPPED = 2;

  /** Exact powers of ten as doubles: 10^22 is the largest a double holds exactly. */
  private static final double[] POWERS_OF_TEN = new double[23];

  static {
    double p = 1;
    for (int i = 0; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = p;
      p *= 10;
    }
  }

  private final JsonShape shape;
  private final ByteSink captured;
  private final int[] start;
  private final int[] end;
  private final boolean[] present;

  /** The keys of the open objects: where each starts in the input, its length and hash. */
  private int[] keyFrom = new int[MAX_KEYS];

  private int[] keyLength = new int[MAX_KEYS];
  private int[] keyHash = new int[MAX_KEYS];
  private int keys;

  /**
   * Per open object, a bit per key hash modulo 64: a key whose bit is not set yet is no duplicate,
   * so most keys are not compared with the others at all.
   */
  private final long[] hashBits = new long[MAX_DEPTH + 1];

  /**
   * The template: of the last record read in full whose every configured, id, user and passthrough
   * key holds a scalar value ({@link #recordable}), the bytes between its scalar values (slots),
   * and per slot its kind and its key's node. Only structure is kept: keys, brackets, separators
   * and whitespace, never a value.
   */
  private final SlotGaps template = new SlotGaps(MAX_TEMPLATE_BYTES, MAX_SLOTS);

  private byte[] templateKind = new byte[MAX_SLOTS];
  private JsonShape.Node[] templateNode = new JsonShape.Node[MAX_SLOTS];

  /** The slots of the record being read in full, and whether it can become the template. */
  private boolean recording;

  private boolean recordable;
  private int slots;
  private int[] slotStart = new int[MAX_SLOTS];
  private int[] slotEnd = new int[MAX_SLOTS];
  private byte[] slotKind = new byte[MAX_SLOTS];
  private JsonShape.Node[] slotNode = new JsonShape.Node[MAX_SLOTS];

  /** Records read by {@link #replay}. */
  private long replays;

  private byte[] in;
  private int pos;
  private int depth;

  /** The passthrough being captured, or -1. */
  private int capturing;

  PlainJsonScanner(JsonShape shape, ByteSink captured, int[] start, int[] end, boolean[] present) {
    this.shape = shape;
    this.captured = captured;
    this.start = start;
    this.end = end;
    this.present = present;
  }

  /**
   * Reads {@code input} into {@code values} and the passthrough buffer, both cleared by the caller.
   *
   * @return true when the record is a plain JSON object, read completely; false when it is not
   *     plain (then values and buffer are partly written: the caller clears them)
   */
  boolean read(byte[] input, RecordValues values) {
    in = input;
    pos = 0;
    depth = 0;
    keys = 0;
    capturing = -1;
    recording = true;
    recordable = input.length <= MAX_TEMPLATE_BYTES;
    slots = 0;
    try {
      skipWhitespace();
      if (pos >= in.length || in[pos] != '{') {
        return false;
      }
      value(shape.root, values);
      skipWhitespace();
      if (pos != in.length) {
        return false;
      }
      if (recordable) {
        keepAsTemplate(input);
      }
      return true;
    } catch (NotPlain | ArrayIndexOutOfBoundsException e) {
      // Out of bounds: the input ended inside a value.
      return false;
    } finally {
      in = null;
      recording = false;
    }
  }

  /**
   * Reads {@code input} as {@link #read} would, when everything between its scalar values is the
   * template's, byte for byte: then the record's keys, nesting and separators are the template's
   * (the same nodes, no duplicate key, no limit passed), and only the values are read, by the same
   * code as in {@link #read}, which sees the same bytes in the same state. Each value must start as
   * the template's value of its slot did (a string, a number or a literal), so it ends where {@link
   * #read} would end it, and the template's next bytes follow in both reads. No configured, id,
   * user or passthrough key of a template holds an object or array, so nothing is captured outside
   * a slot and nothing is recorded about a container.
   *
   * @return true when read; false when the record differs from the template (or there is none), or
   *     a value is outside plain JSON: then values and buffer may be partly written (the caller
   *     clears them) and {@link #read} decides
   */
  boolean replay(byte[] input, RecordValues values) {
    if (!template.isKept()) {
      return false;
    }
    in = input;
    pos = 0;
    depth = 0;
    keys = 0;
    capturing = -1;
    try {
      int slots = template.slots();
      for (int s = 0; s < slots; s++) {
        pos = template.follows(s, in, pos);
        if (pos < 0 || kind(in[pos]) != templateKind[s]) {
          return false;
        }
        value(templateNode[s], values);
      }
      if (template.follows(slots, in, pos) != in.length) {
        return false;
      }
      replays++;
      return true;
    } catch (NotPlain | ArrayIndexOutOfBoundsException e) {
      return false;
    } finally {
      in = null;
    }
  }

  /** Whether there is a template to {@link #replay}. */
  boolean hasTemplate() {
    return template.isKept();
  }

  /** The template's structure as text, its slots marked {@code <>} (tests: it holds no value). */
  String templateText() {
    return template.text();
  }

  /** How many records {@link #replay} read. */
  long replays() {
    return replays;
  }

  /** The kind of the value starting with {@code b}, as {@link #value} dispatches on it. */
  private static byte kind(byte b) {
    if (b == '"') {
      return STRING;
    }
    if (b == '-' || b >= '0' && b <= '9') {
      return NUMBER;
    }
    return b == '{' || b == '[' ? CONTAINER : LITERAL;
  }

  /**
   * The record just read in full becomes the template: its gaps are kept, its slots' kinds and
   * nodes swapped in.
   */
  private void keepAsTemplate(byte[] input) {
    template.keep(input, slots, slotStart, slotEnd);
    byte[] kinds = templateKind;
    templateKind = slotKind;
    slotKind = kinds;
    JsonShape.Node[] nodes = templateNode;
    templateNode = slotNode;
    slotNode = nodes;
  }

  /**
   * The value at {@code pos}, at the key {@code node} (null: a key the configuration does not
   * name).
   */
  private void value(JsonShape.Node node, RecordValues values) {
    int started = -1;
    if (node != null && node.passthrough >= 0) {
      present[node.passthrough] = true;
      if (capturing < 0) {
        started = capturing = node.passthrough;
        start[started] = captured.size();
      }
    }
    byte b = in[pos];
    int from = pos;
    if (b == '{' || b == '[') {
      if (node != null && (node.field >= 0 || node.id || node.user || node.passthrough >= 0)) {
        // A container a key acts on: it would have to be replayed in full.
        recordable = false;
      }
      if (b == '{') {
        notNumber(node, "object", values);
        object(node, values);
      } else {
        notNumber(node, "array", values);
        array(values);
      }
    } else if (b == '"') {
      boolean named = node != null && (node.id || node.user);
      skipString(named ? TEXT : capturing >= 0 ? CARRIED : DROPPED);
      if (node != null) {
        notNumber(node, "string", values);
        Identifier text =
            named
                ? Identifier.string(
                    new String(in, from + 1, pos - from - 2, StandardCharsets.UTF_8))
                : null;
        if (node.id) {
          values.id(text);
        }
        if (node.user) {
          values.user(text);
        }
      }
      capture(from, pos);
    } else if (b == '-' || b >= '0' && b <= '9') {
      number(node, values);
    } else {
      literal(node, values);
    }
    if (recording && b != '{' && b != '[') {
      slot(from, node);
    }
    if (started >= 0) {
      end[started] = captured.size();
      capturing = -1;
    }
  }

  /** Records the scalar value at [from, pos) of the record being read in full. */
  private void slot(int from, JsonShape.Node node) {
    if (slots == MAX_SLOTS) {
      recordable = false;
      return;
    }
    slotStart[slots] = from;
    slotEnd[slots] = pos;
    slotKind[slots] = kind(in[from]);
    slotNode[slots++] = node;
  }

  /**
   * For a configured field holding something else than a number. (An id or user of another type
   * stays none, as the record starts: a key is read once, a second one is a duplicate.)
   */
  private static void notNumber(JsonShape.Node node, String jsonType, RecordValues values) {
    if (node != null && node.field >= 0) {
      values.notANumber(node.field, jsonType);
    }
  }

  private void object(JsonShape.Node node, RecordValues values) {
    int first = keys;
    if (open('{', '}')) {
      hashBits[depth] = 0;
      do {
        if (in[pos] != '"') {
          throw NotPlain.INSTANCE;
        }
        int from = pos + 1;
        int hash = skipString(TEXT);
        int length = pos - 1 - from;
        addKey(first, from, length, hash);
        if (keys - first > 1) {
          captureByte(',');
        }
        capture(from - 1, pos);
        skipWhitespace();
        if (in[pos] != ':') {
          throw NotPlain.INSTANCE;
        }
        pos++;
        captureByte(':');
        skipWhitespace();
        value(node == null ? null : node.child(in, from, length, hash), values);
      } while (next('}'));
    }
    keys = first;
    close('}');
  }

  /**
   * A key of the innermost object, whose keys start at {@code first}: refused if it is there
   * already.
   */
  private void addKey(int first, int from, int length, int hash) {
    long bit = 1L << hash;
    boolean seen = (hashBits[depth] & bit) != 0;
    hashBits[depth] |= bit;
    for (int k = seen ? first : keys; k < keys; k++) {
      if (keyHash[k] == hash
          && keyLength[k] == length
          && Arrays.equals(in, keyFrom[k], keyFrom[k] + length, in, from, from + length)) {
        throw NotPlain.INSTANCE;
      }
    }
    if (keys - first == MAX_KEYS) {
      throw NotPlain.INSTANCE;
    }
    if (keys == keyFrom.length) {
      keyFrom = Arrays.copyOf(keyFrom, keys * 2);
      keyLength = Arrays.copyOf(keyLength, keys * 2);
      keyHash = Arrays.copyOf(keyHash, keys * 2);
    }
    keyFrom[keys] = from;
    keyLength[keys] = length;
    keyHash[keys++] = hash;
  }

  /** An array: nothing configured lies inside one. */
  private void array(RecordValues values) {
    if (open('[', ']')) {
      value(null, values);
      while (next(']')) {
        captureByte(',');
        value(null, values);
      }
    }
    close(']');
  }

  /**
   * Past the opening bracket at {@code pos}, one level deeper, and the whitespace after it.
   *
   * @return false for an empty object or array (then past its closing bracket too)
   */
  private boolean open(char opening, char closing) {
    if (++depth > MAX_DEPTH) {
      throw NotPlain.INSTANCE;
    }
    pos++;
    captureByte(opening);
    skipWhitespace();
    if (in[pos] == closing) {
      pos++;
      return false;
    }
    return true;
  }

  /**
   * After a member or item: true past the comma (and whitespace) before the next one, false past
   * the closing bracket.
   */
  private boolean next(char closing) {
    skipWhitespace();
    byte b = in[pos++];
    if (b == closing) {
      return false;
    }
    if (b != ',') {
      throw NotPlain.INSTANCE;
    }
    skipWhitespace();
    return true;
  }

  /** The object or array has ended: one level up. */
  private void close(char closing) {
    depth--;
    captureByte(closing);
  }

  /**
   * Past a string, from its opening quote; returns its {@link #hash} (what a key is looked up and
   * compared by), computed on the way. Printable ASCII is read here; the first other byte hands the
   * rest of the string to {@link #restOfString}.
   *
   * @param use {@link #TEXT}, {@link #CARRIED} or {@link #DROPPED}: which escapes are read
   */
  private int skipString(byte use) {
    byte[] in = this.in;
    int p = pos + 1;
    int h = 0;
    byte b;
    while ((b = in[p]) != '"') {
      if (b < 0x20 || b == '\\' || b == 0x7F) {
        // Also b < 0: a byte of a multi-byte UTF-8 sequence.
        return restOfString(p, h, use);
      }
      h = 31 * h + b;
      p++;
    }
    pos = p + 1;
    return h;
  }

  /**
   * The rest of a string from {@code p}, with its hash so far. UTF-8 is read only where it is valid
   * (RFC 3629: shortest form, no surrogates, at most U+10FFFF), so the bytes are the text's one
   * encoding and Jackson writes them back as they are; except a character beyond U+FFFF, which
   * Jackson writes back as two escapes: not read in a captured value. Escapes as {@link
   * #pastEscape} reads them for the string's use. Anything else (a control character, DEL) is given
   * up on.
   */
  private int restOfString(int p, int hash, byte use) {
    byte[] in = this.in;
    int h = hash;
    int b;
    while ((b = in[p] & 0xFF) != '"') {
      if (b >= 0x80) {
        int end = p + utf8Length(p);
        if (end - p == 4 && capturing >= 0) {
          throw NotPlain.INSTANCE;
        }
        for (; p < end; p++) {
          h = 31 * h + (in[p] & 0xFF);
        }
      } else if (b == '\\' && use != TEXT) {
        p = pastEscape(p, use);
      } else if (b < 0x20 || b == '\\' || b == 0x7F) {
        throw NotPlain.INSTANCE;
      } else {
        h = 31 * h + b;
        p++;
      }
    }
    pos = p + 1;
    return h;
  }

  /**
   * The length of the valid UTF-8 sequence at {@code p} (RFC 3629, table 4), whose first byte is
   * not ASCII.
   */
  private int utf8Length(int p) {
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
      throw NotPlain.INSTANCE;
    }
    int second = in[p + 1] & 0xFF;
    if (second < low || second > high) {
      throw NotPlain.INSTANCE;
    }
    for (int i = 2; i < length; i++) {
      if ((in[p + i] & 0xC0) != 0x80) {
        throw NotPlain.INSTANCE;
      }
    }
    return length;
  }

  /**
   * Past the escape at {@code p} (its backslash). In a carried string only those Jackson writes
   * back as they are: {@code \"}, {@code \\} and the short escapes of {@code b f n r t} (Jackson
   * writes {@code \/} as {@code /}, and a {@code \}{@code u} escape as the character or a short
   * escape). In a dropped string any of JSON's: also {@code \/} and a {@code u} with four hex
   * digits.
   */
  private int pastEscape(int p, byte use) {
    byte e = in[p + 1];
    if (e == '"' || e == '\\' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
      return p + 2;
    }
    if (use != DROPPED) {
      throw NotPlain.INSTANCE;
    }
    if (e == '/') {
      return p + 2;
    }
    if (e == 'u') {
      for (int i = p + 2; i < p + 6; i++) {
        if (Character.digit(in[i], 16) < 0) {
          throw NotPlain.INSTANCE;
        }
      }
      return p + 6;
    }
    throw NotPlain.INSTANCE;
  }

  private void literal(JsonShape.Node node, RecordValues values) {
    int from = pos;
    if (matches("true") || matches("false")) {
      notNumber(node, "boolean", values);
    } else if (!matches("null")) {
      throw NotPlain.INSTANCE;
    }
    // (null: a configured field holding it is missing, as in the Jackson read.)
    capture(from, pos);
  }

  private boolean matches(String word) {
    int n = word.length();
    if (pos + n > in.length) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (in[pos + i] != word.charAt(i)) {
        return false;
      }
    }
    pos += n;
    return true;
  }

  /**
   * A number in JSON's grammar: {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?}. A
   * configured field reads it as a double, the id and the user as an integer. Captured, it is
   * written as Jackson writes back what it read: an integer (an int, long or BigInteger) as its own
   * text, -0 as 0; a decimal (a double) as {@link Double#toString} writes the double.
   */
  private void number(JsonShape.Node node, RecordValues values) {
    byte[] in = this.in;
    int from = pos;
    int p = from;
    if (in[p] == '-') {
      p++;
    }
    // The digits are read as parseDouble reads them, on the way: their value (exact up to 15 of
    // them), how many (leading zeros too) and how many come before the point.
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
      throw NotPlain.INSTANCE;
    }
    boolean integer = true;
    if (p < in.length && in[p] == '.') {
      integer = false;
      p++;
      point = count;
      while (p < in.length && (b = in[p]) >= '0' && b <= '9') {
        digits = 10 * digits + (b - '0');
        count++;
        p++;
      }
      if (count == point) {
        throw NotPlain.INSTANCE;
      }
    }
    boolean exponent = p < in.length && (in[p] == 'e' || in[p] == 'E');
    pos = p;
    if (exponent) {
      integer = false;
      pos++;
      if (in[pos] == '+' || in[pos] == '-') {
        pos++;
      }
      requireDigits();
    }
    int length = pos - from;
    if (length > MAX_NUMBER) {
      throw NotPlain.INSTANCE;
    }
    boolean field = node != null && node.field >= 0;
    if (field || capturing >= 0 && !integer) {
      // (The integer -0 is Jackson's int 0, read here as -0.0: the plan perturbs both as +0.0.)
      double value =
          exponent || count > 15
              ? parseDouble(in, from, pos)
              : exactDecimal(in[from] == '-', digits, point < 0 ? 0 : point - count);
      if (field) {
        values.number(node.field, value);
      }
      if (capturing >= 0 && !integer) {
        // Jackson writes a decimal back as the double it read, in Double.toString's form, and one
        // beyond a double's range as the string "Infinity": left to Jackson.
        if (Double.isInfinite(value)) {
          throw NotPlain.INSTANCE;
        }
        captured.writeDouble(value);
      }
    }
    if (node != null && (node.id || node.user)) {
      Identifier id = integer ? integer(from, length) : null;
      if (node.id && id != null) {
        values.id(id);
      }
      if (node.user && id != null) {
        values.user(id);
      }
    }
    if (capturing >= 0 && integer) {
      if (length == 2 && in[from] == '-' && in[from + 1] == '0') {
        // -0, which Jackson reads as the int 0.
        captured.write('0');
      } else {
        captured.write(in, from, length);
      }
    }
  }

  /**
   * An integer id or user: one of at most 18 digits is a long; a longer one (at most {@value
   * #MAX_NUMBER} characters) a BigInteger, the same identifier as Jackson's long or BigInteger.
   */
  private Identifier integer(int from, int length) {
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
   * Past the digits at {@code pos} (locals in the loop: the fields would be stored on every step).
   */
  private void skipDigits() {
    byte[] in = this.in;
    int p = pos;
    while (p < in.length && in[p] >= '0' && in[p] <= '9') {
      p++;
    }
    pos = p;
  }

  private void requireDigits() {
    int from = pos;
    skipDigits();
    if (pos == from) {
      throw NotPlain.INSTANCE;
    }
  }

  private void skipWhitespace() {
    byte[] in = this.in;
    int p = pos;
    while (p < in.length) {
      byte b = in[p];
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        break;
      }
      p++;
    }
    pos = p;
  }

  private void capture(int from, int to) {
    if (capturing >= 0) {
      captured.write(in, from, to - from);
    }
  }

  private void captureByte(char c) {
    if (capturing >= 0) {
      captured.write(c);
    }
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

  /**
   * {@link String#hashCode} of the ASCII text of these bytes (of any bytes: used alike on both
   * sides).
   */
  static int hash(byte[] in, int from, int length) {
    int h = 0;
    for (int i = from; i < from + length; i++) {
      h = 31 * h + (in[i] & 0xFF);
    }
    return h;
  }

  /** Outside plain JSON: Jackson reads the record. */
  private static final class NotPlain extends RuntimeException {
    static final NotPlain INSTANCE = new NotPlain();

    private NotPlain() {
      super("not plain JSON", null, false, false);
    }
  }
}
