package io.ogpm.record;

import io.ogpm.mechanism.random.Identifier;
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
 * most {@value JsonNumberReader#MAX_NUMBER} characters, in JSON's grammar; strings of printable
 * ASCII and valid UTF-8 ({@link Utf8}), whose escapes depend on what the string is read for ({@link
 * #TEXT}); nesting at most {@value #MAX_DEPTH} deep; at most {@value #MAX_KEYS} keys per object.
 * Anything else, including every fault, is given up on ({@link NotPlainJson}). In plain JSON the
 * rest follows: a key's bytes are its name's, a number reads as Jackson reads it ({@link
 * JsonNumberReader}), and a passthrough value is written as Jackson writes it back: a string or an
 * integer as its own text (the integer {@code -0} as {@code 0}), a decimal as the double it reads
 * as, in {@link Double#toString}'s form.
 *
 * <p>Why: Jackson's parser, created per record, tokenises every member and canonicalises every
 * name, and its strict reader keeps a hash set per object for duplicate keys; the scanner reads
 * each byte once and allocates nothing (docs/record-path.md has the figures).
 *
 * <p>Records of one source mostly share their structure and differ only in their values, so a
 * record is first {@link #replay replayed} against the last one read in full (its {@link
 * RecordTemplate}): where every byte between its scalar values equals the template's, it is read by
 * reading the values alone.
 *
 * <p>Not thread-safe: one per reader.
 */
final class PlainJsonScanner {
  /** Deepest nesting read here (Jackson accepts {@link RecordPerturber#MAX_NESTING}). */
  static final int MAX_DEPTH = 32;

  /**
   * Most keys of one object read here: duplicates are found by comparing each key with the earlier
   * ones.
   */
  static final int MAX_KEYS = 64;

  /**
   * What a string is read for, which decides the escapes it may hold ({@link #pastEscape}): its
   * text (a key, an id or a user: none, so its bytes are its text), to be carried into the output
   * (those Jackson writes back as they are), or to be dropped (any valid one).
   */
  private static final byte TEXT = 0;

  private static final byte CARRIED = 1;
  private static final byte DROPPED = 2;

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

  /** The structure of the last record read in full, to replay the next one against. */
  private final RecordTemplate template = new RecordTemplate();

  /** The number being read. */
  private final JsonNumberReader number = new JsonNumberReader();

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
    template.startRecording(input.length);
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
      template.keepIfRecordable(input);
      return true;
    } catch (NotPlainJson | ArrayIndexOutOfBoundsException e) {
      // Out of bounds: the input ended inside a value.
      return false;
    } finally {
      in = null;
      template.stopRecording();
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
        if (pos < 0 || RecordTemplate.kind(in[pos]) != template.kind(s)) {
          return false;
        }
        value(template.node(s), values);
      }
      if (template.follows(slots, in, pos) != in.length) {
        return false;
      }
      replays++;
      return true;
    } catch (NotPlainJson | ArrayIndexOutOfBoundsException e) {
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
        template.notRecordable();
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
    if (template.recording() && b != '{' && b != '[') {
      template.slot(in, from, pos, node);
    }
    if (started >= 0) {
      end[started] = captured.size();
      capturing = -1;
    }
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
          throw NotPlainJson.INSTANCE;
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
          throw NotPlainJson.INSTANCE;
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
        throw NotPlainJson.INSTANCE;
      }
    }
    if (keys - first == MAX_KEYS) {
      throw NotPlainJson.INSTANCE;
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
      throw NotPlainJson.INSTANCE;
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
      throw NotPlainJson.INSTANCE;
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
        int end = p + Utf8.sequenceLength(in, p);
        if (end - p == 4 && capturing >= 0) {
          throw NotPlainJson.INSTANCE;
        }
        for (; p < end; p++) {
          h = 31 * h + (in[p] & 0xFF);
        }
      } else if (b == '\\' && use != TEXT) {
        p = pastEscape(p, use);
      } else if (b < 0x20 || b == '\\' || b == 0x7F) {
        throw NotPlainJson.INSTANCE;
      } else {
        h = 31 * h + b;
        p++;
      }
    }
    pos = p + 1;
    return h;
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
      throw NotPlainJson.INSTANCE;
    }
    if (e == '/') {
      return p + 2;
    }
    if (e == 'u') {
      for (int i = p + 2; i < p + 6; i++) {
        if (Character.digit(in[i], 16) < 0) {
          throw NotPlainJson.INSTANCE;
        }
      }
      return p + 6;
    }
    throw NotPlainJson.INSTANCE;
  }

  private void literal(JsonShape.Node node, RecordValues values) {
    int from = pos;
    if (matches("true") || matches("false")) {
      notNumber(node, "boolean", values);
    } else if (!matches("null")) {
      throw NotPlainJson.INSTANCE;
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
   * A number ({@link JsonNumberReader}). A configured field reads it as a double, the id and the
   * user as an integer. Captured, it is written as Jackson writes back what it read: an integer (an
   * int, long or BigInteger) as its own text, -0 as 0; a decimal (a double) as {@link
   * Double#toString} writes the double.
   */
  private void number(JsonShape.Node node, RecordValues values) {
    byte[] in = this.in;
    int from = pos;
    pos = number.scan(in, from);
    int length = pos - from;
    boolean integer = number.integer();
    boolean field = node != null && node.field >= 0;
    if (field || capturing >= 0 && !integer) {
      double value = number.value(in, from, pos);
      if (field) {
        values.number(node.field, value);
      }
      if (capturing >= 0 && !integer) {
        // Jackson writes a decimal back as the double it read, in Double.toString's form, and one
        // beyond a double's range as the string "Infinity": left to Jackson.
        if (Double.isInfinite(value)) {
          throw NotPlainJson.INSTANCE;
        }
        captured.writeDouble(value);
      }
    }
    if (node != null && (node.id || node.user)) {
      Identifier id = integer ? JsonNumberReader.integerIdentifier(in, from, length) : null;
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
}
