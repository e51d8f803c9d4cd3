package io.ogpm.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.testkit.Await;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import io.ogpm.testkit.PrivacyAssertions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * The contribution bound on a real cluster and broker: a producer sends bursts and forges every
 * record's time; at most 2 of a user's records per 2-second window of the broker's clock reach the
 * committed output (exactly min(n, 2) where the user sent n), across a task manager's kill and a
 * stop with savepoint and restore, and a JobManager's failover, each input once in the output or
 * the dead letters.
 */
class ContributionIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV =
      LdpTestEnvironment.builder()
          .taskManagers(2)
          .slotsPerTaskManager(1)
          .flinkConfiguration(FaultToleranceIT.restarts())
          .jobManagerFailover()
          .build();

  static final int PER_WINDOW = 2;
  static final long WINDOW = 2_000;
  static final String BOUND = "contribution: {records: 2, window: 2s}\n";
  static final PrivacyConfig CONFIG = PrivacyConfig.parse(BudgetIT.FIELDS + BOUND);

  /** With a budget after the bound, wide enough never to bind here. */
  static final PrivacyConfig WITH_BUDGET =
      PrivacyConfig.parse(BudgetIT.FIELDS + BOUND + "budget: {epsilon: 1000, period: P1D}\n");

  /**
   * {@code bursts} bursts, 700 ms apart, of {@code perUser} records for each of {@code users}
   * users; the producer stamps them alternately in 2026's January and in 2030, and the broker's
   * LogAppendTime replaces both.
   */
  static List<KafkaRecord> bursts(
      KafkaFixture kafka, String topic, String prefix, int users, int perUser, int bursts)
      throws InterruptedException {
    List<KafkaRecord> inputs = new ArrayList<>();
    for (int b = 0; b < bursts; b++) {
      inputs.addAll(
          BudgetIT.produce(
              kafka,
              topic,
              prefix + b,
              users,
              perUser,
              i -> i % 2 == 0 ? BudgetIT.JAN_1 : BudgetIT.FUTURE));
      Thread.sleep(700);
    }
    return inputs;
  }

  /** What the bound may release per "user/window" of the broker's times: min(n, 2). */
  static Map<String, Integer> boundedPerUserAndWindow(KafkaFixture kafka, String topic) {
    Map<String, Integer> counts = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : kafka.consumeAll(topic, true, KafkaFixture.PATIENCE)) {
      assertThat(r.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
      counts.merge(
          new String(r.key(), StandardCharsets.UTF_8) + "/" + Math.floorDiv(r.timestamp(), WINDOW),
          1,
          Integer::sum);
    }
    counts.replaceAll((k, n) -> Math.min(n, PER_WINDOW));
    return counts;
  }

  /** Released records per "user/window", the window read from the output's time (the input's). */
  static Map<String, Integer> releasedPerUserAndWindow(List<KafkaRecord> out) throws Exception {
    Map<String, Integer> counts = new HashMap<>();
    for (KafkaRecord r : out) {
      String[] id = BudgetIT.JSON.readTree(r.value()).get("id").asText().split("-");
      counts.merge("user-" + id[1] + "/" + Math.floorDiv(r.timestamp(), WINDOW), 1, Integer::sum);
    }
    return counts;
  }

  /** Every user and window as the bound allows, each input once, nothing of a value outside. */
  static void assertBounded(
      KafkaFixture kafka, String name, PrivacyConfig config, List<KafkaRecord> inputs)
      throws Exception {
    Map<String, Integer> expected = boundedPerUserAndWindow(kafka, name + "-raw");
    List<KafkaRecord> out = BudgetIT.committed(kafka, name + "-out");
    assertThat(releasedPerUserAndWindow(out)).isEqualTo(expected);
    int released = expected.values().stream().mapToInt(Integer::intValue).sum();
    List<KafkaRecord> dead = BudgetIT.committed(kafka, name + "-dead");
    assertThat(dead).hasSize(inputs.size() - released);
    BudgetIT.assertDeadLetters(dead, name + "-raw", "contribution-bound");
    PrivacyAssertions.assertPrivacyContract(config, inputs, out, dead);
    assertThat(out)
        .extracting(r -> r.header(ConfigFingerprint.HEADER))
        .containsOnly(ConfigFingerprint.of(config).value());
  }

  /**
   * The records were appended before the job started: it reads a backlog whose windows are all in
   * the past by the job's clock, and must place each in its own window.
   */
  @Test
  void aKilledTaskManagerLetsNoUserPastTheBoundInAnyWindow() throws Exception {
    String name = "contribution-kill";
    KafkaFixture kafka = ENV.kafka();
    BudgetIT.createTopics(kafka, name, false);
    List<KafkaRecord> inputs = bursts(kafka, name + "-raw", "k", 6, 5, 8);
    StreamExecutionEnvironment env = ENV.executionEnvironment();
    PerturbJob.build(
        env, BudgetIT.settings(kafka, WITH_BUDGET, name, true), in -> Hooks.throttled(in, 40_000));
    JobClient job = env.executeAsync("contribution bound killed mid-stream");
    Await.jobStatus(job, JobStatus.RUNNING);
    Await.until(
        "20 dead letters before the failure (uncommitted included)",
        () -> kafka.readUncommitted(name + "-dead").size(),
        n -> n >= 20);
    ENV.miniCluster().terminateTaskManager(0).get();
    ENV.miniCluster().startTaskManager();
    assertThat(job.getJobExecutionResult())
        .as("the job's result")
        .succeedsWithin(KafkaFixture.PATIENCE);
    BudgetIT.awaitAccounted(kafka, name, inputs.size());
    assertBounded(kafka, name, WITH_BUDGET, inputs);
  }

  /**
   * The job's JobManager fails over while windows hold chosen records and the devices keep sending:
   * the new one recovers the job from its latest checkpoint, reservoirs and timers included.
   */
  @Test
  void aJobManagerFailoverLetsNoUserPastTheBoundInAnyWindow() throws Exception {
    String name = "contribution-jobmanager";
    KafkaFixture kafka = ENV.kafka();
    BudgetIT.createTopics(kafka, name, false);
    List<KafkaRecord> inputs = new ArrayList<>(bursts(kafka, name + "-raw", "a", 4, 5, 3));
    JobClient job =
        BudgetIT.submit(
            ENV.executionEnvironment(),
            BudgetIT.settings(kafka, WITH_BUDGET, name, false),
            "contribution bound, its JobManager failed over");
    try {
      Await.until(
          "20 dead letters committed",
          () -> kafka.readCommitted(name + "-dead").size(),
          n -> n >= 20);
      ENV.failOverJobManager(job.getJobID());
      inputs.addAll(bursts(kafka, name + "-raw", "b", 4, 5, 3));
      BudgetIT.awaitAccounted(kafka, name, inputs.size());
      // The new JobManager restored a checkpoint: the reservoirs went on, not started afresh.
      assertThat(
              ENV.miniCluster()
                  .getExecutionGraph(job.getJobID())
                  .get()
                  .getCheckpointStatsSnapshot()
                  .getLatestRestoredCheckpoint())
          .as("the checkpoint the new JobManager restored")
          .isNotNull();
    } finally {
      job.cancel().get();
    }
    assertBounded(kafka, name, WITH_BUDGET, inputs);
  }

  /**
   * Stopped with a savepoint while windows hold chosen records, restored after more bursts: the
   * held records leave once, with the restored job's, never more than 2 per user and window.
   */
  @Test
  void aStopWithSavepointAndARestoreLetNoUserPastTheBoundInAnyWindow(@TempDir Path dir)
      throws Exception {
    String name = "contribution-savepoint";
    KafkaFixture kafka = ENV.kafka();
    BudgetIT.createTopics(kafka, name, false);
    List<KafkaRecord> inputs = new ArrayList<>(bursts(kafka, name + "-raw", "a", 4, 5, 4));
    JobClient job =
        BudgetIT.submit(
            ENV.executionEnvironment(),
            BudgetIT.settings(kafka, CONFIG, name, false),
            "contribution bound before the savepoint");
    String savepoint;
    try {
      // Records beyond the bound are refused at once; the last window's chosen ones stay held
      // until event time passes it (10 s of silence at the end of the input).
      Await.until(
          "20 dead letters committed",
          () -> kafka.readCommitted(name + "-dead").size(),
          n -> n >= 20);
      savepoint =
          job.stopWithSavepoint(
                  false,
                  dir.resolve("savepoints").toUri().toString(),
                  SavepointFormatType.CANONICAL)
              .get();
    } catch (AssertionError | RuntimeException e) {
      job.cancel().get();
      throw e;
    }
    inputs.addAll(bursts(kafka, name + "-raw", "b", 4, 5, 4));
    Configuration restore = new Configuration();
    restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
    job =
        BudgetIT.submit(
            StreamExecutionEnvironment.getExecutionEnvironment(restore),
            BudgetIT.settings(kafka, CONFIG, name, false),
            "contribution bound restored from the savepoint");
    try {
      BudgetIT.awaitAccounted(kafka, name, inputs.size());
    } finally {
      job.cancel().get();
    }
    assertBounded(kafka, name, CONFIG, inputs);
    assertAlignedWindowsSeeEveryRecord(kafka, name);
  }

  /**
   * The aggregate job over the bounded output, its windows the bound's (2 s, aligned), with no
   * out-of-orderness allowed: a window's chosen records leave together once it closes, so every one
   * is counted in its own window, none late, and each window states its per-user bound.
   */
  static void assertAlignedWindowsSeeEveryRecord(KafkaFixture kafka, String name) throws Exception {
    kafka.createTopic(name + "-stats", 1);
    StreamExecutionEnvironment env = ENV.executionEnvironment();
    AggregateJob.build(
        env,
        AggregateJob.Settings.builder()
            .aggregation(a -> a.config(CONFIG).window(java.time.Duration.ofMillis(WINDOW)).bins(4))
            .kafka(io.ogpm.flink.kafka.KafkaSettings.of(kafka.bootstrapServers()))
            .inputTopic(name + "-out")
            .outputTopic(name + "-stats")
            .groupId(name + "-aggregate")
            .transactionalIdPrefix(name + "-aggregate")
            .outOfOrderness(java.time.Duration.ZERO)
            .checkpointInterval(java.time.Duration.ofMillis(300))
            .bounded(true)
            .parallelism(2)
            .build());
    String job = "aggregation of the bounded output";
    env.execute(job);
    Map<Long, Long> released = new HashMap<>();
    for (KafkaRecord r : BudgetIT.committed(kafka, name + "-out")) {
      released.merge(Math.floorDiv(r.timestamp(), WINDOW) * WINDOW, 1L, Long::sum);
    }
    Map<Long, Long> counted = new HashMap<>();
    for (KafkaRecord r : BudgetIT.committed(kafka, name + "-stats")) {
      var stat = BudgetIT.JSON.readTree(r.value());
      if (stat.get("field").asText().equals("x")) {
        counted.put(
            java.time.Instant.parse(stat.get("windowStart").asText()).toEpochMilli(),
            stat.get("count").asLong());
        assertThat(stat.get("userEpsilonBound").asDouble()).isEqualTo(4.0); // 2 records of 2
      }
    }
    assertThat(counted).isEqualTo(released);
    // The job's metrics are the ones read: its estimates counted, none of its records late.
    assertThat(ENV.metrics().ofJob(job).counter("windowEstimates")).isPositive();
    assertThat(ENV.metrics().ofJob(job).counter("lateRecords")).isZero();
  }
}
