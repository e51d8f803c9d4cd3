package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.RandomnessMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The values the scanner reads in passthrough and dropped values, and the faults it must still
 * leave to Jackson there: every JSON number form, and deep nesting. Each record ends as the
 * tree-based perturber ends it, byte for byte ({@link StreamingEquivalenceTest#assertSameOutcomes}),
 * and is read by the read it should be: the scanner, or Jackson after the scanner gave up.
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
    assertThat(StreamingEquivalenceTest.assertSameOutcomes(FastReadTest.YAML, () -> RandomnessMode.seeded(2), replayed, 4096))
        .isEqualTo(2);
    RecordPerturber p = perturber(SHAPES);
    p.perturb(bytes(nested), Source.line(1));
    assertThat(p.plainReads()).as(number).isEqualTo(scanned ? 1 : 0);
    p = perturber(FastReadTest.YAML);
    for (byte[] input : replayed) {
      p.perturb(input, Source.line(1));
    }
    assertThat(p.plainReads()).as(number).isEqualTo(scanned ? 2 : 0);
    assertThat(p.replays()).as(number).isEqualTo(scanned ? 1 : 0);
    // As an id and a user, which are not passed through: an integer is one, a decimal none.
    check(IDS, bytes("{\"accel_x\":0.5,\"id\":" + n + ",\"u\":" + n + "}"), n.length() <= PlainJsonScanner.MAX_NUMBER);
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
}
