package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.RandomnessMode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The values the scanner reads in passthrough and dropped values, and the faults it must still
 * leave to Jackson there: every JSON number form, UTF-8 at each boundary of its validity, escapes,
 * duplicate keys and deep nesting. Each record ends as the tree-based perturber ends it, byte for
 * byte ({@link StreamingEquivalenceTest#assertSameOutcomes}), and is read by the read it should be:
 * the scanner, or Jackson's strict reader after the scanner gave up.
 */
class ScannerEquivalenceTest {
  static final String SHAPES = StreamingEquivalenceTest.SHAPES;

  /** An id and a user that are not passed through. */
  static final String IDS =
      """
      id-field: id
      user-field: u
      passthrough: [ts]
      fields:
        - {name: accel_x, min: -2, max: 2, epsilon: 1}
      """;

  static final String VALID =
      "\"accel_x\":0.5,\"attitude\":{\"roll\":1.0},\"deep\":{\"er\":{\"value\":0.25}},\"meta\":{\"id\":\"r\",\"user\":7}";

  /** A number, and whether the scanner reads a record that passes it through. */
  record Form(String number, boolean scanned) {}

  static final List<Form> NUMBER_FORMS =
      List.of(
          new Form("0", true),
          new Form("-0", true),
          new Form("7", true),
          new Form("-7", true),
          new Form("123456789012345678901234", true),
          // 2^64 and 2^65: their digits overflow a long to 0.
          new Form("18446744073709551616", true),
          new Form("-36893488147419103232", true),
          new Form("-12345678901234567890123", true),
          new Form("1234567890123456789012345", false),
          new Form("0.0", true),
          new Form("-0.0", true),
          new Form("1.50", true),
          new Form("0.1", true),
          new Form("-2.5", true),
          new Form("3.14159265358979323846", true),
          new Form("123456789012345678901.5", true),
          new Form("12345678901234567890123.5", false),
          new Form("1e2", true),
          new Form("1E2", true),
          new Form("1e+2", true),
          new Form("1E-2", true),
          new Form("-1.25e-7", true),
          new Form("0e0", true),
          new Form("-0e-0", true),
          new Form("0.001", true),
          new Form("0.0009999", true),
          new Form("9999999.999999999", true),
          new Form("1e7", true),
          new Form("1e22", true),
          new Form("1e23", true),
          new Form("4.9e-324", true),
          new Form("2e-324", true),
          new Form("1e-400", true),
          new Form("-1e-400", true),
          new Form("1.7976931348623157e308", true),
          // Beyond a double: Jackson writes the string "Infinity".
          new Form("1.7976931348623159e308", false),
          new Form("1e309", false),
          new Form("-1e309", false));

  /**
   * Each number passed through on its own ({@code ts}, {@code gps.lat}), inside passthrough objects
   * and arrays at several depths ({@code a}, {@code z}, {@code meta}); under another configuration
   * in records of scalar passthrough values, each after the last a replay when both are scanned;
   * and as an id and a user, which are not passed through (an integer is one, a decimal none).
   */
  @Test
  void everyNumberFormIsPassedThroughAsTheReference() {
    List<Scanned> nested = new ArrayList<>();
    List<Scanned> scalars = new ArrayList<>();
    List<Scanned> ids = new ArrayList<>();
    for (Form f : NUMBER_FORMS) {
      String n = f.number();
      nested.add(
          new Scanned(
              "{"
                  + VALID.replace("\"user\":7}", "\"user\":7,\"n\":[" + n + "]}")
                  + ",\"ts\":"
                  + n
                  + ",\"gps\":{\"lat\":"
                  + n
                  + "},\"a\":{\"b\":["
                  + n
                  + ",{\"c\":"
                  + n
                  + ",\"d\":[["
                  + n
                  + "],{}]}],\"e\":"
                  + n
                  + "},\"z\":["
                  + n
                  + ","
                  + n
                  + "]}",
              f.scanned()));
      scalars.add(
          new Scanned(
              "{\"id\":\"r1\",\"ts\":"
                  + n
                  + ",\"activity\":"
                  + n
                  + ",\"accel_x\":0.25,\"attitude\":{\"roll\":1.5}}",
              f.scanned()));
      ids.add(
          new Scanned(
              "{\"accel_x\":0.5,\"id\":" + n + ",\"u\":" + n + "}",
              n.length() <= JsonNumberReader.MAX_NUMBER));
    }
    check(SHAPES, nested);
    RecordPerturber p = check(ReadOnceTest.YAML, scalars);
    long scanned = NUMBER_FORMS.stream().filter(Form::scanned).count();
    // The first record is read in full and becomes the template; every other scanned one is a
    // replay.
    assertThat(p.replays()).isEqualTo(scanned - 1);
    check(IDS, ids);
  }

  /**
   * UTF-8 sequences at the edges of RFC 3629's table 4, and a byte each way past them: the valid
   * ones (shortest form, no surrogate, at most U+10FFFF) are read by the scanner wherever they
   * stand, except a character beyond U+FFFF in a passthrough value (Jackson writes it back as two
   * escapes); the others are left to Jackson, which takes some of them.
   */
  record Utf8(String hex, boolean valid) {}

  static final List<Utf8> UTF8 =
      List.of(
          new Utf8("C2 80", true),
          new Utf8("DF BF", true),
          new Utf8("E0 A0 80", true),
          new Utf8("E1 80 80", true),
          new Utf8("EC BF BF", true),
          new Utf8("ED 80 80", true),
          new Utf8("ED 9F BF", true),
          new Utf8("EE 80 80", true),
          new Utf8("EF BF BF", true),
          new Utf8("F0 90 80 80", true),
          new Utf8("F1 80 80 80", true),
          new Utf8("F3 BF BF BF", true),
          new Utf8("F4 80 80 80", true),
          new Utf8("F4 8F BF BF", true),
          new Utf8("80", false),
          new Utf8("BF", false),
          new Utf8("C0 80", false),
          new Utf8("C1 BF", false),
          new Utf8("C2 7F", false),
          new Utf8("C2 C0", false),
          new Utf8("E0 80 80", false),
          new Utf8("E0 9F BF", false),
          new Utf8("ED A0 80", false),
          new Utf8("ED BF BF", false),
          new Utf8("E1 7F 80", false),
          new Utf8("E1 80 C0", false),
          new Utf8("F0 80 80 80", false),
          new Utf8("F0 8F BF BF", false),
          new Utf8("F1 80 80 C0", false),
          new Utf8("F4 90 80 80", false),
          new Utf8("F5 80 80 80", false),
          new Utf8("F8 80 80 80", false),
          new Utf8("FF", false),
          new Utf8("E1 80", false),
          new Utf8("F1 80 80", false));

  @Test
  void utf8IsReadWhereValid() {
    List<Scanned> shapes = new ArrayList<>();
    List<Scanned> ids = new ArrayList<>();
    String[] id = ("{" + VALID + "}").split("\"r\"");
    for (Utf8 u : UTF8) {
      byte[] s = HexFormat.ofDelimiter(" ").parseHex(u.hex());
      boolean valid = u.valid();
      boolean beyondBmp = s.length == 4;
      // In a dropped value, in a dropped key, in a passthrough value, in a key inside one, in an
      // id inside one; in an id, in a user.
      shapes.add(new Scanned(join("{" + VALID + ",\"x\":\"a", s, "b\"}"), valid));
      shapes.add(new Scanned(join("{" + VALID + ",\"x\":{\"a", s, "\":1}}"), valid));
      shapes.add(new Scanned(join("{" + VALID + ",\"ts\":\"a", s, "\"}"), valid && !beyondBmp));
      shapes.add(new Scanned(join("{" + VALID + ",\"a\":{\"k", s, "\":1}}"), valid && !beyondBmp));
      shapes.add(new Scanned(join(id[0] + "\"r", s, "\"" + id[1]), valid && !beyondBmp));
      ids.add(new Scanned(join("{\"accel_x\":0.5,\"id\":\"r", s, "\",\"u\":\"u\"}"), valid));
      ids.add(new Scanned(join("{\"accel_x\":0.5,\"id\":\"r\",\"u\":\"u", s, "\"}"), valid));
    }
    check(SHAPES, shapes);
    check(IDS, ids);
  }

  /**
   * Escapes: any valid one in a dropped string; in a passthrough string those Jackson writes back
   * as they are; none in a key, an id or a user (their text is needed).
   */
  @Test
  void escapesAreReadWhereTheTextIsNotNeeded() {
    check(
        SHAPES,
        List.of(
            new Scanned(
                "{" + VALID + ",\"x\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD834\\uDD1E\\ud800\"}",
                true),
            new Scanned("{" + VALID + ",\"x\":[\"\\u0000\",{\"y\":\"\\uFFFF\"}]}", true),
            new Scanned("{" + VALID + ",\"ts\":\"\\\"\\\\\\b\\f\\n\\r\\t\"}", true),
            new Scanned("{" + VALID + ",\"a\":{\"b\":[\"x\\ny\"]}}", true),
            new Scanned("{" + VALID + ",\"ts\":\"a\\/b\"}", false),
            new Scanned("{" + VALID + ",\"ts\":\"\\u0041\"}", false),
            new Scanned("{" + VALID + ",\"ts\":\"\\u000a\"}", false),
            new Scanned("{" + VALID + ",\"z\":[\"\\u001f\"]}", false),
            new Scanned("{" + VALID.replace("\"r\"", "\"r\\n\"") + "}", false),
            new Scanned("{" + VALID.replace("7", "\"\\u0041\"") + "}", false),
            new Scanned("{" + VALID + ",\"x\":{\"a\\nb\":1}}", false),
            new Scanned("{" + VALID + ",\"t\\u0073\":1}", false),
            new Scanned("{" + VALID + ",\"x\":\"\\x\"}", false),
            new Scanned("{" + VALID + ",\"x\":\"\\u12G4\"}", false),
            new Scanned("{" + VALID + ",\"x\":\"\\u12\"}", false),
            new Scanned("{" + VALID + ",\"x\":\"\\", false),
            new Scanned("{" + VALID + ",\"x\":\"a\u007fb\"}", false),
            new Scanned("{" + VALID + ",\"x\":\"a\u001fb\"}", false)));
  }

  /**
   * Duplicate keys in values the scanner reads (passthrough values holding decimals, objects after
   * strings with escapes or UTF-8, keys in UTF-8, deep inside a passthrough value, late in a large
   * object): each record is refused with the tree-based reference's dead letter, and the same keys
   * in sibling objects are not duplicates.
   */
  @Test
  void duplicateKeysInValuesTheScannerReadsAreRefusedAsTheReference() {
    String deep = "[".repeat(25);
    String deepEnd = "]".repeat(25);
    StringBuilder large = new StringBuilder("{\"q\":0.5");
    for (int k = 0; k < 40; k++) {
      large.append(",\"k").append(k).append("\":").append(k).append(".5");
    }
    List<String> duplicated =
        List.of(
            "{" + VALID + ",\"a\":{\"b\":1.5,\"b\":2.5}}",
            "{" + VALID + ",\"a\":{\"q\":[0.5,{\"p\":1e-3,\"p\":2e-3}]}}",
            "{" + VALID + ",\"z\":[{\"v\":-0.0},{\"v\":1.5,\"w\":2.5,\"v\":3.5}]}",
            "{" + VALID + ",\"ts\":1.5,\"ts\":2.5}",
            "{" + VALID + ",\"gps\":{\"lat\":1.5,\"lat\":1.5}}",
            "{" + VALID.replace("\"user\":7", "\"user\":7,\"n\":0.5,\"n\":0.5") + "}",
            "{" + VALID + ",\"x\":\"\\u00e9\\n\",\"x\":1}",
            "{" + VALID + ",\"x\":{\"s\":\"\u00e9\u20ac\",\"s\":1}}",
            "{" + VALID + ",\"\u00e9\":1.5,\"\u00e9\":2.5}",
            "{" + VALID + ",\"x\":{\"\u00e9\":\"\u20ac\",\"\u20ac\":1,\"\u00e9\":2}}",
            "{" + VALID + ",\"x\":{\"\ud83d\ude00\":1,\"\ud83d\ude00\":2}}",
            "{" + VALID + ",\"\u00e9\":1,\"\\u00e9\":2}",
            "{" + VALID + ",\"a\":" + deep + "{\"k\":1.5,\"k\":1.5}" + deepEnd + "}",
            "{" + VALID + ",\"a\":" + large + ",\"k39\":1.5}}",
            "{" + VALID + ",\"a\":" + large + ",\"q\":1}}");
    List<String> distinct =
        List.of(
            "{" + VALID + ",\"a\":{\"b\":1.5,\"c\":{\"b\":2.5},\"d\":[{\"b\":0.5},{\"b\":0.5}]}}",
            "{"
                + VALID
                + ",\"x\":{\"\u00e9\":\"\u20ac\",\"\u20ac\":1,\"e\":2},\"\u00e9\":{\"\u00e9\":0.5}}",
            "{" + VALID + ",\"a\":" + deep + "{\"k\":1.5,\"l\":{\"k\":1.5}}" + deepEnd + "}",
            "{" + VALID + ",\"a\":" + large + "},\"z\":" + large + "}}");
    List<byte[]> inputs = new ArrayList<>();
    for (String r : duplicated) {
      inputs.add(bytes(r));
      // Each after a valid record of another structure, which the scanner may have kept as its
      // template.
      inputs.add(bytes(distinct.get(0)));
    }
    for (String r : distinct) {
      inputs.add(bytes(r));
    }
    assertThat(
            StreamingEquivalenceTest.assertSameOutcomes(
                SHAPES, () -> RandomnessMode.seeded(6), inputs, 4096))
        .isEqualTo(duplicated.size() + distinct.size());
    RecordPerturber p = perturber(SHAPES);
    for (byte[] input : inputs) {
      p.perturb(input, Source.line(1));
    }
    // Every refused record is read by the strict reader; the valid ones by the scanner.
    assertThat(p.strictReads()).isEqualTo(duplicated.size());
    assertThat(p.plainReads()).isEqualTo(duplicated.size() + distinct.size());
  }

  /**
   * Decimals deep inside a passthrough value, up to the scanner's depth, past it (Jackson reads
   * them), and around Jackson's own limit ({@link RecordPerturber#MAX_NESTING}, a dead letter
   * beyond).
   */
  @Test
  void deeplyNestedDecimalsArePassedThroughAsTheReference() {
    List<Scanned> records = new ArrayList<>();
    // Levels inside the record, which is the first.
    int[] levels = {
      PlainJsonScanner.MAX_DEPTH - 1,
      PlainJsonScanner.MAX_DEPTH,
      RecordPerturber.MAX_NESTING - 1,
      RecordPerturber.MAX_NESTING
    };
    for (int n : levels) {
      boolean scanned = n < PlainJsonScanner.MAX_DEPTH;
      records.add(
          new Scanned(
              "{" + VALID + ",\"a\":" + "[1.5,".repeat(n) + "-2.5e-3" + "]".repeat(n) + "}",
              scanned));
      records.add(
          new Scanned(
              "{" + VALID + ",\"a\":" + "{\"b\":".repeat(n) + "0.1" + "}".repeat(n) + "}",
              scanned));
    }
    check(SHAPES, records);
    // The last two nest one deeper than Jackson accepts.
    assertThat(
            StreamingEquivalenceTest.assertSameOutcomes(
                SHAPES,
                () -> RandomnessMode.seeded(9),
                records.stream().map(Scanned::record).toList(),
                4096))
        .isEqualTo(records.size() - 2);
  }

  /** A record, and whether the scanner reads it (else Jackson's strict reader does). */
  record Scanned(byte[] record, boolean scanned) {
    Scanned(String record, boolean scanned) {
      this(bytes(record), scanned);
    }
  }

  /**
   * The records, in order, end as the tree-based perturber ends them, byte for byte, and each is
   * read by the read it should be. One perturber for all (not one per record): the tests are cheap
   * enough for mutation testing to run them for every mutant of the record path.
   *
   * @return the perturber that counted the reads
   */
  private static RecordPerturber check(String yaml, List<Scanned> records) {
    List<byte[]> inputs = records.stream().map(Scanned::record).toList();
    StreamingEquivalenceTest.assertSameOutcomes(
        yaml, () -> RandomnessMode.keyed(StreamingEquivalenceTest.KEY), inputs, 4096);
    RecordPerturber p = perturber(yaml);
    for (int i = 0; i < inputs.size(); i++) {
      long before = p.plainReads();
      p.perturb(inputs.get(i), Source.line(i + 1));
      assertThat(p.plainReads() - before)
          .as(new String(inputs.get(i), StandardCharsets.UTF_8))
          .isEqualTo(records.get(i).scanned() ? 1 : 0);
    }
    return p;
  }

  private static RecordPerturber perturber(String yaml) {
    return new RecordPerturber(PrivacyConfig.parse(yaml), RandomnessMode.seeded(1), 4096);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] join(String before, byte[] middle, String after) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(bytes(before));
    out.writeBytes(middle);
    out.writeBytes(bytes(after));
    return out.toByteArray();
  }
}
