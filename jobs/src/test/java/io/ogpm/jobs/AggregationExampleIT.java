package io.ogpm.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.LdpAggregation;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.flink.WindowEstimate;
import io.ogpm.flink.kafka.AggregationKafka;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import io.ogpm.testkit.TestRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The "Windowed estimates" example of docs/datastream.md, run on the test kit's MiniCluster and
 * broker: the code of {@link #aggregationExample} is the page's, with the test's topic names and a
 * bounded source (so that the job ends). Every sliding window, group and field of the input is
 * estimated once, over exactly its records; records perturbed under another configuration are
 * skipped and counted.
 */
class AggregationExampleIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV = LdpTestEnvironment.builder().parallelism(2).build();

  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      passthrough: [ts, activity]
      fields:
        - {name: accel_x, min: -2, max: 2, epsilon: 1}
        - {name: heading, domain: circular, min: 0, max: 360, epsilon: 2}
      """);
  static final long T0 = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
  static final String[] ACTIVITIES = {"walking", "sitting"};

  /** docs/datastream.md: "Windowed estimates". */
  static void aggregationExample(
      StreamExecutionEnvironment env,
      PrivacyConfig config,
      KafkaSettings kafka,
      String perturbedTopic,
      String statsTopic,
      boolean bounded) {
    LdpAggregation aggregation =
        LdpAggregation.builder()
            .config(config)
            .window(Duration.ofMinutes(1))
            .slide(Duration.ofSeconds(10))
            .allowedLateness(Duration.ofSeconds(30))
            .groupBy("activity")
            .uidPrefix("my-stats")
            .build();

    DataStream<PerturbedValues> values =
        env.fromSource(
                AggregationKafka.perturbedValuesSource()
                    .kafka(kafka)
                    .topics(perturbedTopic)
                    .groupId("my-stats")
                    .deserializer(AggregationKafka.deserializer(aggregation, "ts"))
                    .bounded(bounded)
                    .build(),
                LdpAggregation.watermarks(Duration.ofSeconds(5), Duration.ofSeconds(30)),
                "perturbed records")
            .uid("perturbed-source");

    DataStream<WindowEstimate> estimates = aggregation.apply(values);
    estimates
        .sinkTo(AggregationKafka.estimateSink(kafka, statsTopic, "my-stats"))
        .uid("stats-sink");
  }

  @Test
  void everyWindowGroupAndFieldIsEstimatedOverExactlyItsRecords() throws Exception {
    KafkaFixture kafka = ENV.kafka();
    kafka.createTopic("agg-perturbed", 2);
    kafka.createTopic("agg-stats", 1);
    PerturbedRecords perturbation = new PerturbedRecords(CONFIG, 11);
    List<TestRecord> messages = new ArrayList<>();
    Map<String, Integer> expectedCounts = new HashMap<>();
    int records = 1_200;
    for (int i = 0; i < records; i++) {
      long ts = T0 + i * 100L; // two minutes, 10 records a second
      String activity = ACTIVITIES[i % 2];
      ObjectNode raw =
          PerturbedRecords.JSON
              .createObjectNode()
              .put("ts", ts)
              .put("activity", activity)
              .put("accel_x", Math.sin(i) * 1.5)
              .put("heading", (i * 7) % 360);
      messages.add(perturbation.message(i % 2, perturbation.perturb(raw)));
      long lastStart = ts - ts % 10_000;
      for (long start = lastStart; start > ts - 60_000; start -= 10_000) {
        expectedCounts.merge(start + "/" + activity, 1, Integer::sum);
      }
    }
    // Perturbed under another configuration: skipped and counted, never estimated.
    for (int i = 0; i < 5; i++) {
      messages.add(
          TestRecord.json(
                  "{\"ts\":"
                      + (T0 + i)
                      + ",\"activity\":\"walking\",\"accel_x\":0.5,\"heading\":10}")
              .withPartition(0)
              .withHeader(ConfigFingerprint.HEADER, "v1:0123456789abcdef"));
    }
    kafka.produceRecords("agg-perturbed", messages);

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(1_000);
    aggregationExample(
        env,
        CONFIG,
        KafkaSettings.of(kafka.bootstrapServers()),
        "agg-perturbed",
        "agg-stats",
        true);
    env.execute("README aggregation example");

    Map<String, Long> got = new HashMap<>();
    for (KafkaRecord r : kafka.readCommitted("agg-stats")) {
      JsonNode stat = PerturbedRecords.JSON.readTree(r.value());
      String key =
          Instant.parse(stat.get("windowStart").asText()).toEpochMilli()
              + "/"
              + stat.get("group").asText()
              + "/"
              + stat.get("field").asText();
      assertThat(got.put(key, stat.get("count").asLong())).as("one estimate of " + key).isNull();
    }
    Map<String, Long> expected = new HashMap<>();
    expectedCounts.forEach(
        (windowAndGroup, n) -> {
          expected.put(windowAndGroup + "/accel_x", (long) n);
          expected.put(windowAndGroup + "/heading", (long) n);
        });
    assertThat(got).isEqualTo(expected);
    assertThat(
            ENV.metrics()
                .ofJob("README aggregation example")
                .counter("recordsSkipped", "reason", "config-mismatch"))
        .isEqualTo(5);
    assertThat(ENV.metrics().ofJob("README aggregation example").counter("recordsPreAggregated"))
        .isEqualTo(records);
  }
}
