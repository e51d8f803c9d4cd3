package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.sample.BundledSample;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The plain scanner reads the records it is meant for, and gives every other record to Jackson.
 * Outcomes are byte for byte the tree-based perturber's either way ({@code
 * StreamingEquivalenceTest}, and the random plain records below), so the count of plain reads is
 * what shows which read a record took: a scanner that gives up too early only costs time, one that
 * reads too much gives wrong bytes.
 */
class PlainJsonScannerTest {
  static final String VALID =
      "\"id\":\"r1\",\"ts\":1,\"activity\":\"walk\",\"accel_x\":0.25,\"attitude\":{\"roll\":1.5}";

  @Test
  void everySampleRecordIsReadByTheScanner() throws Exception {
    RecordPerturber p =
        new RecordPerturber(PrivacyConfig.parse(BundledSample.config()), RandomnessMode.seeded(3));
    List<String> lines = BundledSample.records(Integer.MAX_VALUE);
    for (String line : lines) {
      assertThat(p.perturb(line.getBytes(StandardCharsets.UTF_8), Source.kafka("raw", 0, 1)))
          .isInstanceOf(Outcome.Perturbed.class);
    }
    assertThat(p.plainReads()).isEqualTo(lines.size());
    assertThat(p.strictReads()).isZero();
    // They share one structure: every record after the first is read as a replay of the one before.
    assertThat(p.replays()).isEqualTo(lines.size() - 1);
  }

  /**
   * The template a record leaves is its structure alone: every value is cut out, sensitive or not,
   * so no raw value outlives its record's read. A record of that structure is replayed; one that
   * differs in a byte between values, or in a value's kind, is read in full instead.
   */
  @Test
  void theTemplateKeepsStructureNeverAValue() {
    PrivacyConfig config = PrivacyConfig.parse(HostileInputs.CONFIG_REJECT);
    JsonShape shape = new JsonShape(config, RecordPerturber.factory(4096));
    int n = shape.passthroughs;
    PlainJsonScanner scanner =
        new PlainJsonScanner(shape, new ByteSink(), new int[n], new int[n], new boolean[n]);
    RecordValues values = new RecordValues(config.fields().size());
    String marker = HostileInputs.MARKER;
    String first = HostileInputs.record("\"r" + marker + "\"", "1." + marker, "-0." + marker);

    assertThat(scanner.read(first.getBytes(StandardCharsets.US_ASCII), values)).isTrue();
    assertThat(scanner.templateText())
        .isEqualTo("{\"id\":<>,\"ts\":<>,\"a\":<>,\"nested\":{\"b\":<>},\"secret\":<>}")
        .doesNotContain(marker);

    values.clear();
    byte[] second = HostileInputs.record("\"r2\"", "7.25", "3").getBytes(StandardCharsets.US_ASCII);
    assertThat(scanner.replay(second, values)).isTrue();
    assertThat(values.input(0)).isEqualTo(7.25);
    assertThat(values.input(1)).isEqualTo(3.0);
    assertThat(values.id().text()).isEqualTo("r2");
    assertThat(scanner.replays()).isEqualTo(1);
    for (String other :
        new String[] {
          HostileInputs.record("\"r2\"", "\"7.25\"", "3"), // a value of another kind
          HostileInputs.record("\"r2\"", "7.25", "{\"v\":3}"),
          HostileInputs.record("\"r2\"", "7.25", "3").replace("\"a\"", "\"A\""), // a key
          HostileInputs.record("\"r2\"", "7.25", "3").replace(":7", ": 7"), // whitespace
          HostileInputs.record("\"r2\"", "7.25", "3") + " ", // trailing bytes
          HostileInputs.record("\"r2\"", "7.25", "3").replace("}", ""),
          HostileInputs.record("\"r2\"", "7.25", null)
        }) {
      values.clear();
      assertThat(scanner.replay(other.getBytes(StandardCharsets.US_ASCII), values))
          .as(other)
          .isFalse();
    }
    assertThat(scanner.replays()).isEqualTo(1);
  }

  /** Each record, and whether the scanner reads it ({@code true}) or leaves it to Jackson. */
  static Stream<Arguments> records() {
    return Stream.of(
        Arguments.of("{" + VALID + "}", true),
        Arguments.of(
            " \n\t\r{ \"id\" : \"r1\" , \"accel_x\" : 0.25 , \"attitude\" : { \"roll\" : 1.5 } } \n ",
            true),
        Arguments.of("{}", true),
        Arguments.of(
            "{"
                + VALID
                + ",\"x\":[],\"y\":{},\"z\":[1,[2,{\"a\":null}],true,false,\"s\"],\"n\":null}",
            true),
        Arguments.of("{" + VALID + ",\"x\":\"~ !#$%&'()*+,-./:;<=>?@[]^_`{|}\"}", true),
        Arguments.of("{" + VALID + ",\"x\":\"\u007f\"}", false),
        Arguments.of("{" + VALID + ",\"x\":\"a\\nb\"}", true),
        Arguments.of("{" + VALID + ",\"x\":\"\u00e9\"}", true),
        Arguments.of("{" + VALID + ",\"x\":\"a\tb\"}", false),
        Arguments.of("{" + VALID + ",\"x\\u0041\":1}", false),
        Arguments.of("{" + VALID + ",\"x\":-0}", true),
        Arguments.of("{" + VALID + ",\"x\":-0.0,\"y\":0,\"z\":-0e1}", true),
        Arguments.of("{" + VALID + ",\"x\":1.5e300,\"y\":-12345678901234567890}", true),
        Arguments.of("{" + VALID + ",\"x\":123456789012345678901234}", true),
        Arguments.of("{" + VALID + ",\"x\":1234567890123456789012345}", false),
        Arguments.of("{\"id\":123456789012345678,\"accel_x\":0.25}", true),
        Arguments.of("{\"id\":1234567890123456789,\"accel_x\":0.25}", true),
        Arguments.of("{\"id\":-123456789012345678,\"accel_x\":0.25}", true),
        Arguments.of("{\"id\":1.5,\"accel_x\":0.25}", true),
        Arguments.of("{" + VALID.replace("\"ts\":1", "\"ts\":1.5") + "}", true),
        Arguments.of("{" + VALID.replace("\"ts\":1", "\"ts\":-1") + "}", true),
        Arguments.of(
            "{" + VALID.replace("\"ts\":1", "\"ts\":{\"a\":[1,{\"b\":2}],\"c\":\"d\"}") + "}",
            true),
        Arguments.of("{" + VALID.replace("\"ts\":1", "\"ts\":{\"a\":[1.5]}") + "}", true),
        Arguments.of("{" + VALID + ",\"x\":1.25}", true),
        Arguments.of("{" + VALID + ",\"x\":1,\"x\":2}", false),
        Arguments.of("{" + VALID + ",\"o\":{\"x\":1,\"x\":2}}", false),
        Arguments.of("{" + VALID + ",\"o\":{\"x\":1},\"p\":{\"x\":2}}", true),
        Arguments.of("{" + VALID + "} x", false),
        Arguments.of("{" + VALID + "}{}", false),
        Arguments.of("\uFEFF{" + VALID + "}", false),
        Arguments.of("[1]", false),
        Arguments.of("{" + VALID + ",\"x\":01}", false),
        Arguments.of("{" + VALID + ",\"x\":1.}", false),
        Arguments.of("{" + VALID + ",\"x\":.5}", false),
        Arguments.of("{" + VALID + ",\"x\":1e}", false),
        Arguments.of("{" + VALID + ",\"x\":+1}", false),
        Arguments.of("{" + VALID + ",\"x\":tru}", false),
        Arguments.of("{" + VALID + ",\"x\":nul}", false),
        Arguments.of("{" + VALID + ",\"x\":1 2}", false),
        Arguments.of("{" + VALID + ",}", false),
        Arguments.of("{" + VALID + ",\"x\"1}", false),
        Arguments.of("{" + VALID + ",\"x\":[1,]}", false),
        Arguments.of("{" + VALID + ",\"x\":[1 2]}", false),
        Arguments.of("{" + VALID + ",x:1}", false),
        Arguments.of("{" + VALID + ",\"x\":", false),
        Arguments.of("{" + VALID + ",\"x\":\"abc", false),
        Arguments.of("{" + VALID + ",\"x\":-", false));
  }

  @ParameterizedTest
  @MethodSource("records")
  void whichRecordsTheScannerReads(String json, boolean plain) {
    RecordPerturber p = new RecordPerturber(ReadOnceTest.CONFIG, RandomnessMode.seeded(7));
    p.perturb(json.getBytes(StandardCharsets.UTF_8), Source.kafka("raw", 0, 1));
    assertThat(p.plainReads()).as(json).isEqualTo(plain ? 1 : 0);
  }

  @Test
  void nestingAndKeysUpToTheirLimits() {
    RecordPerturber p = new RecordPerturber(ReadOnceTest.CONFIG, RandomnessMode.seeded(7));
    int depth = PlainJsonScanner.MAX_DEPTH;
    // The record is depth 1: an array of depth - 1 more levels fits, one more does not.
    assertThat(
            plain(p, "{" + VALID + ",\"x\":" + "[".repeat(depth - 1) + "]".repeat(depth - 1) + "}"))
        .isTrue();
    assertThat(plain(p, "{" + VALID + ",\"x\":" + "[".repeat(depth) + "]".repeat(depth) + "}"))
        .isFalse();
    assertThat(
            plain(
                p,
                "{"
                    + VALID
                    + ",\"x\":"
                    + "{\"a\":".repeat(depth - 1)
                    + "1"
                    + "}".repeat(depth - 1)
                    + "}"))
        .isTrue();
    assertThat(
            plain(
                p,
                "{" + VALID + ",\"x\":" + "{\"a\":".repeat(depth) + "1" + "}".repeat(depth) + "}"))
        .isFalse();
    int keys = PlainJsonScanner.MAX_KEYS;
    assertThat(plain(p, "{" + VALID + ",\"o\":{" + ReadOnceTest.keys("k", keys) + "}}")).isTrue();
    assertThat(plain(p, "{" + VALID + ",\"o\":{" + ReadOnceTest.keys("k", keys + 1) + "}}"))
        .isFalse();
    // Keys of closed objects are forgotten: many small objects side by side, and past the buffer's
    // first size.
    StringBuilder many = new StringBuilder("{" + VALID + ",\"o\":[");
    for (int i = 0; i < 50; i++) {
      many.append(i == 0 ? "" : ",").append("{").append(ReadOnceTest.keys("k", 10)).append("}");
    }
    assertThat(
            plain(
                p,
                many.append("],")
                    .append(ReadOnceTest.keys("q", 50))
                    .append(",\"p\":{")
                    .append(ReadOnceTest.keys("k", 60))
                    .append(",\"r\":{")
                    .append(ReadOnceTest.keys("k", 60))
                    .append("}}}")
                    .toString()))
        .isTrue();
  }

  private static boolean plain(RecordPerturber p, String json) {
    long before = p.plainReads();
    assertThat(p.perturb(json.getBytes(StandardCharsets.UTF_8), Source.kafka("raw", 0, 1)))
        .as(json)
        .isInstanceOf(Outcome.Perturbed.class);
    return p.plainReads() > before;
  }

  /**
   * Random plain records of many shapes, in and out of the scanner's reach (integers and decimals
   * of every form, -0, passthrough objects, arrays, whitespace anywhere), perturbed as the
   * tree-based perturber does, byte for byte; most are read by the scanner.
   *
   * <p>Tagged slow: 20,000 records through two perturbers, about a second. Surefire runs it;
   * mutation testing leaves it out, where every surviving mutant would rerun it (the mutants only
   * it killed, {@link StreamingEquivalenceTest#edgeCasesEndAsTheReference} kills).
   */
  @Test
  @Tag("slow")
  void randomPlainRecordsEndAsTheReference() {
    AesCtrSource r = AesCtrSource.seeded(41);
    List<byte[]> inputs = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      inputs.add(plainRecord(r, i).getBytes(StandardCharsets.UTF_8));
    }
    int perturbed =
        StreamingEquivalenceTest.assertSameOutcomes(
            StreamingEquivalenceTest.SHAPES,
            () -> RandomnessMode.keyed(StreamingEquivalenceTest.KEY),
            inputs,
            RecordPerturber.DEFAULT_MAX_BYTES);
    assertThat(perturbed).isGreaterThan(3_000);
    // The same records again, counting the plain reads (the other perturber is not the scanner's).
    RecordPerturber streaming =
        new RecordPerturber(
            PrivacyConfig.parse(StreamingEquivalenceTest.SHAPES), RandomnessMode.seeded(1));
    for (byte[] input : inputs) {
      streaming.perturb(input, Source.kafka("raw", 0, 1));
    }
    assertThat(streaming.plainReads()).isBetween(5_000L, (long) inputs.size() - 3_000);
  }

  private static String plainRecord(AesCtrSource r, int i) {
    List<String> members = new ArrayList<>();
    if (r.nextUniform() < 0.9) {
      members.add("\"accel_x\":" + number(r, 2.5));
    }
    if (r.nextUniform() < 0.9) {
      members.add(
          "\"attitude\":{\"roll\":"
              + number(r, 4)
              + (r.nextUniform() < 0.5 ? ",\"pitch\":" + value(r, 1) : "")
              + "}");
    }
    if (r.nextUniform() < 0.9) {
      members.add("\"deep\":{\"er\":{\"value\":" + number(r, 1.2) + "}}");
    }
    if (r.nextUniform() < 0.9) {
      members.add(
          "\"meta\":{\"id\":"
              + (r.nextUniform() < 0.5 ? "\"r" + i + "\"" : Integer.toString(i - 10_000))
              + ",\"user\":"
              + (r.nextUniform() < 0.8 ? "\"u" + (i % 5) + "\"" : value(r, 1))
              + (r.nextUniform() < 0.3 ? ",\"more\":" + value(r, 2) : "")
              + "}");
    }
    String[] keys = {"gps", "lat", "lon", "ts", "a", "b", "z", "x", "q", "id", "user"};
    int extra = (int) (r.nextUniform() * 5);
    for (int k = 0; k < extra; k++) {
      members.add("\"" + keys[(int) r.nextBounded(keys.length)] + "\":" + value(r, 3));
    }
    for (int k = members.size() - 1; k > 0; k--) {
      int j = (int) r.nextBounded(k + 1);
      String t = members.get(k);
      members.set(k, members.get(j));
      members.set(j, t);
    }
    String record = "{" + String.join(",", members) + "}";
    return r.nextUniform() < 0.2 ? record.replace(",", " ,\n ").replace(":", "\t: ") : record;
  }

  private static String number(AesCtrSource r, double scale) {
    double x = (2 * r.nextUniform() - 1) * scale;
    return switch ((int) r.nextBounded(9)) {
      case 0 -> Integer.toString((int) Math.round(x));
      case 1 -> String.format(Locale.ROOT, "%.3e", x);
      case 2 -> String.format(Locale.ROOT, "%.6f", x);
      case 3 -> r.nextUniform() < 0.5 ? "-0" : "-0.0";
      case 4 -> new BigDecimal(x).round(new MathContext(1 + (int) r.nextBounded(20))).toString();
      case 5 -> r.nextUniform() < 0.5 ? "null" : "[" + x + "]";
      case 6 -> "\"" + x + "\"";
      default -> Double.toString(x);
    };
  }

  private static String value(AesCtrSource r, int depth) {
    return switch ((int) r.nextBounded(depth > 0 ? 9 : 6)) {
      case 0 -> number(r, 1e6);
      case 1 -> Long.toString(r.nextLong() >> (int) r.nextBounded(60));
      case 2 -> "\"s " + r.nextBounded(100) + "/~\"";
      case 3 -> r.nextUniform() < 0.5 ? "true" : "false";
      case 4 -> "null";
      case 5 -> "12345678901234567890123" + r.nextBounded(10);
      case 6, 7 -> {
        int n = (int) r.nextBounded(4);
        List<String> members = new ArrayList<>();
        for (int k = 0; k < n; k++) {
          members.add("\"k" + r.nextBounded(6) + "\":" + value(r, depth - 1));
        }
        yield "{" + String.join(",", members) + "}";
      }
      default -> {
        int n = (int) r.nextBounded(4);
        List<String> items = new ArrayList<>();
        for (int k = 0; k < n; k++) {
          items.add(value(r, depth - 1));
        }
        yield "[" + String.join(",", items) + "]";
      }
    };
  }

  /**
   * The scanner's number reading against the JDK's, which rounds correctly: decimals of 1 to 25
   * significant digits in plain and exponent form, both sides of Clinger's fast path (15 digits,
   * 10^22), the midpoints between neighbouring doubles, integers past 2^53.
   */
  @Test
  void numbersReadAsTheJdkReadsThem() {
    AesCtrSource r = AesCtrSource.seeded(17);
    List<String> texts =
        new ArrayList<>(
            List.of(
                "0",
                "-0.0",
                "0.0e5",
                "1e22",
                "1e23",
                "9007199254740993",
                "123456789012345",
                "1234567890123456",
                "0.000000000000000000000001",
                "1e-22",
                "1.5e-22",
                "1E+2",
                "4.9e-324",
                "1.7976931348623157e308",
                "999999999999999e22",
                "999999999999999e-22",
                "100000000000000000000000",
                "1e999",
                "-1e-999"));
    for (int i = 0; i < 100_000; i++) {
      double x =
          Math.scalb(r.nextUniform(), (int) r.nextBounded(200) - 100)
              * (r.nextUniform() < 0.5 ? -1 : 1);
      texts.add(
          switch (i % 5) {
            case 0 -> Double.toString(x);
            case 1 ->
                new BigDecimal(x).round(new MathContext(1 + (int) r.nextBounded(25))).toString();
            case 2 ->
                new BigDecimal(x)
                    .add(new BigDecimal(Math.nextUp(x)))
                    .divide(BigDecimal.valueOf(2))
                    .round(MathContext.DECIMAL128)
                    .toString();
            case 3 -> String.format(Locale.ROOT, "%." + r.nextBounded(17) + "e", x);
            default ->
                new BigDecimal(x)
                    .round(new MathContext(1 + (int) r.nextBounded(16)))
                    .toPlainString();
          });
    }
    for (String text : texts) {
      byte[] b = ("[" + text + "]").getBytes(StandardCharsets.US_ASCII);
      assertThat(JsonNumberReader.parseDouble(b, 1, b.length - 1))
          .as(text)
          .isEqualTo(Double.parseDouble(text));
    }
  }
}
