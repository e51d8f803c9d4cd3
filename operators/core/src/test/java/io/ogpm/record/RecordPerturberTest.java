package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.RandomnessMode;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordPerturberTest {
  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      id-field: id
      user-field: user
      passthrough: [ts, activity, id]
      fields:
        - name: accel_x
          min: -2.0
          max: 2.0
          epsilon: 1.0
        - name: attitude.roll
          domain: circular
          min: -3.141592653589793
          max: 3.141592653589793
          epsilon: 2.0
          out-of-range: clamp
        - name: temp
          min: 0
          max: 50
          epsilon: 0.5
          out-of-range: clamp
      """);
  static final ObjectMapper JSON = new ObjectMapper();

  private static Outcome run(RecordPerturber p, String json) {
    return p.perturb(json.getBytes(StandardCharsets.UTF_8), Source.kafka("raw", 2, 17));
  }

  private static JsonNode value(Outcome o) throws Exception {
    assertThat(o).isInstanceOf(Outcome.Perturbed.class);
    return JSON.readTree(((Outcome.Perturbed) o).value());
  }

  private static DeadLetter dead(Outcome o) {
    assertThat(o).isInstanceOf(Outcome.Rejected.class);
    return ((Outcome.Rejected) o).deadLetter();
  }

  @Test
  void outputHoldsOnlyPerturbedAndPassthroughFields() throws Exception {
    RecordPerturber p = new RecordPerturber(CONFIG, RandomnessMode.seeded(1));
    Outcome o =
        run(
            p,
            """
        {"id":"r1","user":"alice","ts":1700000000000,"activity":"walk","accel_x":0.25,
         "attitude":{"roll":1.5,"pitch":0.3},"temp":21.5,"gps":{"lat":51.5,"lon":-0.1},"name":"Alice"}""");
    JsonNode out = value(o);
    assertThat(fieldNames(out))
        .containsExactly("accel_x", "attitude", "temp", "ts", "activity", "id");
    assertThat(fieldNames(out.get("attitude"))).containsExactly("roll");
    assertThat(out.get("accel_x").asDouble()).isBetween(-2.0, 2.0).isNotEqualTo(0.25);
    assertThat(out.get("ts").asLong()).isEqualTo(1700000000000L);
    assertThat(((Outcome.Perturbed) o).epsilon()).isEqualTo(3.5);
    assertThat(((Outcome.Perturbed) o).user()).isEqualTo("alice");
    assertThat(new String(((Outcome.Perturbed) o).key(), StandardCharsets.UTF_8)).isEqualTo("r1");
    assertThat(out.toString()).doesNotContain("Alice", "alice", "51.5", "pitch", "gps", "user");
  }

  /** A polar pair: two input fields perturbed under one epsilon, the pair's, split between them. */
  @Test
  void aPolarPairPerturbsBothFieldsUnderOneBudget() throws Exception {
    PrivacyConfig polar =
        PrivacyConfig.parse(
            """
        passthrough: [ts]
        fields:
          - domain: polar
            radius: {name: target.distance, max: 50}
            angle: {name: target.bearing, min: 0, max: 360}
            epsilon: 9.99
        """);
    RecordPerturber p = new RecordPerturber(polar, RandomnessMode.seeded(4));
    Outcome o = run(p, "{\"ts\":1,\"target\":{\"distance\":12.5,\"bearing\":270.0,\"id\":\"x\"}}");
    JsonNode out = value(o);
    assertThat(fieldNames(out.get("target"))).containsExactly("distance", "bearing");
    assertThat(out.get("target").get("distance").asDouble()).isBetween(0.0, 50.0);
    assertThat(out.get("target").get("bearing").asDouble()).isBetween(0.0, 360.0);
    assertThat(((Outcome.Perturbed) o).epsilon())
        .isLessThanOrEqualTo(9.99)
        .isGreaterThan(9.99 - 1e-12);
    // A pair with its angle missing is a dead letter like any record missing a field.
    assertThat(dead(run(p, "{\"ts\":1,\"target\":{\"distance\":12.5}}")).reason())
        .isEqualTo(ReasonCode.MISSING_FIELD);
  }

  private static java.util.List<String> fieldNames(JsonNode node) {
    java.util.List<String> names = new java.util.ArrayList<>();
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    return names;
  }

  @Test
  void everyReasonCodeAndNoRawValueInAnyDeadLetter() {
    RecordPerturber p = new RecordPerturber(CONFIG, RandomnessMode.seeded(2), 4096);
    String base = "\"id\":\"r\",\"user\":\"u\",\"attitude\":{\"roll\":0.5},\"temp\":20";
    Object[][] cases = {
      {"{\"accel_x\": 1234.5678, " + base, ReasonCode.MALFORMED_JSON, null},
      {"[1234.5678]", ReasonCode.NOT_AN_OBJECT, null},
      {"{" + base + "}", ReasonCode.MISSING_FIELD, "accel_x"},
      {"{\"accel_x\":null," + base + "}", ReasonCode.MISSING_FIELD, "accel_x"},
      {"{\"accel_x\":\"1234.5678\"," + base + "}", ReasonCode.NOT_A_NUMBER, "accel_x"},
      {"{\"accel_x\":1e309," + base + "}", ReasonCode.NOT_A_NUMBER, "accel_x"},
      {"{\"accel_x\":1234.5678," + base + "}", ReasonCode.OUT_OF_RANGE, "accel_x"},
      {
        "{\"accel_x\":0.5,\"user\":\"u\",\"attitude\":{\"roll\":0.5},\"temp\":20}",
        ReasonCode.MISSING_FIELD,
        "id"
      },
      {
        "{\"accel_x\":0.5,\"id\":\"r\",\"attitude\":{\"roll\":0.5},\"temp\":20}",
        ReasonCode.MISSING_FIELD,
        "user"
      },
      {"{\"accel_x\":0.5,\"accel_x\":1234.5678," + base + "}", ReasonCode.MALFORMED_JSON, null},
      {"{\"accel_x\":0.5," + base + "} {\"x\":1234.5678}", ReasonCode.MALFORMED_JSON, null},
      {"{\"accel_x\":NaN," + base + "}", ReasonCode.MALFORMED_JSON, null},
      {
        "{\"pad\":\"" + "1234.5678".repeat(500) + "\",\"accel_x\":0.5," + base + "}",
        ReasonCode.TOO_LARGE,
        null
      },
      {"{\"a\":".repeat(100) + "1" + "}".repeat(100), ReasonCode.TOO_DEEP, null},
      {"", ReasonCode.MALFORMED_JSON, null},
    };
    for (Object[] c : cases) {
      DeadLetter d = dead(run(p, (String) c[0]));
      assertThat(d.reason()).as((String) c[0]).isEqualTo(c[1]);
      assertThat(d.field()).as((String) c[0]).isEqualTo(c[2]);
      String json = d.toJson().toString();
      assertThat(json).as("dead letter of %s", c[0]).doesNotContain("1234", "5678");
      assertThat(json).contains("\"topic\":\"raw\"", "\"partition\":2", "\"offset\":17");
    }
    // Invalid UTF-8.
    byte[] invalid = "{\"accel_x\":0.5,\"x\":\"\u00ff\"}".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(dead(p.perturb(invalid, Source.line(3))).reason())
        .isEqualTo(ReasonCode.MALFORMED_JSON);
  }

  /**
   * The messages name the problem, the field and the configuration; a test above checks they hold
   * no value.
   */
  @Test
  void everyDeadLetterSaysWhatIsWrong() {
    RecordPerturber p = new RecordPerturber(CONFIG, RandomnessMode.seeded(2), 4096);
    String base = "\"id\":\"r\",\"user\":\"u\",\"attitude\":{\"roll\":0.5},\"temp\":20";
    String[][] cases = {
      // The "}" after the trailing comma is at line 2, column 56.
      {"{\"accel_x\": 0.5,\n " + base + ",}", "not valid JSON (line 2, column 56)"},
      // The reader's limits (nesting, number length) give no position.
      {"{\"a\":".repeat(100) + "1" + "}".repeat(100), "the record nests deeper than 64 levels"},
      {"{\"accel_x\":0." + "1".repeat(500) + "," + base + "}", "not valid JSON"},
      {"[0.5]", "the record is a JSON array, not an object"},
      {"\"text\"", "the record is a JSON string, not an object"},
      {"", "the record is empty"},
      {" \n ", "the record is empty"},
      {"{" + base + "}", "the field is missing or null"},
      {"{\"accel_x\":{\"v\":1}," + base + "}", "the field is a JSON object, not a number"},
      {"{\"accel_x\":true," + base + "}", "the field is a JSON boolean, not a number"},
      {"{\"accel_x\":-1e309," + base + "}", "the field is not a finite number"},
      {"{\"accel_x\":2.5," + base + "}", "the field is outside [-2.0, 2.0]"},
      {
        "{\"accel_x\":0.5,\"id\":5.0,\"user\":\"u\",\"attitude\":{\"roll\":0.5},\"temp\":20}",
        "the id field is missing, null or not a string or integer"
      },
      {
        "{\"accel_x\":0.5,\"id\":\"r\",\"user\":[\"u\"],\"attitude\":{\"roll\":0.5},\"temp\":20}",
        "the user field is missing, null or not a string or integer"
      },
    };
    for (String[] c : cases) {
      assertThat(dead(run(p, c[0])).message()).as(c[0]).isEqualTo(c[1]);
    }
  }

  /**
   * A Kafka tombstone (a null value) is a dead letter like any other bad input, never an exception.
   */
  @Test
  void aNullRecordIsEmpty() {
    DeadLetter d =
        dead(
            new RecordPerturber(CONFIG, RandomnessMode.seeded(2))
                .perturb(null, Source.kafka("raw", 0, 5)));
    assertThat(d)
        .isEqualTo(
            new DeadLetter(
                ReasonCode.MALFORMED_JSON, null, "the record is empty", Source.kafka("raw", 0, 5)));
  }

  /**
   * Records are UTF-8: bytes the JSON reader would take for UTF-16 or UTF-32 (NUL bytes at the
   * start, a byte-order mark) are refused, valid JSON in those encodings included, as is a NUL-led
   * start that holds no valid character at all.
   */
  @Test
  void recordsInOtherEncodingsThanUtf8AreMalformedJson() throws Exception {
    String json =
        "{\"id\":\"r\",\"user\":\"u\",\"accel_x\":0.5,\"attitude\":{\"roll\":0.5},\"temp\":20}";
    List<byte[]> inputs =
        List.of(
            json.getBytes(StandardCharsets.UTF_16BE),
            json.getBytes(StandardCharsets.UTF_16LE),
            json.getBytes(StandardCharsets.UTF_16),
            json.getBytes(java.nio.charset.Charset.forName("UTF-32BE")),
            json.getBytes(java.nio.charset.Charset.forName("UTF-32LE")),
            new byte[] {0, 0, 0, '{', 0, 0, 0, '"', 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff});
    for (byte[] input : inputs) {
      DeadLetter d =
          dead(
              new RecordPerturber(CONFIG, RandomnessMode.seeded(2)).perturb(input, Source.line(1)));
      assertThat(d)
          .isEqualTo(
              new DeadLetter(
                  ReasonCode.MALFORMED_JSON, null, "not valid JSON (not UTF-8)", Source.line(1)));
    }
    value(run(new RecordPerturber(CONFIG, RandomnessMode.seeded(2)), json));
  }

  @Test
  void theSizeLimitIsInclusive() throws Exception {
    String record =
        "{\"id\":\"r\",\"user\":\"u\",\"accel_x\":0.5,\"attitude\":{\"roll\":0.5},\"temp\":20}";
    int size = record.getBytes(StandardCharsets.UTF_8).length;
    value(run(new RecordPerturber(CONFIG, RandomnessMode.seeded(2), size), record));
    DeadLetter d =
        dead(run(new RecordPerturber(CONFIG, RandomnessMode.seeded(2), size - 1), record));
    assertThat(d.reason()).isEqualTo(ReasonCode.TOO_LARGE);
    assertThat(d.message()).isEqualTo("the record has " + size + " bytes, more than " + (size - 1));
  }

  @Test
  void everyRecordCostsTheSumOfItsFieldsEpsilons() {
    assertThat(new RecordPerturber(CONFIG, RandomnessMode.seeded(2)).epsilonPerRecord())
        .isEqualTo(3.5);
  }

  @Test
  void clampKeepsValuesInTheDomainAndWrapsAnglesOnTheCircle() throws Exception {
    RecordPerturber p = new RecordPerturber(CONFIG, RandomnessMode.seeded(3));
    JsonNode out =
        value(
            run(p, "{\"id\":1,\"user\":2,\"accel_x\":0,\"attitude\":{\"roll\":7.0},\"temp\":99}"));
    assertThat(out.get("temp").asDouble()).isBetween(0.0, 50.0);
    assertThat(out.get("attitude").get("roll").asDouble()).isBetween(-Math.PI, Math.PI);
    assertThat(out.get("id").asText()).isEqualTo("1");
  }

  @Test
  void keyedModeGivesTheSameOutputForTheSameRecordAndDifferentOnesOtherwise() throws Exception {
    byte[] key = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    RecordPerturber first = new RecordPerturber(CONFIG, RandomnessMode.keyed(key));
    RecordPerturber replay = new RecordPerturber(CONFIG, RandomnessMode.keyed(key));
    String record =
        "{\"id\":\"r-9\",\"user\":\"u\",\"accel_x\":0.4,\"attitude\":{\"roll\":1.0},\"temp\":20}";
    assertThat(value(run(first, record))).isEqualTo(value(run(replay, record)));
    assertThat(value(run(first, record))).isEqualTo(value(run(first, record)));
    String other = record.replace("r-9", "r-10");
    assertThat(value(run(first, other)).get("accel_x"))
        .isNotEqualTo(value(run(first, record)).get("accel_x"));
    // Secure mode: two perturbers never agree.
    RecordPerturber a = new RecordPerturber(CONFIG, RandomnessMode.secure());
    RecordPerturber b = new RecordPerturber(CONFIG, RandomnessMode.secure());
    assertThat(value(run(a, record)).get("accel_x"))
        .isNotEqualTo(value(run(b, record)).get("accel_x"));
  }

  /**
   * Keyed mode binds each field's bits to the field, the typed id, the typed user and the field's
   * exact (clamped) value. Outputs on the default 2^32-cell grid coincide for independent bits with
   * probability below 1e-8, so with this fixed key "different output" stands for "different bits"
   * and "identical output" for "the same bits".
   */
  @Test
  void keyedOutputsFollowTheRecordsContentExactly() throws Exception {
    byte[] key = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    RecordPerturber p = new RecordPerturber(CONFIG, RandomnessMode.keyed(key));
    String base =
        "{\"id\":\"r-9\",\"user\":\"u\",\"accel_x\":0.4,\"attitude\":{\"roll\":1.0},\"temp\":20}";
    Outcome.Perturbed first = (Outcome.Perturbed) run(p, base);
    // A replay, by another perturber, also with the same content written differently: the same
    // bytes.
    Outcome.Perturbed replay =
        (Outcome.Perturbed) run(new RecordPerturber(CONFIG, RandomnessMode.keyed(key)), base);
    assertThat(replay.value()).isEqualTo(first.value());
    assertThat(replay.key()).isEqualTo(first.key());
    Outcome.Perturbed rewritten =
        (Outcome.Perturbed)
            run(
                p,
                "{ \"temp\": 20.0, \"attitude\": {\"roll\": 1e0}, \"name\": \"x\", \"accel_x\": 4E-1, \"user\": \"u\", \"id\": \"r-9\" }");
    assertThat(rewritten.value()).isEqualTo(first.value());

    // Ids and users are typed: 5 and "5" differ, as do 0 and "0", -0 and "-0"; the integers -0 and
    // 0 are one id.
    assertAllFieldsDiffer(p, base.replace("\"r-9\"", "5"), base.replace("\"r-9\"", "\"5\""));
    assertAllFieldsDiffer(p, base.replace("\"r-9\"", "0"), base.replace("\"r-9\"", "\"0\""));
    assertAllFieldsDiffer(p, base.replace("\"r-9\"", "-0"), base.replace("\"r-9\"", "\"-0\""));
    assertThat(value(run(p, base.replace("\"r-9\"", "-0"))))
        .isEqualTo(value(run(p, base.replace("\"r-9\"", "0"))));
    String big = "123456789012345678901234567890";
    assertAllFieldsDiffer(
        p, base.replace("\"r-9\"", big), base.replace("\"r-9\"", "\"" + big + "\""));
    assertAllFieldsDiffer(p, base.replace("\"r-9\"", big), base.replace("\"r-9\"", "-" + big));
    // Integer ids are exact at any size: 2^64 + 5 is not 5 (nor any other id sharing its low 64
    // bits).
    String beyondLong = "18446744073709551621";
    assertAllFieldsDiffer(p, base.replace("\"r-9\"", beyondLong), base.replace("\"r-9\"", "5"));
    assertThat(
            new String(
                ((Outcome.Perturbed) run(p, base.replace("\"r-9\"", beyondLong))).key(),
                StandardCharsets.UTF_8))
        .isEqualTo(beyondLong);
    assertThat(dead(run(p, base.replace("\"r-9\"", "5.0"))).reason())
        .isEqualTo(ReasonCode.MISSING_FIELD);
    assertAllFieldsDiffer(p, base, base.replace("\"u\"", "\"v\""));
    assertAllFieldsDiffer(p, base.replace("\"u\"", "7"), base.replace("\"u\"", "\"7\""));

    // Values: a field's bits follow its own value only, after clamping, with -0.0 as 0.0.
    JsonNode other = value(run(p, base.replace("0.4", "0.41")));
    JsonNode original = value(first);
    assertThat(other.get("accel_x")).isNotEqualTo(original.get("accel_x"));
    assertThat(other.get("attitude")).isEqualTo(original.get("attitude"));
    assertThat(other.get("temp")).isEqualTo(original.get("temp"));
    assertThat(value(run(p, base.replace("0.4", Double.toString(Math.nextUp(0.4))))).get("accel_x"))
        .isNotEqualTo(original.get("accel_x"));
    JsonNode zero = value(run(p, base.replace("0.4", "0")));
    for (String z : new String[] {"-0", "0.0", "-0.0", "-0e5"}) {
      assertThat(value(run(p, base.replace("0.4", z)))).as(z).isEqualTo(zero);
    }
    JsonNode top = value(run(p, base.replace("\"temp\":20", "\"temp\":50")));
    assertThat(value(run(p, base.replace("\"temp\":20", "\"temp\":99"))).get("temp"))
        .isEqualTo(top.get("temp"));
    assertThat(value(run(p, base.replace("\"temp\":20", "\"temp\":49.99"))).get("temp"))
        .isNotEqualTo(top.get("temp"));
  }

  private static void assertAllFieldsDiffer(RecordPerturber p, String a, String b)
      throws Exception {
    JsonNode x = value(run(p, a));
    JsonNode y = value(run(p, b));
    assertThat(x.get("accel_x")).as("%s vs %s", a, b).isNotEqualTo(y.get("accel_x"));
    assertThat(x.get("attitude").get("roll"))
        .as("%s vs %s", a, b)
        .isNotEqualTo(y.get("attitude").get("roll"));
    assertThat(x.get("temp")).as("%s vs %s", a, b).isNotEqualTo(y.get("temp"));
  }

  @Test
  void keyedModeNeedsAnIdField() {
    PrivacyConfig noId =
        PrivacyConfig.parse("fields:\n  - name: x\n    min: 0\n    max: 1\n    epsilon: 1\n");
    byte[] key = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    assertThatThrownBy(() -> new RecordPerturber(noId, RandomnessMode.keyed(key)))
        .hasMessage("keyed randomness needs an id-field in the configuration");
  }
}
