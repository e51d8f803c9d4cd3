package io.ogpm.jobs.flink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.jobs.embedded.KafkaClients;
import io.ogpm.jobs.kafka.KafkaFixture;
import io.ogpm.jobs.kafka.KafkaFixtureExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-user budget (10 per day, 2 per record: 5 records per user per day) holds across a
 * restore from a savepoint and a restore from a checkpoint after a killed task manager.
 */
@ExtendWith(KafkaFixtureExtension.class)
class BudgetKafkaTest {
  static final PrivacyConfig CONFIG = PrivacyConfig.parse("""
      id-field: id
      user-field: user
      passthrough: [id]
      fields:
        - name: x
          min: 0
          max: 1
          epsilon: 1
        - name: y
          min: 0
          max: 1
          epsilon: 1
      budget:
        epsilon: 10
        period: P1D
      """);
  static final ObjectMapper JSON = new ObjectMapper();
  static final long DAY_ONE = Instant.parse("2026-01-01T12:00:00Z").toEpochMilli();
  static final long DAY_TWO = Instant.parse("2026-01-02T12:00:00Z").toEpochMilli();

  private static void produce(KafkaFixture kafka, String topic, String prefix, int users, int perUser, long time) {
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    for (int i = 0; i < perUser; i++) {
      for (int u = 0; u < users; u++) {
        String json = "{\"id\":\"" + prefix + "-" + u + "-" + i + "\",\"user\":\"user-" + u + "\",\"x\":0.5,\"y\":0.25}";
        records.add(new ProducerRecord<>(topic, null, time, ("user-" + u).getBytes(StandardCharsets.UTF_8),
            json.getBytes(StandardCharsets.UTF_8)));
      }
    }
    KafkaClients.produceRecords(kafka.bootstrapServers(), records);
  }

  private static void awaitCounts(KafkaFixture kafka, String out, int released, String dead, int rejected) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (kafka.consumeAll(out, true, Duration.ofSeconds(10)).size() < released
        || kafka.consumeAll(dead, true, Duration.ofSeconds(10)).size() < rejected) {
      assertThat(System.nanoTime()).as("outputs within 90 s").isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  private static PerturbJob.Settings settings(KafkaFixture kafka, String name, boolean bounded) {
    return new PerturbJob.Settings(CONFIG, KafkaSettings.of(kafka.bootstrapServers()), name + "-raw", name + "-out",
        name + "-dead", name, name, KeySource.none(), bounded, true, Duration.ofMillis(300), 2);
  }

  @Test
  void budgetSurvivesAStopWithSavepointAndARestore(KafkaFixture kafka, @TempDir Path dir) throws Exception {
    String name = "savepoint";
    for (String t : new String[] {"-raw", "-out", "-dead"}) {
      kafka.createTopic(name + t, 2, Map.of());
    }
    produce(kafka, name + "-raw", "a", 3, 4, DAY_ONE);
    String savepoint;
    try (TestCluster cluster = new TestCluster(1, 4)) {
      JobID job = cluster.submit(env -> PerturbJob.build(env, settings(kafka, name, false)), null);
      awaitCounts(kafka, name + "-out", 12, name + "-dead", 0);
      savepoint = cluster.cluster.stopWithSavepoint(job, dir.resolve("savepoints").toUri().toString(), false,
          SavepointFormatType.CANONICAL).get();
    }
    // Four more per user the same day (one fits), two for user-0 the next day (both fit).
    produce(kafka, name + "-raw", "b", 3, 4, DAY_ONE);
    produce(kafka, name + "-raw", "c", 1, 2, DAY_TWO);
    try (TestCluster cluster = new TestCluster(1, 4)) {
      JobID job = cluster.submit(env -> PerturbJob.build(env, settings(kafka, name, false)), savepoint);
      awaitCounts(kafka, name + "-out", 17, name + "-dead", 9);
      cluster.cluster.cancelJob(job).get();
    }
    Map<String, Integer> released = releasedPerUserAndDay(kafka.consumeAll(name + "-out", true, Duration.ofSeconds(30)));
    assertThat(released).containsEntry("user-0/a", 4).containsEntry("user-0/b", 1).containsEntry("user-0/c", 2)
        .containsEntry("user-1/a", 4).containsEntry("user-1/b", 1).containsEntry("user-2/b", 1);
    List<ConsumerRecord<byte[], byte[]>> dead = kafka.consumeAll(name + "-dead", true, Duration.ofSeconds(30));
    assertThat(dead).hasSize(9);
    for (ConsumerRecord<byte[], byte[]> d : dead) {
      assertThat(JSON.readTree(d.value()).get("reason").asText()).isEqualTo("budget-exhausted");
      assertThat(JSON.readTree(d.value()).get("source").get("topic").asText()).isEqualTo(name + "-raw");
    }
  }

  @Test
  void budgetSurvivesARestoreFromACheckpointAfterAFailure(KafkaFixture kafka) throws Exception {
    String name = "checkpoint";
    for (String t : new String[] {"-raw", "-out", "-dead"}) {
      kafka.createTopic(name + t, 2, Map.of());
    }
    produce(kafka, name + "-raw", "r", 3, 200, DAY_ONE);
    try (TestCluster cluster = new TestCluster(2, 1)) {
      JobID job = cluster.submit(env -> PerturbJob.build(env, settings(kafka, name, true), in -> Hooks.throttled(in, 5000)), null);
      // Mid-stream: once dead letters flow (the budgets are spent), kill a task manager.
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (kafka.consumeAll(name + "-dead", false, Duration.ofSeconds(10)).size() < 30) {
        assertThat(System.nanoTime()).isLessThan(deadline);
        Thread.sleep(100);
      }
      cluster.cluster.terminateTaskManager(0).get();
      cluster.cluster.startTaskManager();
      assertThat(cluster.await(job, Duration.ofMinutes(3)).isSuccess()).isTrue();
    }
    Map<String, Integer> released = releasedPerUserAndDay(kafka.consumeAll(name + "-out", true, Duration.ofSeconds(30)));
    assertThat(released).containsOnly(Map.entry("user-0/r", 5), Map.entry("user-1/r", 5), Map.entry("user-2/r", 5));
    assertThat(kafka.consumeAll(name + "-dead", true, Duration.ofSeconds(30))).hasSize(600 - 15);
  }

  /** Released records per "user/id-prefix". */
  private static Map<String, Integer> releasedPerUserAndDay(List<ConsumerRecord<byte[], byte[]>> out) throws Exception {
    Map<String, Integer> counts = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : out) {
      String[] id = JSON.readTree(r.value()).get("id").asText().split("-");
      counts.merge("user-" + id[1] + "/" + id[0], 1, Integer::sum);
    }
    return counts;
  }
}
