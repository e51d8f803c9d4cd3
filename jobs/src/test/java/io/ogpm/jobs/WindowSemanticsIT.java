package io.ogpm.jobs;

import io.ogpm.flink.kafka.KafkaSettings;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaFixtureExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.flink.api.common.JobID;
import org.apache.flink.metrics.Counter;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sliding windows and allowed lateness in the aggregate job, on a real broker and a MiniCluster.
 * Watermarks are periodic, so the test feeds the topic in phases and waits for each phase's
 * committed output before the next: a record is late only relative to a watermark the job has
 * already acted on.
 *
 * <p>Windows of 10 s sliding by 5 s, 5 s allowed lateness, no out-of-orderness. Flink's rules: a
 * window fires when the watermark passes its end, and again, with all its records, for each record
 * that arrives within the lateness; a record too late for one of its windows but not for the other
 * is dropped from the first silently; a record too late for all its windows goes to the late side
 * output, which the job counts as {@code lateRecords}.
 */
@ExtendWith(KafkaFixtureExtension.class)
class WindowSemanticsIT {
  static final PrivacyConfig CONFIG = PrivacyConfig.parse("""
      passthrough: [ts]
      fields:
        - name: x
          min: 0.0
          max: 1.0
          epsilon: 1.0
      """);
  static final ObjectMapper JSON = new ObjectMapper();
  static final long T0 = 1_700_000_000_000L - 1_700_000_000_000L % 10_000;

  @Test
  void slidingWindowsRefireForLateRecordsWithinTheLatenessAndCountTheRest(KafkaFixture kafka) throws Exception {
    kafka.createTopic("win-in", 1, Map.of());
    kafka.createTopic("win-stats", 1, Map.of());
    try (TestCluster cluster = new TestCluster(1, 1)) {
      int metricsMark = CapturingReporter.mark();
      JobID job = cluster.submit(env -> AggregateJob.build(env, new AggregateJob.Settings(CONFIG,
          KafkaSettings.of(kafka.bootstrapServers()), "win-in", "win-stats", "win-test", "win-test", null, "ts",
          Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ZERO, Duration.ofMinutes(5),
          10, false, false, Duration.ofMillis(300), 1)), null);
      cluster.awaitRunning(job, KafkaFixture.PATIENCE);

      // 20 records at 1 s and 20 at 7 s; one at 12 s moves the watermark to 12 s: the windows
      // ending at 5 s and 10 s fire.
      kafka.produce("win-in", records(1_000, 20));
      kafka.produce("win-in", records(7_000, 20));
      kafka.produce("win-in", records(12_000, 1));
      awaitStats(kafka, s -> s.contains(window(0, 10_000, 40)) && s.contains(window(-5_000, 5_000, 20)));

      // 5 records at 3 s: too late for [-5 s, 5 s) (its lateness ended at 10 s), within the lateness
      // of [0 s, 10 s), which fires again for each of them.
      kafka.produce("win-in", records(3_000, 5));
      awaitStats(kafka, s -> s.contains(window(0, 10_000, 45)));

      // One record at 30 s: the windows up to 20 s fire; then 4 records at 3 s are too late for
      // both their windows and are counted.
      kafka.produce("win-in", records(30_000, 1));
      awaitStats(kafka, s -> s.contains(window(5_000, 15_000, 21)) && s.contains(window(10_000, 20_000, 1)));
      kafka.produce("win-in", records(3_000, 4));
      long deadline = System.nanoTime() + KafkaFixture.PATIENCE.toNanos();
      while (lateRecords(metricsMark) < 4 && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(lateRecords(metricsMark)).isEqualTo(4);

      List<String> stats = stats(kafka);
      assertThat(stats).containsExactlyInAnyOrder(
          window(-5_000, 5_000, 20),
          window(0, 10_000, 40), window(0, 10_000, 41), window(0, 10_000, 42), window(0, 10_000, 43),
          window(0, 10_000, 44), window(0, 10_000, 45),
          window(5_000, 15_000, 21), window(10_000, 20_000, 1));
      cluster.cluster.cancelJob(job).get();
    }
  }

  private static List<byte[]> records(long offsetMillis, int count) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(("{\"ts\":" + (T0 + offsetMillis) + ",\"x\":0.5}").getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }

  /** A window's start, end (relative to T0) and count, as the test compares them. */
  private static String window(long start, long end, long count) {
    return Instant.ofEpochMilli(T0 + start) + " " + Instant.ofEpochMilli(T0 + end) + " " + count;
  }

  private static List<String> stats(KafkaFixture kafka) throws Exception {
    List<String> out = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : kafka.consumeAll("win-stats", true, KafkaFixture.PATIENCE)) {
      JsonNode s = JSON.readTree(r.value());
      out.add(s.get("windowStart").asText() + " " + s.get("windowEnd").asText() + " " + s.get("count").asLong());
    }
    return out;
  }

  private static void awaitStats(KafkaFixture kafka, Predicate<List<String>> condition) throws Exception {
    long deadline = System.nanoTime() + KafkaFixture.PATIENCE.toNanos();
    List<String> seen = stats(kafka);
    while (!condition.test(seen)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("window statistics not seen in a minute; got " + seen);
      }
      Thread.sleep(200);
      seen = stats(kafka);
    }
  }

  /** The job's lateRecords counter: registered after the mark, by this test's job alone. */
  private static long lateRecords(int metricsMark) {
    long sum = 0;
    for (CapturingReporter.Registered m : CapturingReporter.since(metricsMark)) {
      if (m.name().equals("lateRecords")) {
        sum += ((Counter) m.metric()).getCount();
      }
    }
    return sum;
  }
}
