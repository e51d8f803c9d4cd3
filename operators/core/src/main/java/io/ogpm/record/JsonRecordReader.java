package io.ogpm.record;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.ogpm.mechanism.random.Identifier;
import java.io.IOException;
import java.util.Arrays;

/**
 * Reads one JSON record (see {@link #read}): the configured values into a {@link RecordValues}, the
 * passthrough values into a reusable buffer, as JSON. Keys off the {@link JsonShape} are skipped,
 * but every byte of the record is still read, so the whole record is checked: syntax, duplicate
 * keys at any depth, trailing data, nesting and number limits (the factory's), NaN and Infinity
 * literals.
 *
 * <p>Passthrough values are written as Jackson's tree model writes them back (numbers in the
 * canonical form of their parsed type, strings re-escaped), so outputs are byte-identical to the
 * tree-based reference ({@link RecordPerturber}).
 *
 * <p>Not thread-safe: one per perturber.
 */
final class JsonRecordReader {
  /** Jackson's strict reader: the reference for every record the scanner does not read. */
  private final JsonFactory strict;

  private final JsonShape shape;
  private final int maxBytes;

  /** Passthrough values, back to back, each as JSON. */
  private final ByteSink captured = new ByteSink();

  private final int[] start;
  private final int[] end;
  private final boolean[] present;

  /** The first read, for records in plain JSON. */
  private final PlainJsonScanner plain;

  /** Records read by the plain scanner, for {@link #plainReads()}. */
  private long plainReads;

  /** Records read by {@link #readStrict}, for {@link #strictReads()}. */
  private long strictReads;

  private JsonGenerator capture;

  /** The passthrough being captured, or -1. */
  private int capturing = -1;

  /**
   * @param strict a factory with {@code STRICT_DUPLICATE_DETECTION}
   */
  JsonRecordReader(JsonFactory strict, JsonShape shape, int maxBytes) {
    this.strict = strict;
    this.shape = shape;
    this.maxBytes = maxBytes;
    start = new int[shape.passthroughs];
    end = new int[shape.passthroughs];
    present = new boolean[shape.passthroughs];
    plain = new PlainJsonScanner(shape, captured, start, end, present);
  }

  /**
   * Reads a record into {@code values} (cleared first) and the passthrough buffer.
   *
   * <p>Two reads, the second only for records the first does not take: the {@link PlainJsonScanner}
   * (first as a replay of the last record it read, see {@link PlainJsonScanner#replay}), for
   * records in plain JSON (sensor records: short numbers, strings that need no unescaping), which
   * reads them as Jackson would; then, for anything else, Jackson's strict reader, which reads the
   * valid records the scanner leaves and decides every dead letter, as the tree-based reference
   * does (the first fault in the text, its position, its wording).
   *
   * @return null for a JSON object, else why the record is refused
   */
  DeadLetter read(byte[] input, RecordValues values, Source source) {
    clear(values);
    if (input == null) {
      return malformed("the record is empty", source);
    }
    if (input.length > maxBytes) {
      return new DeadLetter(
          ReasonCode.TOO_LARGE,
          null,
          "the record has " + input.length + " bytes, more than " + maxBytes,
          source);
    }
    if (!looksLikeUtf8(input)) {
      return malformed("not valid JSON (not UTF-8)", source);
    }
    if (plain.replay(input, values)) {
      plainReads++;
      return null;
    }
    if (plain.hasTemplate()) {
      // The replay may have written part of the record.
      clear(values);
    }
    if (plain.read(input, values)) {
      plainReads++;
      return null;
    }
    clear(values);
    return readStrict(input, values, source);
  }

  private void clear(RecordValues values) {
    values.clear();
    Arrays.fill(present, false);
    Arrays.fill(end, -1);
    captured.reset();
  }

  /**
   * The read as Jackson's strict parser decides it; every refused record's dead letter comes from
   * here.
   */
  private DeadLetter readStrict(byte[] input, RecordValues values, Source source) {
    strictReads++;
    JsonToken first;
    try (JsonParser p = strict.createParser(input)) {
      if (capture == null) {
        capture = strict.createGenerator(captured);
      }
      first = p.nextToken();
      if (first == null) {
        return malformed("the record is empty", source);
      }
      if (first == JsonToken.START_OBJECT) {
        value(p, first, shape.root, values);
      } else if (first.isStructStart()) {
        p.skipChildren();
      }
      if (p.nextToken() != null) {
        // What the tree reader reported: trailing data, at the token that follows the record.
        return malformed("not valid JSON" + where(p.currentTokenLocation()), source);
      }
    } catch (StreamConstraintsException e) {
      // Jackson's message is the only thing that tells nesting from its other limits (a number's
      // or a string's length), which stay malformed JSON.
      if (e.getOriginalMessage() != null
          && e.getOriginalMessage().startsWith("Document nesting depth")) {
        return abandon(
            new DeadLetter(
                ReasonCode.TOO_DEEP,
                null,
                "the record nests deeper than "
                    + RecordPerturber.MAX_NESTING
                    + " levels"
                    + where(e.getLocation()),
                source));
      }
      return abandon(malformed("not valid JSON" + where(e.getLocation()), source));
    } catch (JsonProcessingException e) {
      return abandon(malformed("not valid JSON" + where(e.getLocation()), source));
    } catch (IOException | RuntimeException e) {
      return abandon(malformed("not valid JSON (unreadable input)", source));
    }
    if (first != JsonToken.START_OBJECT) {
      return new DeadLetter(
          ReasonCode.NOT_AN_OBJECT,
          null,
          "the record is a JSON " + typeName(first) + ", not an object",
          source);
    }
    return null;
  }

  /** How many records the plain scanner read (the rest Jackson's strict reader read). */
  long plainReads() {
    return plainReads;
  }

  /** How many records the plain scanner read as a replay of an earlier one's structure. */
  long replays() {
    return plain.replays();
  }

  /**
   * How many records the strict reader read: the refused ones, and the valid ones outside plain
   * JSON. A valid record read twice costs about twice as much, with the same outcome, so only this
   * count shows it.
   */
  long strictReads() {
    return strictReads;
  }

  /**
   * Whether passthrough j is in the record (also when it sits inside another passthrough value).
   */
  boolean present(int j) {
    return present[j];
  }

  /** Whether passthrough j's own value was captured (not inside another passthrough value). */
  boolean captured(int j) {
    return end[j] >= 0;
  }

  /** Appends passthrough j's value, as JSON. */
  void writeCaptured(int j, ByteSink out) {
    out.write(captured, start[j], end[j]);
  }

  /**
   * Reads the value at the current token {@code t}, which is at the key {@code node} (null: a key
   * the configuration does not name): records what the node stands for, captures it if it is a
   * passthrough value, descends into it if configured names lie below, skips it otherwise.
   */
  private void value(JsonParser p, JsonToken t, JsonShape.Node node, RecordValues values)
      throws IOException {
    int started = -1;
    if (node != null) {
      if (node.passthrough >= 0) {
        present[node.passthrough] = true;
        if (capturing < 0) {
          started = capturing = node.passthrough;
          start[started] = captured.size();
        }
      }
      if (node.field >= 0) {
        field(p, t, node.field, values);
      }
      if (node.id) {
        values.id(identifier(p, t));
      }
      if (node.user) {
        values.user(identifier(p, t));
      }
    }
    if (t == JsonToken.START_OBJECT && node != null && node.hasChildren()) {
      if (capturing >= 0) {
        capture.writeStartObject();
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        if (capturing >= 0) {
          capture.writeFieldName(key);
        }
        value(p, p.nextToken(), node.child(key), values);
      }
      if (capturing >= 0) {
        capture.writeEndObject();
      }
    } else if (capturing >= 0) {
      capture.copyCurrentStructure(p);
    } else {
      p.skipChildren();
    }
    if (started >= 0) {
      capture.flush();
      end[started] = captured.size();
      capturing = -1;
    }
  }

  private static void field(JsonParser p, JsonToken t, int index, RecordValues values)
      throws IOException {
    if (t.isNumeric()) {
      values.number(index, p.getDoubleValue());
    } else if (t != JsonToken.VALUE_NULL) {
      values.notANumber(index, typeName(t));
    }
  }

  /**
   * A JSON string or integer as a typed identifier (the string "5" and the integer 5 differ; the
   * integers -0 and 0 are one value); null for anything else, including numbers with a fraction or
   * an exponent such as 5.0.
   */
  private static Identifier identifier(JsonParser p, JsonToken t) throws IOException {
    if (t == JsonToken.VALUE_STRING) {
      return Identifier.string(p.getText());
    }
    if (t == JsonToken.VALUE_NUMBER_INT) {
      return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
          ? Identifier.integer(p.getBigIntegerValue())
          : Identifier.integer(p.getLongValue());
    }
    return null;
  }

  /** The JSON type of a value's first token, as the dead letters name it. */
  static String typeName(JsonToken t) {
    return switch (t) {
      case START_OBJECT -> "object";
      case START_ARRAY -> "array";
      case VALUE_STRING -> "string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number";
      case VALUE_TRUE, VALUE_FALSE -> "boolean";
      case VALUE_NULL -> "null";
      default -> throw new IllegalStateException("not the start of a value: " + t);
    };
  }

  /**
   * After a failure a capture may be half written: the generator is dropped, the next record starts
   * a new one.
   */
  private DeadLetter abandon(DeadLetter d) {
    capture = null;
    capturing = -1;
    return d;
  }

  /**
   * False for the byte patterns by which the JSON reader would detect UTF-16 or UTF-32 (a NUL in
   * the first four bytes, or a UTF-16/32 byte-order mark): records are UTF-8 (RFC 8259), and a
   * reader that guessed another encoding would accept input this class promises to refuse. A NUL or
   * a 0xFE/0xFF byte never starts a UTF-8 JSON text.
   */
  static boolean looksLikeUtf8(byte[] input) {
    if (input.length > 0 && (input[0] == (byte) 0xFE || input[0] == (byte) 0xFF)) {
      return false;
    }
    for (int i = 0; i < Math.min(4, input.length); i++) {
      if (input[i] == 0) {
        return false;
      }
    }
    return true;
  }

  private static String where(JsonLocation location) {
    if (location == null || location.getLineNr() < 0) {
      return "";
    }
    return " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
  }

  private static DeadLetter malformed(String message, Source source) {
    return new DeadLetter(ReasonCode.MALFORMED_JSON, null, message, source);
  }
}
