package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.RandomnessMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The dead letter as docs/configuration.md, "Records and dead letters", documents it: stable reason
 * codes and one JSON shape.
 */
class DeadLetterTest {
  private static DeadLetter rejected(String record, Source source) {
    RecordPerturber p =
        new RecordPerturber(
            PrivacyConfig.parse(
                """
        fields:
          - {name: accel_x, min: -2.0, max: 2.0, epsilon: 1.0}
        """),
            RandomnessMode.seeded(1));
    return ((Outcome.Rejected) p.perturb(record.getBytes(StandardCharsets.UTF_8), source))
        .deadLetter();
  }

  @Test
  void theReadmeExampleByteForByte() {
    DeadLetter d = rejected("{\"accel_x\":3.25}", Source.kafka("ogpm.raw", 1, 4711));
    assertThat(d.toJson().toString())
        .isEqualTo(
            "{\"reason\":\"out-of-range\",\"field\":\"accel_x\","
                + "\"message\":\"the field is outside [-2.0, 2.0]\",\"source\":{\"topic\":\"ogpm.raw\",\"partition\":1,\"offset\":4711}}");
  }

  @Test
  void noFieldKeyWithoutAFieldAtFaultAndALineForInputFromAFile() {
    DeadLetter d = rejected("{\"accel_x\": 0.5,}", Source.line(3));
    assertThat(d.toJson().toString())
        .isEqualTo(
            "{\"reason\":\"malformed-json\","
                + "\"message\":\"not valid JSON (line 1, column 17)\",\"source\":{\"line\":3}}");
  }

  @Test
  void theReasonCodesAreTheDocumentedOnes() {
    assertThat(Arrays.stream(ReasonCode.values()).map(ReasonCode::code))
        .containsExactly(
            "malformed-json",
            "too-deep",
            "not-an-object",
            "too-large",
            "missing-field",
            "not-a-number",
            "out-of-range",
            "budget-exhausted",
            "budget-period-closed",
            "untrusted-time",
            "contribution-bound",
            "contribution-window-closed");
  }
}
