package io.ogpm.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.testkit.Await;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import io.ogpm.testkit.TestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Sliding windows, allowed lateness and the emission policy of the aggregate job, on a real broker
 * and a MiniCluster. Watermarks are periodic, so the test feeds the topic in phases and waits for
 * each phase's committed output before the next: a record is late only relative to a watermark the
 * job has already acted on.
 *
 * <p>Windows of 10 s sliding by 5 s, 5 s allowed lateness, no out-of-orderness. Flink's rules: a
 * window is emitted when the watermark passes its end; a record too late for one of its windows but
 * not for the other is dropped from the first silently; a record too late for all its windows is
 * dropped and counted as {@code lateRecords}. The emission policy: records within the lateness
 * update their window at most once per late-update interval (not once per record, as Flink's
 * trigger would), and once more at the end of the lateness if they changed it since; each emission
 * holds all the window's records.
 */
class WindowSemanticsIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV = LdpTestEnvironment.builder().parallelism(1).build();

  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      passthrough: [ts]
      fields:
        - name: x
          min: 0.0
          max: 1.0
          epsilon: 1.0
      """);
  static final ObjectMapper JSON = new ObjectMapper();
  static final long T0 = 1_700_000_000_000L - 1_700_000_000_000L % 10_000;

  static AggregateJob.Settings settings(
      KafkaFixture kafka, String in, String out, Duration lateUpdateInterval) {
    return AggregateJob.Settings.builder()
        .aggregation(
            a ->
                a.config(CONFIG)
                    .window(Duration.ofSeconds(10))
                    .slide(Duration.ofSeconds(5))
                    .allowedLateness(Duration.ofSeconds(5))
                    .lateUpdateInterval(lateUpdateInterval)
                    .bins(10)
                    .method(io.ogpm.flink.EstimationMethod.RAW))
        .kafka(KafkaSettings.of(kafka.bootstrapServers()))
        .inputTopic(in)
        .outputTopic(out)
        .groupId(in)
        .transactionalIdPrefix(in)
        .timeField("ts")
        .outOfOrderness(Duration.ZERO)
        .idleTimeout(Duration.ofMinutes(5))
        .checkpointInterval(Duration.ofMillis(300))
        .parallelism(1)
        .build();
  }

  @Test
  void lateRecordsWithinTheLatenessUpdateTheirWindowOnceAndTheRestAreCounted() throws Exception {
    KafkaFixture kafka = ENV.kafka();
    kafka.createTopic("win-in", 1);
    kafka.createTopic("win-stats", 1);
    String name = "windows with late updates";
    JobClient job = start(name, settings(kafka, "win-in", "win-stats", Duration.ofSeconds(2)));
    try {
      // 20 records at 1 s and 20 at 7 s; one at 12 s moves the watermark to 12 s: the windows
      // ending at 5 s and 10 s are emitted.
      produce(kafka, "win-in", records(1_000, 20));
      produce(kafka, "win-in", records(7_000, 20));
      produce(kafka, "win-in", records(12_000, 1));
      awaitStats(
          kafka,
          "win-stats",
          s -> s.contains(window(0, 10_000, 40)) && s.contains(window(-5_000, 5_000, 20)));

      // 5 records at 3 s: too late for [-5 s, 5 s) (its lateness ended at 10 s), within the
      // lateness
      // of [0 s, 10 s), which is emitted again once, 2 s (of processing time) after the first of
      // them reached it, with all 45 records.
      produce(kafka, "win-in", records(3_000, 5));
      awaitStats(kafka, "win-stats", s -> s.contains(window(0, 10_000, 45)));

      // One record at 30 s: the windows up to 20 s are emitted, and every lateness up to 25 s
      // ends (no window changed since its last emission: nothing more); then 4 records at 3 s are
      // too late for both their windows and are counted.
      produce(kafka, "win-in", records(30_000, 1));
      awaitStats(
          kafka,
          "win-stats",
          s -> s.contains(window(5_000, 15_000, 21)) && s.contains(window(10_000, 20_000, 1)));
      produce(kafka, "win-in", records(3_000, 4));
      Await.until(
          "4 late records counted",
          () -> ENV.metrics().ofJob(name).counter("lateRecords"),
          n -> n >= 4);
      assertThat(ENV.metrics().ofJob(name).counter("lateRecords")).isEqualTo(4);

      List<String> stats = stats(kafka, "win-stats");
      assertThat(stats)
          .containsExactlyInAnyOrder(
              window(-5_000, 5_000, 20),
              window(0, 10_000, 40),
              window(0, 10_000, 45),
              window(5_000, 15_000, 21),
              window(10_000, 20_000, 1));
    } finally {
      job.cancel().get();
    }
  }

  /**
   * With a late-update interval longer than the test, late records reach the stats topic only at
   * the end of their window's lateness: once, with all of them. Tumbling windows of 5 s, 7 s of
   * lateness.
   */
  @Test
  void aWindowChangedByLateRecordsIsEmittedOnceMoreAtTheEndOfItsLateness() throws Exception {
    KafkaFixture kafka = ENV.kafka();
    kafka.createTopic("end-in", 1);
    kafka.createTopic("end-stats", 1);
    AggregateJob.Settings settings =
        settings(kafka, "end-in", "end-stats", Duration.ofHours(1)).toBuilder()
            .aggregation(
                a ->
                    a.window(Duration.ofSeconds(5))
                        .slide(null)
                        .allowedLateness(Duration.ofSeconds(7)))
            .build();
    JobClient job = start("windows emitted at the end of their lateness", settings);
    try {
      produce(kafka, "end-in", records(1_000, 10));
      produce(kafka, "end-in", records(6_000, 1));
      awaitStats(kafka, "end-stats", s -> s.contains(window(0, 5_000, 10)));
      // Three late records for [0 s, 5 s) one by one, then the watermark to 11 s: [5 s, 10 s) is
      // emitted, and [0 s, 5 s) is still within its lateness (it ends at 12 s): not emitted.
      for (int i = 0; i < 3; i++) {
        produce(kafka, "end-in", records(2_000, 1));
      }
      produce(kafka, "end-in", records(11_000, 1));
      awaitStats(kafka, "end-stats", s -> s.contains(window(5_000, 10_000, 1)));
      assertThat(stats(kafka, "end-stats"))
          .containsExactlyInAnyOrder(window(0, 5_000, 10), window(5_000, 10_000, 1));
      // The watermark reaches 12 s: the window's lateness is over, and it is emitted with all 13.
      produce(kafka, "end-in", records(12_000, 1));
      awaitStats(kafka, "end-stats", s -> s.contains(window(0, 5_000, 13)));
      assertThat(stats(kafka, "end-stats"))
          .containsExactlyInAnyOrder(
              window(0, 5_000, 10), window(5_000, 10_000, 1), window(0, 5_000, 13));
    } finally {
      job.cancel().get();
    }
  }

  /**
   * Starts the aggregate job on the environment's cluster and waits until it runs: the test's
   * phases are produced while it does.
   */
  private static JobClient start(String name, AggregateJob.Settings settings) throws Exception {
    StreamExecutionEnvironment env = ENV.executionEnvironment();
    AggregateJob.build(env, settings);
    JobClient job = env.executeAsync(name);
    Await.jobStatus(job, JobStatus.RUNNING);
    return job;
  }

  /**
   * Produces perturbed records of {@link #CONFIG}: with its fingerprint, as the perturb job writes
   * them.
   */
  static void produce(KafkaFixture kafka, String topic, List<String> values) {
    String fingerprint = ConfigFingerprint.of(CONFIG).value();
    kafka.produceRecords(
        topic,
        values.stream()
            .map(v -> TestRecord.json(v).withHeader(ConfigFingerprint.HEADER, fingerprint))
            .toList());
  }

  private static List<String> records(long offsetMillis, int count) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add("{\"ts\":" + (T0 + offsetMillis) + ",\"x\":0.5}");
    }
    return out;
  }

  /** A window's start, end (relative to T0) and count, as the test compares them. */
  private static String window(long start, long end, long count) {
    return Instant.ofEpochMilli(T0 + start) + " " + Instant.ofEpochMilli(T0 + end) + " " + count;
  }

  private static List<String> stats(KafkaFixture kafka, String topic) {
    List<String> out = new ArrayList<>();
    for (KafkaRecord r : kafka.readCommitted(topic)) {
      JsonNode s;
      try {
        s = JSON.readTree(r.value());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      out.add(
          s.get("windowStart").asText()
              + " "
              + s.get("windowEnd").asText()
              + " "
              + s.get("count").asLong());
    }
    return out;
  }

  private static void awaitStats(
      KafkaFixture kafka, String topic, Predicate<List<String>> condition) {
    Await.until("window statistics in " + topic, () -> stats(kafka, topic), condition);
  }
}
