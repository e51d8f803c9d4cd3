package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.sample.BundledSample;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The streaming perturber against the tree-based reference ({@link LegacyRecordPerturber}): for the
 * same input and the same randomness (a seed, or a key), the same outcome, byte for byte: output
 * value, key, epsilon and user of a perturbed record; reason, field, message and source of a dead
 * letter. On the MotionSense sample, on the hostile inputs, and on random records of many shapes
 * under a configuration with nested fields, ids, users and overlapping passthrough names.
 */
class StreamingEquivalenceTest {
  static final byte[] KEY = "streaming equivalence test key!!".getBytes(StandardCharsets.US_ASCII);

  /** Both perturbers on every input, in order; returns how many were perturbed. */
  static int assertSameOutcomes(
      String yaml, Supplier<RandomnessMode> mode, List<byte[]> inputs, int maxBytes) {
    PrivacyConfig config = PrivacyConfig.parse(yaml);
    LegacyRecordPerturber legacy = new LegacyRecordPerturber(config, mode.get(), maxBytes);
    RecordPerturber streaming = new RecordPerturber(config, mode.get(), maxBytes);
    int perturbed = 0;
    for (int i = 0; i < inputs.size(); i++) {
      Source source = Source.kafka("raw", i % 3, i);
      Outcome expected = legacy.perturb(inputs.get(i), source);
      Outcome actual = streaming.perturb(inputs.get(i), source);
      String input =
          inputs.get(i) == null ? "null" : new String(inputs.get(i), StandardCharsets.UTF_8);
      if (expected instanceof Outcome.Perturbed e) {
        assertThat(actual).as(input).isInstanceOf(Outcome.Perturbed.class);
        Outcome.Perturbed a = (Outcome.Perturbed) actual;
        assertThat(new String(a.value(), StandardCharsets.UTF_8))
            .as(input)
            .isEqualTo(new String(e.value(), StandardCharsets.UTF_8));
        assertThat(a.value()).as(input).isEqualTo(e.value());
        assertThat(a.key()).as(input).isEqualTo(e.key());
        assertThat(a.epsilon()).as(input).isEqualTo(e.epsilon());
        assertThat(a.user()).as(input).isEqualTo(e.user());
        perturbed++;
      } else {
        assertThat(actual).as(input).isEqualTo(expected);
      }
    }
    return perturbed;
  }

  /**
   * The sample's configuration with every field in every record: the tree-based reference predates
   * field sampling, which the streaming perturber applies after the record is read (the same plan
   * for both readers).
   */
  static String everyField(String yaml) {
    String sampling = "sampling:\n  fields-per-record: auto\n";
    assertThat(yaml).contains(sampling);
    return yaml.replace(sampling, "");
  }

  @Test
  @Tag("slow") // the whole sample twice; no mutant that faster tests leave
  void theMotionSenseSampleIsPerturbedByteForByteAsTheReference() throws Exception {
    String yaml = everyField(BundledSample.config());
    List<byte[]> records = new ArrayList<>();
    for (String line : BundledSample.records(Integer.MAX_VALUE)) {
      records.add(line.getBytes(StandardCharsets.UTF_8));
    }
    assertThat(records).hasSize(8076);
    assertThat(
            assertSameOutcomes(
                yaml, () -> RandomnessMode.seeded(42), records, RecordPerturber.DEFAULT_MAX_BYTES))
        .isEqualTo(8076);
    assertThat(
            assertSameOutcomes(
                yaml, () -> RandomnessMode.keyed(KEY), records, RecordPerturber.DEFAULT_MAX_BYTES))
        .isEqualTo(8076);
  }

  /**
   * Near misses of a template: a sample record, then a copy of it with one byte replaced (by a byte
   * of JSON's structure, a digit, a sign, a letter or an escape), removed or inserted, at every
   * position, each copy right after the record it differs from (which the scanner keeps as its
   * template). Every copy ends as the tree-based reference ends it, perturbed or dead-lettered,
   * byte for byte. (One record: the others differ only in their values' digits.)
   */
  @Test
  void nearMissesOfTheLastRecordEndAsTheReference() throws Exception {
    String yaml = everyField(BundledSample.config());
    List<String> lines = BundledSample.records(Integer.MAX_VALUE);
    byte[] replacements = " \"{}[,:0-.ea\\".getBytes(StandardCharsets.US_ASCII);
    List<byte[]> inputs = new ArrayList<>();
    byte[] record = lines.get(4321).getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i <= record.length; i++) {
      for (byte b : replacements) {
        if (i < record.length && record[i] != b) {
          byte[] replaced = record.clone();
          replaced[i] = b;
          inputs.add(record);
          inputs.add(replaced);
        }
        byte[] inserted = new byte[record.length + 1];
        System.arraycopy(record, 0, inserted, 0, i);
        inserted[i] = b;
        System.arraycopy(record, i, inserted, i + 1, record.length - i);
        inputs.add(record);
        inputs.add(inserted);
      }
      if (i < record.length) {
        byte[] removed = new byte[record.length - 1];
        System.arraycopy(record, 0, removed, 0, i);
        System.arraycopy(record, i + 1, removed, i, record.length - i - 1);
        inputs.add(record);
        inputs.add(removed);
      }
    }
    int perturbed =
        assertSameOutcomes(
            yaml, () -> RandomnessMode.seeded(8), inputs, RecordPerturber.DEFAULT_MAX_BYTES);
    // Half the inputs are the record itself; of its copies, those that change a value's
    // digits are perturbed too.
    assertThat(perturbed).isGreaterThan(inputs.size() / 2 + inputs.size() / 10);
  }

  @Test
  void hostileInputsEndAsTheReference() {
    assertHostileInputsEndAsTheReference(2_000, HostileInputs.CONFIG_REJECT);
  }

  @Test
  @Tag("slow") // 10,000 records: run by surefire, left out of mutation testing
  void manyHostileInputsEndAsTheReferenceUnderEitherConfiguration() {
    assertHostileInputsEndAsTheReference(
        5_000, HostileInputs.CONFIG_REJECT, HostileInputs.CONFIG_CLAMP);
  }

  private static void assertHostileInputsEndAsTheReference(int records, String... yamls) {
    for (String yaml : yamls) {
      List<byte[]> inputs = new ArrayList<>(HostileInputs.generate(31, records));
      inputs.add(null);
      assertThat(assertSameOutcomes(yaml, () -> RandomnessMode.seeded(3), inputs, 64 * 1024))
          .isPositive();
    }
  }

  /**
   * Nested fields and passthrough names that share parents, an id and a user inside a passthrough
   * object, passthrough names inside other passthrough names in both orders: the output order
   * depends on which passthrough values a record holds.
   */
  static final String SHAPES =
      """
      id-field: meta.id
      user-field: meta.user
      passthrough: [gps.lat, ts, meta, gps.lon, attitude.pitch, a.b, z, a, 'we"ird\\key', é]
      fields:
        - {name: accel_x, min: -2, max: 2, epsilon: 1}
        - {name: attitude.roll, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: 1, out-of-range: clamp}
        - {name: deep.er.value, min: 0, max: 1, epsilon: 0.5, out-of-range: clamp}
      """;

  static final String[] KEYS = {
    "accel_x",
    "attitude",
    "roll",
    "pitch",
    "gps",
    "lat",
    "lon",
    "meta",
    "id",
    "user",
    "ts",
    "a",
    "b",
    "z",
    "deep",
    "er",
    "value",
    "x",
    "we\"ird\\key",
    "é"
  };

  /**
   * Random records of many shapes, under seeded and keyed randomness.
   *
   * <p>Tagged slow: 20,000 records through two perturbers, twice, about a second. Surefire runs it;
   * mutation testing leaves it out, where every surviving mutant would rerun it (the mutants only
   * it killed, {@link #edgeCasesEndAsTheReference} kills).
   */
  @Test
  @Tag("slow")
  void randomRecordsOfManyShapesEndAsTheReference() {
    AesCtrSource r = AesCtrSource.seeded(99);
    List<byte[]> inputs = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      inputs.add(randomRecord(r, i).getBytes(StandardCharsets.UTF_8));
    }
    int seeded = assertSameOutcomes(SHAPES, () -> RandomnessMode.seeded(5), inputs, 4096);
    int keyed = assertSameOutcomes(SHAPES, () -> RandomnessMode.keyed(KEY), inputs, 4096);
    assertThat(seeded).isEqualTo(keyed).isGreaterThan(1_000);
  }

  /**
   * Edge cases by hand: number and string forms, integer ids, literals, errors deep in skipped
   * values, trailing data; under seeded and keyed randomness.
   */
  @Test
  void edgeCasesEndAsTheReference() {
    String valid =
        "\"accel_x\":0.5,\"attitude\":{\"roll\":1.0},\"deep\":{\"er\":{\"value\":0.25}},\"meta\":{\"id\":\"r\",\"user\":7}";
    String[] records = {
      "{"
          + valid
          + ",\"ts\":1.50,\"z\":1e2,\"a\":-0,\"gps\":{\"lon\":-0.0,\"lat\":12345678901234567890123}}",
      "{"
          + valid
          + ",\"ts\":\"t\\u00e9\\/\\n\\\"x\",\"z\":[1,2.0,{\"q\":[]},null,true,false],\"a\":{}}",
      "{" + valid + ",\"ts\":1e309,\"z\":-1E-400,\"a\":{\"b\":{\"c\":[1e400]},\"d\":\"\\ud800\"}}",
      "{" + valid + ",\"x\":{\"y\":{\"q\":1,\"q\":2}}}",
      "{" + valid + ",\"x\":[{\"p\":1,\"p\":2}]}",
      "{" + valid + ",\"meta\":{\"id\":1}}",
      "{" + valid + ",\"x\":\"\u00e9\u4e2d\ud83d\ude00\"}",
      "{" + valid + ",\"x\":0." + "1".repeat(450) + "}",
      "{" + valid + ",\"x\":" + "9".repeat(401) + "}",
      "{" + valid + ",\"x\":" + "[".repeat(70) + "]".repeat(70) + "}",
      "{" + valid + ",\"x\":" + "[".repeat(62) + "]".repeat(62) + "}",
      "{" + valid + "}\n\n  {\"x\":1}",
      "{" + valid + "}\n  5",
      "{" + valid + "}\n  x",
      "{" + valid + "}    ",
      "\n\n   [1,2,\n {\"a\":1,\"a\":2}]",
      "[1,2] [3]",
      "\"text\" 1",
      "null",
      "true",
      "-0",
      "{" + valid.replace("0.5", "\"0.5\"") + "}",
      "{" + valid.replace("\"r\"", "5.0") + "}",
      "{" + valid.replace("\"r\"", "-0") + "}",
      "{" + valid.replace("7}", "123456789012345678901234567890}") + "}",
      "{" + valid.replace("{\"roll\":1.0}", "[1.0]") + "}",
      "{" + valid.replace("0.25", "null") + "}",
      "{" + valid.replace("0.25", "7") + ",\"é\":{\"é\":\"é\"}}",
      "{" + valid + ",\"we\\\"ird\\\\key\":1,\"a\":{\"b\":2},\"gps\":{\"lat\":1,\"lon\":2}}",
      "{\"z\":3,\"a\":{\"b\":2,\"c\":1}," + valid + ",\"gps\":{\"lon\":2}}",
      "{\"a\":{\"c\":1},\"z\":3," + valid + "}",
      "{\"a\":5,\"z\":3," + valid + ",\"gps\":7}",
      "{\"a\":null,"
          + valid
          + ",\"attitude\":{\"pitch\":{\"p\":1}}}".replace(",\"attitude\":{\"roll\":1.0}", ""),
      "{" + valid + ",\"x\":\"\\x41\"}",
      "{" + valid + ",\"x\":tru}",
      "{" + valid + ",\"x\":01}",
      "{" + valid + ",\"x\":.5}",
      "{" + valid + ",}",
      "{" + valid + ",\"x\":NaN}",
      "{" + valid + ",\"x\":\"tab\there\"}",
      // Integer ids (the keyed mode's noise and the key follow their value), literals passed
      // through, and a configured field holding a literal in a record only Jackson reads (escapes).
      "{" + valid.replace("\"r\"", "-1234") + "}",
      "{" + valid.replace("\"r\"", "987654321") + "}",
      "{" + valid + ",\"ts\":true,\"z\":null,\"a\":false}",
      "{" + valid.replace("0.5", "true") + ",\"x\":\"\\u0041\"}",
      "{" + valid.replace("0.5", "null") + ",\"x\":\"\\u0041\"}",
    };
    List<byte[]> inputs = new ArrayList<>();
    for (String s : records) {
      inputs.add(s.getBytes(StandardCharsets.UTF_8));
    }
    // Invalid UTF-8 in a key and in a value the configuration does not name.
    inputs.add(("{" + valid + ",\"x\":\"").getBytes(StandardCharsets.UTF_8));
    byte[] bad = ("{" + valid + ",\"x\":\"ab\"}").getBytes(StandardCharsets.UTF_8);
    bad[bad.length - 3] = (byte) 0xE9;
    inputs.add(bad);
    bad = ("{" + valid + ",\"xy\":1}").getBytes(StandardCharsets.UTF_8);
    bad[bad.length - 5] = (byte) 0xC3;
    inputs.add(bad);
    bad = ("{" + valid + ",\"x\":\"abcd\"}").getBytes(StandardCharsets.UTF_8);
    bad[bad.length - 6] = (byte) 0xF0;
    bad[bad.length - 5] = (byte) 0x9F;
    inputs.add(bad);
    int perturbed = assertSameOutcomes(SHAPES, () -> RandomnessMode.seeded(1), inputs, 4096);
    assertThat(perturbed).isGreaterThan(10);
    assertThat(assertSameOutcomes(SHAPES, () -> RandomnessMode.keyed(KEY), inputs, 4096))
        .isEqualTo(perturbed);
  }

  /**
   * The scanner finds duplicate keys itself and leaves every refused record to Jackson's strict
   * reader: a duplicate anywhere (the root, an object on the way to a field, a skipped value, a
   * captured passthrough value, an object in an array, names equal only once unescaped, late keys
   * of a large object) is refused with the reference's dead letter; the same key in sibling objects
   * or at other depths, and large objects without duplicates, are accepted with the same output.
   * Also the values the writer formats: big numbers, -0.0, "NaN" as a string, values near the ends
   * of the plain range.
   */
  @Test
  void duplicateKeysAndAwkwardValuesEndAsTheReference() {
    String valid =
        "\"accel_x\":0.5,\"attitude\":{\"roll\":1.0},\"deep\":{\"er\":{\"value\":0.25}},\"meta\":{\"id\":\"r\",\"user\":7}";
    StringBuilder many = new StringBuilder();
    for (int k = 0; k < 40; k++) {
      many.append(",\"k").append(k).append("\":").append(k);
    }
    String large = "{\"q\":0" + many + "}";
    List<String> records =
        new ArrayList<>(
            List.of(
                "{" + valid + ",\"accel_x\":0.5}",
                "{\"accel_x\":0.5," + valid.substring(valid.indexOf(',') + 1) + ",\"accel_x\":1}",
                "{" + valid.replace("{\"roll\":1.0}", "{\"roll\":1.0,\"roll\":1.0}") + "}",
                "{"
                    + valid.replace("{\"roll\":1.0}", "{\"roll\":1.0,\"pitch\":1,\"pitch\":2}")
                    + "}",
                "{" + valid + ",\"x\":{\"y\":1,\"y\":1}}",
                "{" + valid + ",\"x\":[1,{\"y\":1},[{\"p\":{},\"p\":{}}]]}",
                "{" + valid + ",\"z\":{\"y\":1,\"w\":[{\"v\":1,\"v\":2}]}}",
                "{" + valid + ",\"z\":{\"y\":1,\"y\":[]}}",
                "{" + valid + ",\"gps\":{\"lat\":1,\"lat\":2}}",
                "{" + valid + ",\"x\":{\"a\":1,\"\\u0061\":2}}",
                "{" + valid + ",\"\\u0061ccel_x\":2}",
                "{" + valid + ",\"x\":{\"é\":1,\"\\u00e9\":2}}",
                "{" + valid + ",\"x\":" + large.replace("}", ",\"k3\":3}") + "}",
                "{" + valid + ",\"x\":" + large.replace("}", ",\"k39\":3}") + "}",
                "{" + valid + ",\"x\":" + large.replace("{\"q\":0", "{\"k20\":0") + "}",
                "{" + valid + ",\"z\":" + large.replace("}", ",\"q\":3}") + "}",
                "{" + valid + many + "}",
                "{" + valid + many + ",\"k16\":1}",
                "{" + valid + many + ",\"k2\":1}",
                "{" + valid + ",\"x\":" + large + ",\"y\":" + large + ",\"z\":" + large + "}",
                "{"
                    + valid
                    + ",\"x\":{\"a\":{\"a\":{\"a\":1}},\"b\":{\"a\":2}},\"z\":{\"a\":{\"a\":1},\"b\":[{\"a\":1},{\"a\":1}]}}",
                "{" + valid + ",\"x\":{\"a\":1},\"x\":{\"b\":1}}",
                "{" + valid + ",\"ts\":123456789012345678901234567890,\"z\":-0.0,\"a\":\"NaN\"}",
                "{" + valid + ",\"ts\":-0,\"z\":1.7976931348623157E308,\"a\":\"-Infinity\"}",
                "{" + valid.replace("0.5", "-0.0") + "}",
                "{" + valid.replace("0.5", "1e-300").replace("0.25", "0.0010000000000000002") + "}",
                "{" + valid.replace("0.5", "\"NaN\"") + "}",
                "{" + valid.replace("0.5", "123456789012345678901234567890") + "}",
                "{" + valid + ",\"x\":1,\"x\":2 trailing"));
    List<byte[]> inputs = new ArrayList<>();
    for (String r : records) {
      inputs.add(r.getBytes(StandardCharsets.UTF_8));
    }
    for (String yaml :
        new String[] {SHAPES, SHAPES.replace("epsilon: 1}", "epsilon: 1, out-of-range: clamp}")}) {
      int perturbed = assertSameOutcomes(yaml, () -> RandomnessMode.seeded(4), inputs, 4096);
      assertThat(perturbed).isBetween(5, inputs.size() - 15);
    }
  }

  /**
   * An object with more configured keys than JsonShape compares one by one (it then looks them up
   * in a map), records with those keys in any order, some missing, some unknown, some duplicated.
   */
  @Test
  void manyConfiguredKeysEndAsTheReference() {
    StringBuilder yaml =
        new StringBuilder("id-field: id\npassthrough: [id, p0, p1, p2]\nfields:\n");
    for (int i = 0; i < 20; i++) {
      yaml.append("  - {name: f")
          .append(i)
          .append(", min: -1, max: 1, epsilon: 1, out-of-range: clamp}\n");
    }
    AesCtrSource r = AesCtrSource.seeded(21);
    List<byte[]> inputs = new ArrayList<>();
    for (int n = 0; n < 2_000; n++) {
      List<String> members = new ArrayList<>();
      members.add("\"id\":" + n);
      for (int i = 0; i < 20; i++) {
        if (r.nextUniform() < 0.99) {
          members.add("\"f" + i + "\":" + (2 * r.nextUniform() - 1));
        }
      }
      for (int k = 0; k < 4; k++) {
        members.add(
            "\""
                + (r.nextUniform() < 0.5 ? "p" : "q")
                + r.nextBounded(5)
                + "\":"
                + r.nextBounded(100));
      }
      for (int k = members.size() - 1; k > 0; k--) {
        int j = (int) r.nextBounded(k + 1);
        String t = members.get(k);
        members.set(k, members.get(j));
        members.set(j, t);
      }
      inputs.add(("{" + String.join(",", members) + "}").getBytes(StandardCharsets.UTF_8));
    }
    int perturbed =
        assertSameOutcomes(yaml.toString(), () -> RandomnessMode.seeded(8), inputs, 4096);
    assertThat(perturbed).isBetween(100, inputs.size() - 100);
  }

  /**
   * The streaming reader parses numbers with Jackson's fast parser, the tree reader with the JDK's:
   * both round correctly, so every decimal must give the same double. Keyed outputs depend on every
   * bit of the value read, so a value parsed one ulp apart would change the output. Decimals of 1
   * to 25 significant digits, in plain and exponent form, and the exact midpoints between
   * neighbouring doubles (the hardest case for rounding), all within the domain.
   *
   * <p>Tagged slow: a few seconds, and no mutant of the record path is killed by it alone. Surefire
   * runs it; mutation testing leaves it out, where every surviving mutant would rerun it.
   */
  @Test
  @Tag("slow")
  void everyDecimalIsReadAsTheSameDouble() {
    AesCtrSource r = AesCtrSource.seeded(7);
    List<byte[]> inputs = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      double x = (2 * r.nextUniform() - 1) * 1.99;
      String text =
          switch (i % 5) {
            case 0 -> Double.toString(x);
            case 1 ->
                new java.math.BigDecimal(x)
                    .round(new java.math.MathContext(1 + (int) r.nextBounded(25)))
                    .toString();
            case 2 ->
                new java.math.BigDecimal(x)
                    .add(new java.math.BigDecimal(Math.nextUp(x)))
                    .divide(java.math.BigDecimal.valueOf(2))
                    .toPlainString();
            case 3 -> String.format(java.util.Locale.ROOT, "%.20e", x);
            default -> new java.math.BigDecimal(x).toPlainString();
          };
      inputs.add(
          ("{\"accel_x\":"
                  + text
                  + ",\"attitude\":{\"roll\":"
                  + text
                  + "},\"deep\":{\"er\":{\"value\":0.5}},"
                  + "\"meta\":{\"id\":"
                  + i
                  + ",\"user\":\"u\"},\"ts\":"
                  + text
                  + "}")
              .getBytes(StandardCharsets.UTF_8));
    }
    assertThat(assertSameOutcomes(SHAPES, () -> RandomnessMode.keyed(KEY), inputs, 4096))
        .isEqualTo(inputs.size());
  }

  private static String randomRecord(AesCtrSource r, int i) {
    StringBuilder s = new StringBuilder("{");
    List<String> members = new ArrayList<>();
    if (r.nextUniform() < 0.8) {
      members.add("\"accel_x\":" + number(r, 2.5));
    }
    if (r.nextUniform() < 0.8) {
      members.add(
          "\"attitude\":{\"roll\":"
              + number(r, 4)
              + (r.nextUniform() < 0.5 ? ",\"pitch\":" + value(r, 1) : "")
              + "}");
    }
    if (r.nextUniform() < 0.8) {
      members.add("\"deep\":{\"er\":{\"value\":" + number(r, 1.2) + "}}");
    }
    if (r.nextUniform() < 0.9) {
      members.add(
          "\"meta\":{\"id\":"
              + (r.nextUniform() < 0.5 ? "\"r" + i + "\"" : Integer.toString(i))
              + ",\"user\":"
              + (r.nextUniform() < 0.9 ? "\"u" + (i % 5) + "\"" : value(r, 1))
              + (r.nextUniform() < 0.3 ? ",\"more\":" + value(r, 2) : "")
              + "}");
    }
    int extra = (int) (r.nextUniform() * 5);
    for (int k = 0; k < extra; k++) {
      members.add(key(r) + ":" + value(r, 3));
    }
    // Shuffle the members: key order is free in the input.
    for (int k = members.size() - 1; k > 0; k--) {
      int j = (int) r.nextBounded(k + 1);
      String t = members.get(k);
      members.set(k, members.get(j));
      members.set(j, t);
    }
    s.append(String.join(",", members));
    return s.append('}').toString();
  }

  private static String key(AesCtrSource r) {
    String k = KEYS[(int) r.nextBounded(KEYS.length)];
    return "\"" + k.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static String number(AesCtrSource r, double scale) {
    double x = (2 * r.nextUniform() - 1) * scale;
    return switch ((int) r.nextBounded(8)) {
      case 0 -> Integer.toString((int) Math.round(x));
      case 1 -> String.format(java.util.Locale.ROOT, "%.3e", x);
      case 2 -> String.format(java.util.Locale.ROOT, "%.6f", x);
      case 3 -> "-0";
      case 4 -> "\"" + x + "\"";
      case 5 -> r.nextUniform() < 0.5 ? "null" : "[" + x + "]";
      default -> Double.toString(x);
    };
  }

  private static String value(AesCtrSource r, int depth) {
    int kind = (int) r.nextBounded(depth > 0 ? 9 : 6);
    return switch (kind) {
      case 0 -> number(r, 1e6);
      case 1 -> Long.toString(r.nextLong());
      case 2 -> "\"s\\u00e9\\n" + r.nextBounded(100) + "é\\\\\"";
      case 3 -> r.nextUniform() < 0.5 ? "true" : "false";
      case 4 -> "null";
      case 5 -> "123456789012345678901234567" + r.nextBounded(10);
      case 6, 7 -> {
        int n = (int) r.nextBounded(4);
        List<String> members = new ArrayList<>();
        for (int k = 0; k < n; k++) {
          members.add(key(r) + ":" + value(r, depth - 1));
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
}
