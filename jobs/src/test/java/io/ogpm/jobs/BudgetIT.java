package io.ogpm.jobs;

import io.ogpm.flink.kafka.KafkaSettings;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.testkit.KafkaClients;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaFixtureExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToLongFunction;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-user budget (10 per day, 2 per record: 5 records per user per day) on a real broker and
 * a MiniCluster, against a producer who forges its records' timestamps (alternating days, past
 * days, future days) to buy a fresh budget per record: on a raw topic with
 * message.timestamp.type=LogAppendTime the broker's time decides, and the budget holds across a
 * stop with savepoint and restore and across a restore from a checkpoint after a killed task
 * manager. On a CreateTime topic the log-append clock refuses every record; the ingestion-time
 * clock caps the forger there too.
 *
 * <p>Expectations are computed from the broker's own timestamps read back from the raw topic, so
 * a run that crosses midnight UTC (two budget periods) is judged right too. Every wait is for a
 * condition (every input accounted for), with a deadline of minutes.
 */
@ExtendWith(KafkaFixtureExtension.class)
class BudgetIT {
  static final String FIELDS = """
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
      """;
  static final PrivacyConfig CONFIG = PrivacyConfig.parse(FIELDS + "budget: {epsilon: 10, period: P1D}\n");
  static final PrivacyConfig INGESTION_CONFIG =
      PrivacyConfig.parse(FIELDS + "budget: {epsilon: 10, period: P1D, clock: ingestion-time}\n");
  static final int PER_PERIOD = 5;
  static final long DAY = Duration.ofDays(1).toMillis();
  static final Map<String, String> LOG_APPEND_TIME = Map.of("message.timestamp.type", "LogAppendTime");
  static final ObjectMapper JSON = new ObjectMapper();
  static final Duration DEADLINE = Duration.ofMinutes(5);
  static final Duration READ = Duration.ofMinutes(2);
  /** Timestamps the producer forges. */
  static final long JAN_1 = Instant.parse("2026-01-01T12:00:00Z").toEpochMilli();
  static final long FUTURE = Instant.parse("2030-06-01T12:00:00Z").toEpochMilli();

  private static void createTopics(KafkaFixture kafka, String name, Map<String, String> rawConfig) {
    kafka.createTopic(name + "-raw", 2, rawConfig);
    kafka.createTopic(name + "-out", 2, Map.of());
    kafka.createTopic(name + "-dead", 1, Map.of());
  }

  /**
   * Writes {@code perUser} records for each of {@code users} users, keyed by user (so one user's
   * records share a partition); the i-th record of a user is stamped by the producer with {@code
   * forged(i)}. Returns how many were written.
   */
  private static int produce(KafkaFixture kafka, String topic, String prefix, int users, int perUser,
      IntToLongFunction forged) {
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    for (int i = 0; i < perUser; i++) {
      for (int u = 0; u < users; u++) {
        String json = "{\"id\":\"" + prefix + "-" + u + "-" + i + "\",\"user\":\"user-" + u + "\",\"x\":0.5,\"y\":0.25}";
        records.add(new ProducerRecord<>(topic, null, forged.applyAsLong(i), ("user-" + u).getBytes(StandardCharsets.UTF_8),
            json.getBytes(StandardCharsets.UTF_8)));
      }
    }
    KafkaClients.produceRecords(kafka.bootstrapServers(), records);
    return records.size();
  }

  private static List<ConsumerRecord<byte[], byte[]>> committed(KafkaFixture kafka, String topic) {
    return kafka.consumeAll(topic, true, READ);
  }

  /** Waits until {@code inputs} records are in the committed output and dead-letter topics together. */
  private static void awaitAccounted(KafkaFixture kafka, String name, int inputs) throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    int seen;
    while ((seen = committed(kafka, name + "-out").size() + committed(kafka, name + "-dead").size()) < inputs) {
      assertThat(System.nanoTime() - deadline).as("%d of %d inputs accounted for within %s", seen, inputs, DEADLINE)
          .isNegative();
      Thread.sleep(500);
    }
    assertThat(seen).as("each input once").isEqualTo(inputs);
  }

  private static PerturbJob.Settings settings(KafkaFixture kafka, PrivacyConfig config, String name, boolean bounded) {
    return PerturbJob.Settings.builder()
        .config(config)
        .kafka(KafkaSettings.of(kafka.bootstrapServers()))
        .inputTopic(name + "-raw")
        .outputTopic(name + "-out")
        .deadLetterTopic(name + "-dead")
        .groupId(name)
        .transactionalIdPrefix(name)
        .keySource(KeySource.none())
        .bounded(bounded)
        .checkpointInterval(Duration.ofMillis(300))
        .parallelism(2)
        .build();
  }

  /**
   * The raw records as the broker stamped them: every one with its LogAppendTime, none with the
   * producer's forged time. Returns the number of records per "user/period".
   */
  private static Map<String, Integer> appendedPerUserAndPeriod(KafkaFixture kafka, String topic, long from, long to) {
    Map<String, Integer> counts = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : committed(kafka, topic)) {
      assertThat(r.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
      assertThat(r.timestamp()).isBetween(from, to);
      counts.merge(new String(r.key(), StandardCharsets.UTF_8) + "/" + Math.floorDiv(r.timestamp(), DAY), 1, Integer::sum);
    }
    return counts;
  }

  /** What the budget may release: the first 5 records of each user and period. */
  private static Map<String, Integer> capped(Map<String, Integer> appended) {
    Map<String, Integer> out = new HashMap<>();
    appended.forEach((k, n) -> out.put(k, Math.min(n, PER_PERIOD)));
    return out;
  }

  /** Released records per "user/period", the period read from the output's timestamp (the input's). */
  private static Map<String, Integer> releasedPerUserAndPeriod(List<ConsumerRecord<byte[], byte[]>> out) throws Exception {
    Map<String, Integer> counts = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : out) {
      String[] id = JSON.readTree(r.value()).get("id").asText().split("-");
      counts.merge("user-" + id[1] + "/" + Math.floorDiv(r.timestamp(), DAY), 1, Integer::sum);
    }
    return counts;
  }

  private static void assertDeadLetters(List<ConsumerRecord<byte[], byte[]>> dead, String rawTopic, String reason)
      throws Exception {
    for (ConsumerRecord<byte[], byte[]> d : dead) {
      JsonNode json = JSON.readTree(d.value());
      assertThat(json.get("reason").asText()).isEqualTo(reason);
      assertThat(json.get("source").get("topic").asText()).isEqualTo(rawTopic);
    }
  }

  private static double sum(int mark, String metric) {
    double sum = 0;
    for (CapturingReporter.Registered m : CapturingReporter.since(mark)) {
      if (m.name().equals(metric)) {
        sum += m.metric() instanceof Counter c ? c.getCount() : ((Number) ((Gauge<?>) m.metric()).getValue()).doubleValue();
      }
    }
    return sum;
  }

  @Test
  void forgedTimestampsBuyNoBudgetAcrossAStopWithSavepointAndARestore(KafkaFixture kafka, @TempDir Path dir)
      throws Exception {
    String name = "savepoint";
    createTopics(kafka, name, LOG_APPEND_TIME);
    long start = System.currentTimeMillis();
    // Four records per user stamped alternately on two days (which used to reset the budget).
    int inputs = produce(kafka, name + "-raw", "a", 3, 4, i -> JAN_1 + (i % 2) * DAY);
    String savepoint;
    try (TestCluster cluster = new TestCluster(1, 4)) {
      JobID job = cluster.submit(env -> PerturbJob.build(env, settings(kafka, CONFIG, name, false)), null);
      awaitAccounted(kafka, name, inputs);
      savepoint = cluster.cluster.stopWithSavepoint(job, dir.resolve("savepoints").toUri().toString(), false,
          SavepointFormatType.CANONICAL).get();
    }
    assertThat(committed(kafka, name + "-out")).as("4 records per user fit in any period").hasSize(inputs);
    // Four more per user stamped on four past days, and two of user-0 stamped in 2030.
    inputs += produce(kafka, name + "-raw", "b", 3, 4, i -> JAN_1 - (i + 1) * DAY);
    inputs += produce(kafka, name + "-raw", "c", 1, 2, i -> FUTURE + i * DAY);
    int mark = CapturingReporter.mark();
    try (TestCluster cluster = new TestCluster(1, 4)) {
      JobID job = cluster.submit(env -> PerturbJob.build(env, settings(kafka, CONFIG, name, false)), savepoint);
      awaitAccounted(kafka, name, inputs);
      cluster.cluster.cancelJob(job).get();
    }
    Map<String, Integer> expected = capped(appendedPerUserAndPeriod(kafka, name + "-raw", start - 60_000,
        System.currentTimeMillis() + 60_000));
    List<ConsumerRecord<byte[], byte[]>> out = committed(kafka, name + "-out");
    assertThat(releasedPerUserAndPeriod(out)).isEqualTo(expected);
    int released = expected.values().stream().mapToInt(Integer::intValue).sum();
    assertThat(released).as("within one day: 5 per user").isBetween(15, 26);
    List<ConsumerRecord<byte[], byte[]>> dead = committed(kafka, name + "-dead");
    assertThat(dead).hasSize(inputs - released);
    assertDeadLetters(dead, name + "-raw", "budget-exhausted");
    // The restored job's metrics count the records it released, not those it perturbed.
    assertThat(sum(mark, "recordsPerturbed")).isEqualTo(released - 12);
    assertThat(sum(mark, "epsilonSpent")).isEqualTo(2.0 * (released - 12));
  }

  @Test
  void forgedTimestampsBuyNoBudgetAcrossARestoreFromACheckpointAfterAFailure(KafkaFixture kafka) throws Exception {
    String name = "checkpoint";
    createTopics(kafka, name, LOG_APPEND_TIME);
    long start = System.currentTimeMillis();
    // 200 records per user, each stamped by the producer on a different past day.
    int inputs = produce(kafka, name + "-raw", "r", 3, 200, i -> JAN_1 - i * DAY);
    try (TestCluster cluster = new TestCluster(2, 1)) {
      JobID job = cluster.submit(env -> PerturbJob.build(env, settings(kafka, CONFIG, name, true),
          in -> Hooks.throttled(in, 5000)), null);
      // Mid-stream: once dead letters flow (the budgets are spent), kill a task manager.
      long deadline = System.nanoTime() + DEADLINE.toNanos();
      while (kafka.consumeAll(name + "-dead", false, READ).size() < 30) {
        assertThat(System.nanoTime() - deadline).as("dead letters before the failure within %s", DEADLINE).isNegative();
        Thread.sleep(200);
      }
      cluster.cluster.terminateTaskManager(0).get();
      cluster.cluster.startTaskManager();
      assertThat(cluster.await(job, DEADLINE).isSuccess()).isTrue();
    }
    awaitAccounted(kafka, name, inputs);
    Map<String, Integer> expected = capped(appendedPerUserAndPeriod(kafka, name + "-raw", start - 60_000,
        System.currentTimeMillis() + 60_000));
    assertThat(releasedPerUserAndPeriod(committed(kafka, name + "-out"))).isEqualTo(expected);
    int released = expected.values().stream().mapToInt(Integer::intValue).sum();
    assertThat(released).isBetween(15, 30);
    List<ConsumerRecord<byte[], byte[]>> dead = committed(kafka, name + "-dead");
    assertThat(dead).hasSize(inputs - released);
    assertDeadLetters(dead, name + "-raw", "budget-exhausted");
  }

  @Test
  void onACreateTimeTopicTheLogAppendClockRefusesEveryRecordAndIngestionTimeCapsTheForger(KafkaFixture kafka)
      throws Exception {
    createTopics(kafka, "createtime", Map.of());
    createTopics(kafka, "ingestion", Map.of());
    int refused = produce(kafka, "createtime-raw", "t", 3, 6, i -> JAN_1 - i * DAY);
    // Eight records per user stamped on seven past days and the next half hour (a CreateTime topic
    // refuses stamps over an hour ahead: message.timestamp.after.max.ms).
    long soon = System.currentTimeMillis() + 30 * 60_000L;
    int capped = produce(kafka, "ingestion-raw", "g", 3, 8, i -> i == 7 ? soon : JAN_1 - i * DAY);
    long firstDay = Math.floorDiv(System.currentTimeMillis(), DAY);
    try (TestCluster cluster = new TestCluster(1, 4)) {
      JobID job = cluster.submit(env -> PerturbJob.build(env, settings(kafka, CONFIG, "createtime", true)), null);
      assertThat(cluster.await(job, DEADLINE).isSuccess()).isTrue();
      job = cluster.submit(env -> PerturbJob.build(env, settings(kafka, INGESTION_CONFIG, "ingestion", true)), null);
      assertThat(cluster.await(job, DEADLINE).isSuccess()).isTrue();
    }
    awaitAccounted(kafka, "createtime", refused);
    assertThat(committed(kafka, "createtime-out")).isEmpty();
    List<ConsumerRecord<byte[], byte[]>> untrusted = committed(kafka, "createtime-dead");
    assertDeadLetters(untrusted, "createtime-raw", "untrusted-time");
    assertThat(JSON.readTree(untrusted.get(0).value()).get("message").asText())
        .contains("CreateTime", "topic createtime-raw", "message.timestamp.type=LogAppendTime");

    awaitAccounted(kafka, "ingestion", capped);
    long days = Math.floorDiv(System.currentTimeMillis(), DAY) - firstDay + 1;
    Map<String, Integer> perUser = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : committed(kafka, "ingestion-out")) {
      perUser.merge(JSON.readTree(r.value()).get("id").asText().split("-")[1], 1, Integer::sum);
    }
    assertThat(perUser).hasSize(3);
    if (days == 1) {
      assertThat(perUser).containsOnly(Map.entry("0", 5), Map.entry("1", 5), Map.entry("2", 5));
    } else {
      assertThat(perUser.values()).allSatisfy(n -> assertThat(n).isBetween(PER_PERIOD, (int) days * PER_PERIOD));
    }
    assertDeadLetters(committed(kafka, "ingestion-dead"), "ingestion-raw", "budget-exhausted");
  }
}
