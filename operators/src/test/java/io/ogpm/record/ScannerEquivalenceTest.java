package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.RandomnessMode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The values the scanner reads in passthrough and dropped values, and the faults it must still
 * leave to Jackson there: every JSON number form, UTF-8 at each boundary of its validity, escapes,
 * duplicate keys and deep nesting. Each record ends as the tree-based perturber ends it, byte for
 * byte ({@link StreamingEquivalenceTest#assertSameOutcomes}), and is read by the read it should
 * be: the scanner, or Jackson's strict reader after the scanner gave up.
 */
class ScannerEquivalenceTest {
  static final String SHAPES = StreamingEquivalenceTest.SHAPES;
  /** An id and a user that are not passed through. */
  static final String IDS = """
      id-field: id
      user-field: u
      passthrough: [ts]
      fields:
        - {name: accel_x, min: -2, max: 2, epsilon: 1}
      """;
  static final String VALID = "\"accel_x\":0.5,\"attitude\":{\"roll\":1.0},\"deep\":{\"er\":{\"value\":0.25}},\"meta\":{\"id\":\"r\",\"user\":7}";

  /** A number, and whether the scanner reads a record that passes it through. */
  static Stream<Arguments> numberForms() {
    return Stream.of(
        Arguments.of("0", true),
        Arguments.of("-0", true),
        Arguments.of("7", true),
        Arguments.of("-7", true),
        Arguments.of("123456789012345678901234", true),
        // 2^64 and 2^65: their digits overflow a long to 0.
        Arguments.of("18446744073709551616", true),
        Arguments.of("-36893488147419103232", true),
        Arguments.of("-12345678901234567890123", true),
        Arguments.of("1234567890123456789012345", false),
        Arguments.of("0.0", true),
        Arguments.of("-0.0", true),
        Arguments.of("1.50", true),
        Arguments.of("0.1", true),
        Arguments.of("-2.5", true),
        Arguments.of("3.14159265358979323846", true),
        Arguments.of("123456789012345678901.5", true),
        Arguments.of("12345678901234567890123.5", false),
        Arguments.of("1e2", true),
        Arguments.of("1E2", true),
        Arguments.of("1e+2", true),
        Arguments.of("1E-2", true),
        Arguments.of("-1.25e-7", true),
        Arguments.of("0e0", true),
        Arguments.of("-0e-0", true),
        Arguments.of("0.001", true),
        Arguments.of("0.0009999", true),
        Arguments.of("9999999.999999999", true),
        Arguments.of("1e7", true),
        Arguments.of("1e22", true),
        Arguments.of("1e23", true),
        Arguments.of("4.9e-324", true),
        Arguments.of("2e-324", true),
        Arguments.of("1e-400", true),
        Arguments.of("-1e-400", true),
        Arguments.of("1.7976931348623157e308", true),
        // Beyond a double: Jackson writes the string "Infinity".
        Arguments.of("1.7976931348623159e308", false),
        Arguments.of("1e309", false),
        Arguments.of("-1e309", false));
  }

  /**
   * A number passed through on its own ({@code ts}, {@code gps.lat}), inside passthrough objects
   * and arrays at several depths ({@code a}, {@code z}, {@code meta}); then, under other
   * configurations, a record of scalar passthrough values twice, the second a replay of the first,
   * and a record with the number as its id and user.
   */
  @ParameterizedTest
  @MethodSource("numberForms")
  void everyNumberFormIsPassedThroughAsBefore(String number, boolean scanned) {
    String n = number;
    String nested = "{" + VALID.replace("\"user\":7}", "\"user\":7,\"n\":[" + n + "]}") + ",\"ts\":" + n + ",\"gps\":{\"lat\":" + n
        + "},\"a\":{\"b\":[" + n + ",{\"c\":" + n + ",\"d\":[[" + n + "],{}]}],\"e\":" + n + "},\"z\":[" + n + "," + n + "]}";
    String scalars = "{\"id\":\"r1\",\"ts\":" + n + ",\"activity\":" + n + ",\"accel_x\":0.25,\"attitude\":{\"roll\":1.5}}";
    List<byte[]> replayed = List.of(bytes(scalars), bytes(scalars.replace("0.25", "0.75")));
    assertThat(StreamingEquivalenceTest.assertSameOutcomes(SHAPES, () -> RandomnessMode.seeded(2), List.of(bytes(nested)), 4096))
        .isEqualTo(1);
    assertThat(StreamingEquivalenceTest.assertSameOutcomes(ReadOnceTest.YAML, () -> RandomnessMode.seeded(2), replayed, 4096))
        .isEqualTo(2);
    RecordPerturber p = perturber(SHAPES);
    p.perturb(bytes(nested), Source.line(1));
    assertThat(p.plainReads()).as(number).isEqualTo(scanned ? 1 : 0);
    p = perturber(ReadOnceTest.YAML);
    for (byte[] input : replayed) {
      p.perturb(input, Source.line(1));
    }
    assertThat(p.plainReads()).as(number).isEqualTo(scanned ? 2 : 0);
    assertThat(p.replays()).as(number).isEqualTo(scanned ? 1 : 0);
    // As an id and a user, which are not passed through: an integer is one, a decimal none.
    check(IDS, bytes("{\"accel_x\":0.5,\"id\":" + n + ",\"u\":" + n + "}"), n.length() <= PlainJsonScanner.MAX_NUMBER);
  }

  /**
   * UTF-8 sequences at the edges of RFC 3629's table 4, and a byte each way past them: the valid
   * ones (shortest form, no surrogate, at most U+10FFFF) are read by the scanner wherever they
   * stand, except a character beyond U+FFFF in a passthrough value (Jackson writes it back as two
   * escapes); the others are left to Jackson, which takes some of them.
   */
  static Stream<Arguments> utf8() {
    return Stream.of(
        Arguments.of("C2 80", true), Arguments.of("DF BF", true), Arguments.of("E0 A0 80", true), Arguments.of("E1 80 80", true),
        Arguments.of("EC BF BF", true), Arguments.of("ED 80 80", true), Arguments.of("ED 9F BF", true),
        Arguments.of("EE 80 80", true), Arguments.of("EF BF BF", true), Arguments.of("F0 90 80 80", true),
        Arguments.of("F1 80 80 80", true), Arguments.of("F3 BF BF BF", true), Arguments.of("F4 80 80 80", true),
        Arguments.of("F4 8F BF BF", true),
        Arguments.of("80", false), Arguments.of("BF", false), Arguments.of("C0 80", false), Arguments.of("C1 BF", false),
        Arguments.of("C2 7F", false), Arguments.of("C2 C0", false), Arguments.of("E0 80 80", false), Arguments.of("E0 9F BF", false),
        Arguments.of("ED A0 80", false), Arguments.of("ED BF BF", false), Arguments.of("E1 7F 80", false),
        Arguments.of("E1 80 C0", false), Arguments.of("F0 80 80 80", false), Arguments.of("F0 8F BF BF", false),
        Arguments.of("F1 80 80 C0", false), Arguments.of("F4 90 80 80", false), Arguments.of("F5 80 80 80", false),
        Arguments.of("F8 80 80 80", false), Arguments.of("FF", false), Arguments.of("E1 80", false), Arguments.of("F1 80 80", false));
  }

  @ParameterizedTest
  @MethodSource("utf8")
  void utf8IsReadWhereValid(String hex, boolean valid) {
    byte[] s = HexFormat.ofDelimiter(" ").parseHex(hex);
    boolean beyondBmp = s.length == 4;
    // In a dropped value, in a dropped key, in a passthrough value, in a key inside one, in an id
    // inside one; in an id, in a user.
    check(SHAPES, join("{" + VALID + ",\"x\":\"a", s, "b\"}"), valid);
    check(SHAPES, join("{" + VALID + ",\"x\":{\"a", s, "\":1}}"), valid);
    check(SHAPES, join("{" + VALID + ",\"ts\":\"a", s, "\"}"), valid && !beyondBmp);
    check(SHAPES, join("{" + VALID + ",\"a\":{\"k", s, "\":1}}"), valid && !beyondBmp);
    String[] id = ("{" + VALID + "}").split("\"r\"");
    check(SHAPES, join(id[0] + "\"r", s, "\"" + id[1]), valid && !beyondBmp);
    check(IDS, join("{\"accel_x\":0.5,\"id\":\"r", s, "\",\"u\":\"u\"}"), valid);
    check(IDS, join("{\"accel_x\":0.5,\"id\":\"r\",\"u\":\"u", s, "\"}"), valid);
  }

  /**
   * Escapes: any valid one in a dropped string; in a passthrough string those Jackson writes back
   * as they are; none in a key, an id or a user (their text is needed).
   */
  static Stream<Arguments> escapes() {
    return Stream.of(
        Arguments.of("{" + VALID + ",\"x\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD834\\uDD1E\\ud800\"}", true),
        Arguments.of("{" + VALID + ",\"x\":[\"\\u0000\",{\"y\":\"\\uFFFF\"}]}", true),
        Arguments.of("{" + VALID + ",\"ts\":\"\\\"\\\\\\b\\f\\n\\r\\t\"}", true),
        Arguments.of("{" + VALID + ",\"a\":{\"b\":[\"x\\ny\"]}}", true),
        Arguments.of("{" + VALID + ",\"ts\":\"a\\/b\"}", false),
        Arguments.of("{" + VALID + ",\"ts\":\"\\u0041\"}", false),
        Arguments.of("{" + VALID + ",\"ts\":\"\\u000a\"}", false),
        Arguments.of("{" + VALID + ",\"z\":[\"\\u001f\"]}", false),
        Arguments.of("{" + VALID.replace("\"r\"", "\"r\\n\"") + "}", false),
        Arguments.of("{" + VALID.replace("7", "\"\\u0041\"") + "}", false),
        Arguments.of("{" + VALID + ",\"x\":{\"a\\nb\":1}}", false),
        Arguments.of("{" + VALID + ",\"t\\u0073\":1}", false),
        Arguments.of("{" + VALID + ",\"x\":\"\\x\"}", false),
        Arguments.of("{" + VALID + ",\"x\":\"\\u12G4\"}", false),
        Arguments.of("{" + VALID + ",\"x\":\"\\u12\"}", false),
        Arguments.of("{" + VALID + ",\"x\":\"\\", false),
        Arguments.of("{" + VALID + ",\"x\":\"a\u007fb\"}", false),
        Arguments.of("{" + VALID + ",\"x\":\"a\u001fb\"}", false));
  }

  @ParameterizedTest
  @MethodSource("escapes")
  void escapesAreReadWhereTheTextIsNotNeeded(String record, boolean scanned) {
    check(SHAPES, bytes(record), scanned);
  }

  /**
   * Duplicate keys in values the scanner now reads (passthrough values holding decimals, objects
   * after strings with escapes or UTF-8, keys in UTF-8, deep inside a passthrough value, late in a
   * large object): each record is refused with the dead letter it had, and the same keys in
   * sibling objects are not duplicates.
   */
  @Test
  void duplicateKeysInValuesTheScannerReadsAreRefusedAsBefore() {
    String deep = "[".repeat(25);
    String deepEnd = "]".repeat(25);
    StringBuilder large = new StringBuilder("{\"q\":0.5");
    for (int k = 0; k < 40; k++) {
      large.append(",\"k").append(k).append("\":").append(k).append(".5");
    }
    List<String> duplicated = List.of(
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
    List<String> distinct = List.of(
        "{" + VALID + ",\"a\":{\"b\":1.5,\"c\":{\"b\":2.5},\"d\":[{\"b\":0.5},{\"b\":0.5}]}}",
        "{" + VALID + ",\"x\":{\"\u00e9\":\"\u20ac\",\"\u20ac\":1,\"e\":2},\"\u00e9\":{\"\u00e9\":0.5}}",
        "{" + VALID + ",\"a\":" + deep + "{\"k\":1.5,\"l\":{\"k\":1.5}}" + deepEnd + "}",
        "{" + VALID + ",\"a\":" + large + "},\"z\":" + large + "}}");
    List<byte[]> inputs = new ArrayList<>();
    for (String r : duplicated) {
      inputs.add(bytes(r));
      // Each after a valid record of another structure, which the scanner may have kept as its template.
      inputs.add(bytes(distinct.get(0)));
    }
    for (String r : distinct) {
      inputs.add(bytes(r));
    }
    assertThat(StreamingEquivalenceTest.assertSameOutcomes(SHAPES, () -> RandomnessMode.seeded(6), inputs, 4096))
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
  void deeplyNestedDecimalsArePassedThroughAsBefore() {
    List<byte[]> inputs = new ArrayList<>();
    // Levels inside the record, which is the first.
    int[] levels = {PlainJsonScanner.MAX_DEPTH - 1, PlainJsonScanner.MAX_DEPTH, RecordPerturber.MAX_NESTING - 1,
        RecordPerturber.MAX_NESTING};
    for (int n : levels) {
      inputs.add(bytes("{" + VALID + ",\"a\":" + "[1.5,".repeat(n) + "-2.5e-3" + "]".repeat(n) + "}"));
      inputs.add(bytes("{" + VALID + ",\"a\":" + "{\"b\":".repeat(n) + "0.1" + "}".repeat(n) + "}"));
    }
    // The last two nest one deeper than Jackson accepts.
    assertThat(StreamingEquivalenceTest.assertSameOutcomes(SHAPES, () -> RandomnessMode.seeded(9), inputs, 4096))
        .isEqualTo(inputs.size() - 2);
    RecordPerturber p = perturber(SHAPES);
    for (byte[] input : inputs) {
      p.perturb(input, Source.line(1));
    }
    assertThat(p.plainReads()).isEqualTo(2);
  }

  /** The record ends as the tree-based perturber ends it, and is read by the scanner or not. */
  private static void check(String yaml, byte[] record, boolean scanned) {
    String text = new String(record, StandardCharsets.UTF_8);
    StreamingEquivalenceTest.assertSameOutcomes(yaml, () -> RandomnessMode.keyed(StreamingEquivalenceTest.KEY), List.of(record), 4096);
    RecordPerturber p = perturber(yaml);
    p.perturb(record, Source.line(1));
    assertThat(p.plainReads()).as(text).isEqualTo(scanned ? 1 : 0);
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
