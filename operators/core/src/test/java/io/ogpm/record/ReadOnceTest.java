package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.RandomnessMode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Valid records of the shapes sensor records take are read once, by the scanner; only refused ones
 * are read again by the strict reader. Outcomes are the same either way ({@code
 * StreamingEquivalenceTest}), so this count is what shows a scanner that gives up where it should
 * not (and the record pays twice).
 */
class ReadOnceTest {
  static final String YAML =
      """
      id-field: id
      passthrough: [ts, activity, id, meta]
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
      """;
  static final PrivacyConfig CONFIG = PrivacyConfig.parse(YAML);

  static final List<String> VALID =
      List.of(
          "{\"id\":\"r1\",\"user\":\"u\",\"ts\":1,\"activity\":\"walk\",\"accel_x\":0.25,\"attitude\":{\"roll\":1.5}}",
          // Dropped values of every kind, nested objects that reuse the outer keys' names, in
          // arrays too.
          "{\"id\":\"r2\",\"accel_x\":0.25,\"gps\":{\"id\":1,\"accel_x\":2,\"lat\":51.5,\"hist\":[{\"lat\":1},{\"lat\":2,\"x\":{\"lat\":3}}]},"
              + "\"attitude\":{\"pitch\":{\"roll\":1,\"a\":[1,[2,{\"roll\":2}]]},\"roll\":1.5,\"yaw\":{}},\"ts\":2,\"empty\":[],\"e2\":{},"
              + "\"name\":\"A\\\"l\\\\i\\u00e9\",\"n\":null,\"t\":true,\"f\":false,\"big\":12345678901234567890}",
          // A passthrough object and array, captured whole, with keys that other objects also have.
          "{\"meta\":{\"id\":\"m\",\"ts\":[1,2,{\"ts\":3}],\"accel_x\":{}},\"id\":\"r3\",\"accel_x\":-1.0,\"attitude\":{\"roll\":0}}",
          "{\"meta\":[{\"a\":1},{\"a\":2}],\"id\":\"r4\",\"accel_x\":1.5,\"attitude\":{\"roll\":3}}",
          // Objects of many keys, outside and inside.
          "{\"id\":\"r5\",\"accel_x\":0.5,\"attitude\":{\"roll\":3,"
              + keys("r", 25)
              + "},"
              + keys("k", 30)
              + ",\"o\":{"
              + keys("k", 40)
              + ",\"p\":{"
              + keys("k", 20)
              + "}},"
              + keys("z", 5)
              + "}",
          // The configured keys after a nested object that closed at the same depth.
          "{\"x\":{\"y\":{\"z\":{}}},\"attitude\":{\"w\":{\"roll\":1},\"roll\":-2.5},\"accel_x\":0,\"id\":\"r6\"}");

  static String keys(String prefix, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "" : ",").append('"').append(prefix).append(i).append("\":").append(i);
    }
    return b.toString();
  }

  @Test
  void validRecordsOfEveryShapeAreReadOnce() {
    RecordPerturber p = new RecordPerturber(CONFIG, RandomnessMode.seeded(7));
    for (int round = 0; round < 2; round++) {
      for (String json : VALID) {
        Outcome o = p.perturb(json.getBytes(StandardCharsets.UTF_8), Source.kafka("raw", 0, 1));
        assertThat(o).as(json).isInstanceOf(Outcome.Perturbed.class);
        assertThat(p.strictReads()).as("strict reads after %s", json).isZero();
      }
    }
  }

  @Test
  void aRefusedRecordIsReadAgainStrictlyAndTheNextValidOneIsNot() {
    RecordPerturber p = new RecordPerturber(CONFIG, RandomnessMode.seeded(7));
    List<String> refused =
        List.of(
            "{\"id\":\"d1\",\"gps\":{\"lat\":1,\"lat\":2},\"accel_x\":0.1}",
            "{\"id\":\"d2\",\"o\":{" + keys("k", 30) + ",\"k29\":1},\"accel_x\":0.1}",
            "{\"id\":\"d3\",\"accel_x\":0.1,\"x\":[{\"a\":1}],\"id\":\"again\"}",
            "{\"id\":\"d4\",\"accel_x\":0.1,\"meta\":{\"a\":1,\"a\":1}}",
            "{\"id\":\"d5\",\"accel_x\":0.1,\"x\":{\"y\":[1,2}}");
    long expected = 0;
    for (String json : refused) {
      Outcome o = p.perturb(json.getBytes(StandardCharsets.UTF_8), Source.kafka("raw", 0, 1));
      assertThat(o).as(json).isInstanceOf(Outcome.Rejected.class);
      assertThat(p.strictReads()).as("strict reads after %s", json).isEqualTo(++expected);
      Outcome next =
          p.perturb(VALID.get(1).getBytes(StandardCharsets.UTF_8), Source.kafka("raw", 0, 2));
      assertThat(next).isInstanceOf(Outcome.Perturbed.class);
      assertThat(p.strictReads()).as("a valid record after %s", json).isEqualTo(expected);
    }
  }
}
