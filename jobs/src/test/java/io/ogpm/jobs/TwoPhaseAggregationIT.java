package io.ogpm.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.flink.aggregate.WindowEstimates;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.flink.kafka.WindowEstimateSerializer;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import io.ogpm.testkit.TestRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The aggregation scales out: with one field and one group (which a job keyed by field and group
 * would run on one subtask), the pre-aggregation runs on every subtask of a parallelism-2 job on a
 * MiniCluster, each adding the records of its Kafka partition (per-subtask metrics), and each
 * window's estimate on the stats topic is byte for byte the estimate of one accumulator of all the
 * window's records (single phase), since the partial accumulators are exact.
 */
class TwoPhaseAggregationIT {
  /**
   * Two task managers with one slot each: the job's two subtasks run on different task managers.
   */
  @RegisterExtension
  static final LdpTestEnvironment ENV =
      LdpTestEnvironment.builder().taskManagers(2).slotsPerTaskManager(1).build();

  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      passthrough: [ts]
      fields:
        - {name: x, min: -2.0, max: 2.0, epsilon: 1.0}
      """);
  static final int RECORDS = 20_000;
  static final long T0 = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
  static final String JOB = "two-phase aggregation";

  @Test
  void oneFieldAndOneGroupArePreAggregatedOnEverySubtaskAndEstimatedExactlyAsInOnePhase()
      throws Exception {
    KafkaFixture kafka = ENV.kafka();
    kafka.createTopic("two-in", 2);
    kafka.createTopic("two-stats", 1);
    PerturbedRecords perturbation = new PerturbedRecords(CONFIG, 5);
    FieldEstimator estimator = FieldEstimator.of(perturbation.mechanisms[0], 50);
    Map<Long, FieldAccumulator> onePhase = new TreeMap<>();
    List<TestRecord> messages = new ArrayList<>();
    for (int i = 0; i < RECORDS; i++) {
      // 30 s of records, in time order within each partition: three windows of 10 s.
      long ts = T0 + (long) i * 30_000 / RECORDS;
      double x = -1.5 + 3 * perturbation.bits.nextUniform() * perturbation.bits.nextUniform();
      ObjectNode raw = PerturbedRecords.JSON.createObjectNode().put("ts", ts).put("x", x);
      ObjectNode perturbed = perturbation.perturb(raw);
      messages.add(perturbation.message(i % 2, perturbed));
      onePhase
          .computeIfAbsent(ts - (ts - T0) % 10_000, w -> estimator.newAccumulator("x"))
          .add(perturbed.get("x").asDouble(), estimator.binning());
    }
    kafka.produceRecords("two-in", messages);

    StreamExecutionEnvironment env = ENV.executionEnvironment();
    AggregateJob.build(
        env,
        AggregateJob.Settings.builder()
            .aggregation(a -> a.config(CONFIG).window(Duration.ofSeconds(10)))
            .kafka(KafkaSettings.of(kafka.bootstrapServers()))
            .inputTopic("two-in")
            .outputTopic("two-stats")
            .groupId("two")
            .transactionalIdPrefix("two")
            .timeField("ts")
            .outOfOrderness(Duration.ofSeconds(1))
            .bounded(true)
            .checkpointInterval(Duration.ofSeconds(1))
            .parallelism(2)
            .build());
    env.execute(JOB);

    assertThat(ENV.metrics().ofJob(JOB).countersBy("recordsPreAggregated", "subtask_index"))
        .as("records pre-aggregated per subtask")
        .containsExactly(Map.entry("0", (long) RECORDS / 2), Map.entry("1", (long) RECORDS / 2));

    List<String> got = new ArrayList<>();
    for (KafkaRecord r : kafka.readCommitted("two-stats")) {
      got.add(r.valueAsString());
    }
    List<String> expected = new ArrayList<>();
    onePhase.forEach(
        (start, acc) ->
            expected.add(
                new String(
                    WindowEstimateSerializer.toJson(
                        WindowEstimates.of(
                            start,
                            start + 10_000,
                            "x",
                            null,
                            50,
                            estimator.estimate(acc, true),
                            true)),
                    StandardCharsets.UTF_8)));
    assertThat(expected).hasSize(3);
    assertThat(got).containsExactlyInAnyOrderElementsOf(expected);
  }
}
