package io.ogpm.record;

import io.ogpm.mechanism.random.AesCtrSource;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A seeded generator of hostile records for a configuration with fields {@code a} (classical [0,
 * 10]), {@code nested.b} (circular [-pi, pi]) and an id: truncated JSON, wrong types, NaN and
 * Infinity literals, 1e309, huge numbers and strings, deep nesting, invalid UTF-8, duplicate keys,
 * missing fields, values outside the domain, random bytes. Every sensitive value it writes contains
 * the digit run {@value #MARKER}, so a test can check that no dead letter, message or log line
 * carries one.
 */
public final class HostileInputs {
  /** Digits every sensitive value contains. */
  public static final String MARKER = "7345612";

  public static final String CONFIG_REJECT =
      """
      id-field: id
      passthrough: [id, ts]
      fields:
        - name: a
          min: 0
          max: 10
          epsilon: 1
        - name: nested.b
          domain: circular
          min: -3.141592653589793
          max: 3.141592653589793
          epsilon: 1
      """;

  public static final String CONFIG_CLAMP =
      CONFIG_REJECT.replace("epsilon: 1\n", "epsilon: 1\n    out-of-range: clamp\n");

  private HostileInputs() {}

  /** {@code n} inputs from a seed. */
  public static List<byte[]> generate(long seed, int n) {
    AesCtrSource r = AesCtrSource.seeded(seed);
    List<byte[]> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(one(r, i));
    }
    return out;
  }

  /** A sensitive number: the marker digits after a random prefix, possibly out of range. */
  static String value(AesCtrSource r, boolean outOfRange) {
    int whole = (int) (r.nextUniform() * (outOfRange ? 1000 : 3));
    return (r.nextUniform() < 0.3 ? "-" : "")
        + (outOfRange ? 11 + whole : whole)
        + "."
        + MARKER
        + (int) (r.nextUniform() * 100);
  }

  static String record(String id, String a, String b) {
    StringBuilder s = new StringBuilder("{");
    if (id != null) {
      s.append("\"id\":").append(id).append(',');
    }
    s.append("\"ts\":1700000000000");
    if (a != null) {
      s.append(",\"a\":").append(a);
    }
    if (b != null) {
      s.append(",\"nested\":{\"b\":").append(b).append('}');
    }
    return s.append(",\"secret\":\"").append(MARKER).append("\"}").toString();
  }

  private static byte[] one(AesCtrSource r, int i) {
    String id = "\"r" + i + "\"";
    int kind = (int) (r.nextUniform() * 18);
    String text =
        switch (kind) {
          case 0, 1, 2 -> record(id, value(r, false), value(r, false));
          case 3 -> record(id, value(r, true), value(r, false));
          case 4 -> record(id, value(r, false), value(r, true));
          case 5 -> {
            String full = record(id, value(r, false), value(r, false));
            yield full.substring(0, (int) (r.nextUniform() * full.length()));
          }
          case 6 -> record(id, "\"" + value(r, false) + "\"", value(r, false));
          case 7 ->
              record(
                  id,
                  pick(
                      r,
                      "true",
                      "null",
                      "[" + value(r, false) + "]",
                      "{\"v\":" + value(r, false) + "}"),
                  value(r, false));
          case 8 ->
              record(
                  id,
                  pick(
                      r,
                      "NaN",
                      "Infinity",
                      "-Infinity",
                      "1e309",
                      "-1e309",
                      "1" + MARKER.repeat(80)),
                  value(r, false));
          case 9 -> record(id, value(r, false), null);
          case 10 -> record(null, value(r, false), value(r, false));
          case 11 ->
              "{\"id\":"
                  + id
                  + ",\"a\":"
                  + value(r, false)
                  + ",\"a\":"
                  + value(r, false)
                  + ",\"nested\":{\"b\":0.5}}";
          case 12 -> "{\"a\":" + "[".repeat(2000) + value(r, false) + "]".repeat(2000) + "}";
          case 13 ->
              record(id, value(r, false), value(r, false))
                  .replace("\"ts\"", "\"pad\":\"" + MARKER.repeat(50_000) + "\",\"ts\"");
          case 14 ->
              pick(
                  r,
                  "",
                  " ",
                  "[]",
                  "null",
                  "42." + MARKER,
                  "\"" + MARKER + "\"",
                  "{}",
                  "{\"id\":1}");
          case 15 -> record(id, value(r, false), value(r, false)) + " trailing " + MARKER;
          case 16 -> record("{\"nested\":" + MARKER + "}", value(r, false), value(r, false));
          default -> null;
        };
    if (text != null) {
      return text.getBytes(StandardCharsets.UTF_8);
    }
    // Invalid UTF-8 inside a value, or random bytes.
    byte[] bytes = record(id, value(r, false), value(r, false)).getBytes(StandardCharsets.UTF_8);
    if (r.nextUniform() < 0.5) {
      bytes[bytes.length - 4] = (byte) 0xC3;
      bytes[bytes.length - 3] = (byte) 0x28;
      return bytes;
    }
    byte[] random = new byte[(int) (r.nextUniform() * 200)];
    for (int j = 0; j < random.length; j++) {
      random[j] = (byte) r.nextLong();
    }
    return random;
  }

  private static String pick(AesCtrSource r, String... options) {
    return options[(int) (r.nextUniform() * options.length)];
  }
}
