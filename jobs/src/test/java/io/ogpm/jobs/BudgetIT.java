package io.ogpm.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.testkit.Await;
import io.ogpm.testkit.CapturedMetrics;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import io.ogpm.testkit.PrivacyAssertions;
import io.ogpm.testkit.TestRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToLongFunction;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-user budget (10 per day, 2 per record: 5 records per user per day) on a real broker and a
 * MiniCluster, against a producer who forges its records' timestamps (alternating days, past days,
 * future days) to buy a fresh budget per record: on a raw topic with
 * message.timestamp.type=LogAppendTime the broker's time decides, and the budget holds across a
 * stop with savepoint and restore and across a restore from a checkpoint after a killed task
 * manager. On a CreateTime topic the log-append clock refuses every record; the ingestion-time
 * clock caps the forger there too.
 *
 * <p>Expectations are computed from the broker's own timestamps read back from the raw topic, so a
 * run that crosses midnight UTC (two budget periods) is judged right too. Every wait is for a
 * condition (every input accounted for), with a deadline of minutes.
 */
class BudgetIT {
  /**
   * Two task managers with one slot each: at parallelism 2 each runs one subtask of every operator
   * (slot sharing), so killing either is sure to hit the job; the fault tests' quick restarts.
   */
  @RegisterExtension
  static final LdpTestEnvironment ENV =
      LdpTestEnvironment.builder()
          .taskManagers(2)
          .slotsPerTaskManager(1)
          .flinkConfiguration(FaultToleranceIT.restarts())
          .build();

  static final String FIELDS =
      """
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
  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(FIELDS + "budget: {epsilon: 10, period: P1D}\n");
  static final PrivacyConfig INGESTION_CONFIG =
      PrivacyConfig.parse(FIELDS + "budget: {epsilon: 10, period: P1D, clock: ingestion-time}\n");
  static final int PER_PERIOD = 5;
  static final long DAY = Duration.ofDays(1).toMillis();
  static final ObjectMapper JSON = new ObjectMapper();

  /** Timestamps the producer forges. */
  static final long JAN_1 = Instant.parse("2026-01-01T12:00:00Z").toEpochMilli();

  static final long FUTURE = Instant.parse("2030-06-01T12:00:00Z").toEpochMilli();

  /**
   * The raw topic (stamped by the broker: LogAppendTime, unless {@code createTime}), the output and
   * the dead-letter topic of a test.
   */
  static void createTopics(KafkaFixture kafka, String name, boolean createTime) {
    if (createTime) {
      kafka.createTopic(name + "-raw", 2);
    } else {
      kafka.createRawTopic(name + "-raw", 2);
    }
    kafka.createTopic(name + "-out", 2);
    kafka.createTopic(name + "-dead", 1);
  }

  /**
   * Writes {@code perUser} records for each of {@code users} users, keyed by user (so one user's
   * records share a partition); the i-th record of a user is stamped by the producer with {@code
   * forged(i)}. Returns where they landed.
   */
  static List<KafkaRecord> produce(
      KafkaFixture kafka,
      String topic,
      String prefix,
      int users,
      int perUser,
      IntToLongFunction forged) {
    List<TestRecord> records = new ArrayList<>();
    for (int i = 0; i < perUser; i++) {
      for (int u = 0; u < users; u++) {
        String json =
            "{\"id\":\""
                + prefix
                + "-"
                + u
                + "-"
                + i
                + "\",\"user\":\"user-"
                + u
                + "\",\"x\":0.5,\"y\":0.25}";
        records.add(
            TestRecord.json(json).withKey("user-" + u).withTimestamp(forged.applyAsLong(i)));
      }
    }
    return kafka.produceRecords(topic, records);
  }

  static List<KafkaRecord> committed(KafkaFixture kafka, String topic) {
    return kafka.readCommitted(topic);
  }

  /**
   * Waits until {@code inputs} records are in the committed output and dead-letter topics together.
   */
  static void awaitAccounted(KafkaFixture kafka, String name, int inputs) {
    Map<String, List<KafkaRecord>> read =
        kafka.awaitCommitted(inputs, name + "-out", name + "-dead");
    assertThat(read.get(name + "-out").size() + read.get(name + "-dead").size())
        .as("each input once")
        .isEqualTo(inputs);
  }

  static PerturbJob.Settings settings(
      KafkaFixture kafka, PrivacyConfig config, String name, boolean bounded) {
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
  private static Map<String, Integer> appendedPerUserAndPeriod(
      KafkaFixture kafka, String topic, long from, long to) {
    Map<String, Integer> counts = new HashMap<>();
    // Read as consumer records: a KafkaRecord has the timestamp but not its type.
    for (ConsumerRecord<byte[], byte[]> r : kafka.consumeAll(topic, true, KafkaFixture.PATIENCE)) {
      assertThat(r.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
      assertThat(r.timestamp()).isBetween(from, to);
      counts.merge(
          new String(r.key(), StandardCharsets.UTF_8) + "/" + Math.floorDiv(r.timestamp(), DAY),
          1,
          Integer::sum);
    }
    return counts;
  }

  /** What the budget may release: the first 5 records of each user and period. */
  private static Map<String, Integer> capped(Map<String, Integer> appended) {
    Map<String, Integer> out = new HashMap<>();
    appended.forEach((k, n) -> out.put(k, Math.min(n, PER_PERIOD)));
    return out;
  }

  /**
   * Released records per "user/period", the period read from the output's timestamp (the input's).
   */
  private static Map<String, Integer> releasedPerUserAndPeriod(List<KafkaRecord> out)
      throws Exception {
    Map<String, Integer> counts = new HashMap<>();
    for (KafkaRecord r : out) {
      String[] id = JSON.readTree(r.value()).get("id").asText().split("-");
      counts.merge("user-" + id[1] + "/" + Math.floorDiv(r.timestamp(), DAY), 1, Integer::sum);
    }
    return counts;
  }

  static void assertDeadLetters(List<KafkaRecord> dead, String rawTopic, String reason)
      throws Exception {
    for (KafkaRecord d : dead) {
      JsonNode json = JSON.readTree(d.value());
      assertThat(json.get("reason").asText()).isEqualTo(reason);
      assertThat(json.get("source").get("topic").asText()).isEqualTo(rawTopic);
    }
  }

  /** Builds the perturb job on an environment of the kit's cluster and submits it. */
  static JobClient submit(
      StreamExecutionEnvironment env, PerturbJob.Settings settings, String jobName)
      throws Exception {
    PerturbJob.build(env, settings);
    return env.executeAsync(jobName);
  }

  @Test
  void forgedTimestampsBuyNoBudgetAcrossAStopWithSavepointAndARestore(@TempDir Path dir)
      throws Exception {
    budgetHoldsAcrossAStopWithSavepointAndARestore(ENV, "savepoint", dir);
  }

  /**
   * The budget across a stop with savepoint and a restore, on {@code cluster}'s MiniCluster and
   * state backend.
   */
  static void budgetHoldsAcrossAStopWithSavepointAndARestore(
      LdpTestEnvironment cluster, String name, Path dir) throws Exception {
    KafkaFixture kafka = cluster.kafka();
    createTopics(kafka, name, false);
    long start = System.currentTimeMillis();
    // Four records per user stamped alternately on two days: each day's spending is kept on its
    // own, so a record of one day never resets the other's.
    List<KafkaRecord> inputs =
        new ArrayList<>(produce(kafka, name + "-raw", "a", 3, 4, i -> JAN_1 + (i % 2) * DAY));
    JobClient job =
        submit(
            cluster.executionEnvironment(),
            settings(kafka, CONFIG, name, false),
            "budget before the savepoint");
    try {
      awaitAccounted(kafka, name, inputs.size());
    } catch (AssertionError | RuntimeException e) {
      job.cancel().get(); // it would hold the cluster's slots for the class's next tests
      throw e;
    }
    String savepoint =
        job.stopWithSavepoint(
                false, dir.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
            .get();
    assertThat(committed(kafka, name + "-out"))
        .as("4 records per user fit in any period")
        .hasSize(inputs.size());
    // Four more per user stamped on four past days, and two of user-0 stamped in 2030.
    inputs.addAll(produce(kafka, name + "-raw", "b", 3, 4, i -> JAN_1 - (i + 1) * DAY));
    inputs.addAll(produce(kafka, name + "-raw", "c", 1, 2, i -> FUTURE + i * DAY));
    Configuration restore = new Configuration();
    restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
    String restored = "budget restored from the savepoint";
    job =
        submit(
            StreamExecutionEnvironment.getExecutionEnvironment(restore),
            settings(kafka, CONFIG, name, false),
            restored);
    try {
      awaitAccounted(kafka, name, inputs.size());
    } finally {
      job.cancel().get();
    }
    Map<String, Integer> expected =
        capped(
            appendedPerUserAndPeriod(
                kafka, name + "-raw", start - 60_000, System.currentTimeMillis() + 60_000));
    List<KafkaRecord> out = committed(kafka, name + "-out");
    assertThat(releasedPerUserAndPeriod(out)).isEqualTo(expected);
    int released = expected.values().stream().mapToInt(Integer::intValue).sum();
    assertThat(released).as("within one day: 5 per user").isBetween(15, 26);
    List<KafkaRecord> dead = committed(kafka, name + "-dead");
    assertThat(dead).hasSize(inputs.size() - released);
    assertDeadLetters(dead, name + "-raw", "budget-exhausted");
    PrivacyAssertions.assertPrivacyContract(CONFIG, inputs, out, dead);
    // The budget operator, not the perturb operator, gives the released records the fingerprint.
    assertThat(out)
        .extracting(r -> r.header(ConfigFingerprint.HEADER))
        .containsOnly(ConfigFingerprint.of(CONFIG).value());
    // The restored job's metrics count the records it released, not those it perturbed.
    CapturedMetrics metrics = cluster.metrics().ofJob(restored);
    assertThat(metrics.counter("recordsPerturbed")).isEqualTo(released - 12);
    assertThat(metrics.gauge("epsilonSpent")).isEqualTo(2.0 * (released - 12));
  }

  @Test
  void forgedTimestampsBuyNoBudgetAcrossARestoreFromACheckpointAfterAFailure() throws Exception {
    budgetHoldsAcrossARestoreFromACheckpointAfterAFailure(ENV, "checkpoint");
  }

  /**
   * The budget across a restore from the last checkpoint after a killed task manager, on {@code
   * cluster}'s cluster (two task managers) and state backend.
   */
  static void budgetHoldsAcrossARestoreFromACheckpointAfterAFailure(
      LdpTestEnvironment cluster, String name) throws Exception {
    KafkaFixture kafka = cluster.kafka();
    createTopics(kafka, name, false);
    long start = System.currentTimeMillis();
    // 200 records per user, each stamped by the producer on a different past day.
    List<KafkaRecord> inputs = produce(kafka, name + "-raw", "r", 3, 200, i -> JAN_1 - i * DAY);
    StreamExecutionEnvironment env = cluster.executionEnvironment();
    PerturbJob.build(env, settings(kafka, CONFIG, name, true), in -> Hooks.throttled(in, 5000));
    JobClient job = env.executeAsync("budget killed mid-stream");
    Await.jobStatus(job, JobStatus.RUNNING);
    // Mid-stream: once dead letters flow (the budgets are spent), kill a task manager.
    Await.until(
        "30 dead letters before the failure (uncommitted included)",
        () -> kafka.readUncommitted(name + "-dead").size(),
        n -> n >= 30);
    cluster.miniCluster().terminateTaskManager(0).get();
    cluster.miniCluster().startTaskManager();
    assertThat(job.getJobExecutionResult())
        .as("the job's result")
        .succeedsWithin(KafkaFixture.PATIENCE);
    awaitAccounted(kafka, name, inputs.size());
    Map<String, Integer> expected =
        capped(
            appendedPerUserAndPeriod(
                kafka, name + "-raw", start - 60_000, System.currentTimeMillis() + 60_000));
    List<KafkaRecord> out = committed(kafka, name + "-out");
    assertThat(releasedPerUserAndPeriod(out)).isEqualTo(expected);
    int released = expected.values().stream().mapToInt(Integer::intValue).sum();
    assertThat(released).isBetween(15, 30);
    List<KafkaRecord> dead = committed(kafka, name + "-dead");
    assertThat(dead).hasSize(inputs.size() - released);
    assertDeadLetters(dead, name + "-raw", "budget-exhausted");
    PrivacyAssertions.assertPrivacyContract(CONFIG, inputs, out, dead);
  }

  @Test
  void onACreateTimeTopicTheLogAppendClockRefusesEveryRecordAndIngestionTimeCapsTheForger()
      throws Exception {
    KafkaFixture kafka = ENV.kafka();
    createTopics(kafka, "createtime", true);
    createTopics(kafka, "ingestion", true);
    List<KafkaRecord> refused = produce(kafka, "createtime-raw", "t", 3, 6, i -> JAN_1 - i * DAY);
    // Eight records per user stamped on seven past days and the next half hour (a CreateTime topic
    // refuses stamps over an hour ahead: message.timestamp.after.max.ms).
    long soon = System.currentTimeMillis() + 30 * 60_000L;
    List<KafkaRecord> capped =
        produce(kafka, "ingestion-raw", "g", 3, 8, i -> i == 7 ? soon : JAN_1 - i * DAY);
    long firstDay = Math.floorDiv(System.currentTimeMillis(), DAY);
    StreamExecutionEnvironment env = ENV.executionEnvironment();
    PerturbJob.build(env, settings(kafka, CONFIG, "createtime", true));
    env.execute("budget on a CreateTime topic");
    env = ENV.executionEnvironment();
    PerturbJob.build(env, settings(kafka, INGESTION_CONFIG, "ingestion", true));
    env.execute("budget on ingestion time");

    awaitAccounted(kafka, "createtime", refused.size());
    assertThat(committed(kafka, "createtime-out")).isEmpty();
    List<KafkaRecord> untrusted = committed(kafka, "createtime-dead");
    assertDeadLetters(untrusted, "createtime-raw", "untrusted-time");
    assertThat(JSON.readTree(untrusted.get(0).value()).get("message").asText())
        .contains("CreateTime", "topic createtime-raw", "message.timestamp.type=LogAppendTime");
    PrivacyAssertions.assertPrivacyContract(CONFIG, refused, List.of(), untrusted);

    awaitAccounted(kafka, "ingestion", capped.size());
    long days = Math.floorDiv(System.currentTimeMillis(), DAY) - firstDay + 1;
    Map<String, Integer> perUser = new HashMap<>();
    List<KafkaRecord> out = committed(kafka, "ingestion-out");
    for (KafkaRecord r : out) {
      perUser.merge(JSON.readTree(r.value()).get("id").asText().split("-")[1], 1, Integer::sum);
    }
    assertThat(perUser).hasSize(3);
    if (days == 1) {
      assertThat(perUser).containsOnly(Map.entry("0", 5), Map.entry("1", 5), Map.entry("2", 5));
    } else {
      assertThat(perUser.values())
          .allSatisfy(n -> assertThat(n).isBetween(PER_PERIOD, (int) days * PER_PERIOD));
    }
    List<KafkaRecord> dead = committed(kafka, "ingestion-dead");
    assertDeadLetters(dead, "ingestion-raw", "budget-exhausted");
    PrivacyAssertions.assertPrivacyContract(INGESTION_CONFIG, capped, out, dead);
  }
}
