package io.ogpm.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The live demo's matching of raw records to the fields their perturbed records reported. */
class ReportedFieldsTest {
  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
          id-field: id
          passthrough: [id, ts]
          sampling: {fields-per-record: 1}
          fields:
            - {name: a, min: 0, max: 1, epsilon: 1}
            - {name: b, min: 0, max: 1, epsilon: 1}
          """);
  static final ObjectMapper JSON = new ObjectMapper();

  static ConsumerRecord<byte[], byte[]> perturbed(String json) {
    return new ConsumerRecord<>("p", 0, 0, null, json.getBytes(StandardCharsets.UTF_8));
  }

  static JsonNode raw(String id, long ts) throws Exception {
    return JSON.readTree("{\"id\":\"" + id + "\",\"ts\":" + ts + ",\"a\":0.5,\"b\":0.5}");
  }

  @Test
  void aRecordIsMatchedByIdAndTimeUntilItFallsBehindTheHorizon() throws Exception {
    FieldConfig a = CONFIG.fields().get(0);
    FieldConfig b = CONFIG.fields().get(1);
    ReportedFields fields = new ReportedFields(CONFIG, "ts", 10_000);
    fields.addAll(List.of(perturbed("{\"id\":\"r1\",\"ts\":1000,\"a\":0.25}")));
    assertThat(fields.test(raw("r1", 1000), a)).isTrue();
    assertThat(fields.test(raw("r1", 1000), b)).isFalse();
    // The same id replayed later is another record.
    assertThat(fields.test(raw("r1", 2000), a)).isFalse();
    // A read that finds nothing new (between two commits) forgets nothing.
    fields.addAll(List.of());
    assertThat(fields.test(raw("r1", 1000), a)).isTrue();
    fields.addAll(List.of(perturbed("{\"id\":\"r2\",\"ts\":11000,\"b\":0.75}")));
    assertThat(fields.test(raw("r1", 1000), a)).as("10 s behind the newest: kept").isTrue();
    fields.addAll(List.of(perturbed("{\"id\":\"r3\",\"ts\":11001,\"b\":0.75}")));
    assertThat(fields.test(raw("r1", 1000), a)).as("beyond the horizon: forgotten").isFalse();
    assertThat(fields.test(raw("r2", 11000), b)).isTrue();
  }
}
