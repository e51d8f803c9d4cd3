package io.ogpm.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.flink.WindowEstimate;
import io.ogpm.flink.WindowEstimateSerializer;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.testkit.KafkaClients;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaFixtureExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.JobID;
import org.apache.flink.metrics.Counter;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The aggregation scales out: with one field and one group (which a job keyed by field and group
 * would run on one subtask), the pre-aggregation runs on every subtask of a parallelism-2 job on a
 * MiniCluster, each adding the records of its Kafka partition (per-subtask metrics), and each
 * window's estimate on the stats topic is byte for byte the estimate of one accumulator of all the
 * window's records (single phase), since the partial accumulators are exact.
 */
@ExtendWith(KafkaFixtureExtension.class)
class TwoPhaseAggregationIT {
  static final PrivacyConfig CONFIG = PrivacyConfig.parse("""
      passthrough: [ts]
      fields:
        - {name: x, min: -2.0, max: 2.0, epsilon: 1.0}
      """);
  static final int RECORDS = 20_000;
  static final long T0 = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

  @Test
  void oneFieldAndOneGroupArePreAggregatedOnEverySubtaskAndEstimatedExactlyAsInOnePhase(KafkaFixture kafka)
      throws Exception {
    kafka.createTopic("two-in", 2, Map.of());
    kafka.createTopic("two-stats", 1, Map.of());
    PerturbedRecords perturbation = new PerturbedRecords(CONFIG, 5);
    FieldEstimator estimator = FieldEstimator.of(perturbation.mechanisms[0], 50);
    Map<Long, FieldAccumulator> onePhase = new TreeMap<>();
    List<ProducerRecord<byte[], byte[]>> messages = new ArrayList<>();
    for (int i = 0; i < RECORDS; i++) {
      // 30 s of records, in time order within each partition: three windows of 10 s.
      long ts = T0 + (long) i * 30_000 / RECORDS;
      double x = -1.5 + 3 * perturbation.bits.nextUniform() * perturbation.bits.nextUniform();
      ObjectNode raw = PerturbedRecords.JSON.createObjectNode().put("ts", ts).put("x", x);
      ObjectNode perturbed = perturbation.perturb(raw);
      messages.add(perturbation.message("two-in", i % 2, perturbed));
      onePhase.computeIfAbsent(ts - (ts - T0) % 10_000, w -> estimator.newAccumulator("x"))
          .add(perturbed.get("x").asDouble(), estimator.binning());
    }
    KafkaClients.produceRecords(kafka.bootstrapServers(), messages);

    AggregateJob.Settings settings = AggregateJob.Settings.builder().config(CONFIG)
        .kafka(KafkaSettings.of(kafka.bootstrapServers())).inputTopic("two-in").outputTopic("two-stats")
        .groupId("two").transactionalIdPrefix("two").timeField("ts").window(Duration.ofSeconds(10))
        .outOfOrderness(Duration.ofSeconds(1)).bounded(true).checkpointInterval(Duration.ofSeconds(1)).parallelism(2)
        .build();
    int mark = CapturingReporter.mark();
    try (TestCluster cluster = new TestCluster(2, 1)) {
      JobID job = cluster.submit(env -> AggregateJob.build(env, settings), null);
      assertThat(cluster.await(job, Duration.ofMinutes(5)).isSuccess()).isTrue();
    }

    Map<String, Long> perSubtask = new HashMap<>();
    for (CapturingReporter.Registered m : CapturingReporter.since(mark)) {
      if (m.name().equals("recordsPreAggregated")) {
        perSubtask.merge(m.variables().get("<subtask_index>"), ((Counter) m.metric()).getCount(), Long::sum);
      }
    }
    assertThat(perSubtask).as("records pre-aggregated per subtask").containsOnlyKeys("0", "1");
    assertThat(perSubtask.values()).allSatisfy(n -> assertThat(n).isEqualTo(RECORDS / 2));

    List<ConsumerRecord<byte[], byte[]>> stats = kafka.consumeAll("two-stats", true, KafkaFixture.PATIENCE);
    List<String> got = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : stats) {
      got.add(new String(r.value(), StandardCharsets.UTF_8));
    }
    List<String> expected = new ArrayList<>();
    onePhase.forEach((start, acc) -> expected.add(new String(WindowEstimateSerializer.toJson(WindowEstimate.of(start,
        start + 10_000, "x", null, 50, estimator.estimate(acc, true), true)), StandardCharsets.UTF_8)));
    assertThat(expected).hasSize(3);
    assertThat(got).containsExactlyInAnyOrderElementsOf(expected);
  }
}
