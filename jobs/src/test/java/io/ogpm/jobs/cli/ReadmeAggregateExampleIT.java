package io.ogpm.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code aggregate-job} example of docs/aggregation.md and docs/deployment.md (1 min windows
 * sliding by 10 s, 30 s allowed lateness, grouped by activity) on the whole MotionSense sample, as
 * a user would run it after the perturb job: it must keep up. Each window, field and group is
 * estimated at the watermark, then at most once per late-update interval and once at the end of its
 * lateness, so late records within the lateness cost a bounded number of estimates, not one each;
 * the test counts the emissions per window and field against that bound and prints how long the run
 * took.
 */
class ReadmeAggregateExampleIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV = LdpTestEnvironment.builder().parallelism(2).build();

  static final Path ROOT = Path.of("").toAbsolutePath().getParent();
  static final Path SAMPLE = ROOT.resolve("sample-data/motionsense-dws1.jsonl");
  static final Path CONFIG = ROOT.resolve("sample-data/ogpm.yaml");
  static final int SAMPLE_RECORDS = 8_076;
  static final int FIELDS = 6;

  @Test
  void theReadmeExampleKeepsUpOnTheSample() throws Exception {
    KafkaFixture kafka = ENV.kafka();
    kafka.createRawTopic("ex-raw", 2);
    kafka.createTopic("ex-perturbed", 2);
    kafka.createTopic("ex-dead", 1);
    kafka.createTopic("ex-stats", 1);
    kafka.produceJsonLines("ex-raw", SAMPLE);
    CommandRun perturb =
        CliRunner.run(
            "perturb-job",
            "--config",
            CONFIG.toString(),
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--input-topic",
            "ex-raw",
            "--output-topic",
            "ex-perturbed",
            "--dead-letter-topic",
            "ex-dead",
            "--bounded",
            "--checkpoint-interval",
            "1s");
    assertThat(perturb.status()).as(perturb.err()).isZero();
    assertThat(kafka.readCommitted("ex-perturbed")).hasSize(SAMPLE_RECORDS);

    long start = System.nanoTime();
    // docs/aggregation.md's example, with this test's topics, bounded so that it ends.
    CommandRun aggregate =
        CliRunner.run(
            "aggregate-job",
            "--config",
            CONFIG.toString(),
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--input-topic",
            "ex-perturbed",
            "--output-topic",
            "ex-stats",
            "--group-by",
            "activity",
            "--time-field",
            "ts",
            "--window",
            "1m",
            "--slide",
            "10s",
            "--allowed-lateness",
            "30s",
            "--out-of-orderness",
            "5s",
            "--idle-timeout",
            "30s",
            "--bins",
            "50",
            "--method",
            "em",
            "--bounded",
            "--checkpoint-interval",
            "1s");
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat(aggregate.status()).as(aggregate.err()).isZero();

    ObjectMapper json = new ObjectMapper();
    Map<String, Integer> emissions = new HashMap<>();
    Map<String, Long> lastCount = new HashMap<>();
    List<KafkaRecord> stats = kafka.readCommitted("ex-stats");
    for (KafkaRecord r : stats) {
      JsonNode s = json.readTree(r.value());
      String key =
          s.get("windowStart").asText()
              + " "
              + s.get("group").asText()
              + " "
              + s.get("field").asText();
      emissions.merge(key, 1, Integer::sum);
      lastCount.put(key, s.get("count").asLong());
    }
    long windowsAndFields = emissions.size();
    int most = emissions.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    long late = ENV.metrics().counter("lateRecords");
    long preAggregated = ENV.metrics().counter("recordsPreAggregated");
    System.out.printf(
        "README aggregate-job example on the sample: %d records in %.1f s, %d windows x fields, "
            + "%d estimates (at most %d per window and field), %d late updates, %d records too late%n",
        preAggregated,
        took.toMillis() / 1000.0,
        windowsAndFields,
        stats.size(),
        most,
        ENV.metrics().counter("lateUpdates"),
        late);

    assertThat(preAggregated).isEqualTo(SAMPLE_RECORDS);
    // At the watermark, at most once per started 10 s of the run, and at the end of the lateness.
    long bound = 2 + (took.toSeconds() / 10 + 1);
    assertThat(most).as("emissions of one window and field").isLessThanOrEqualTo((int) bound);
    assertThat(windowsAndFields % FIELDS).isZero();
    // The windows' last estimates count each record once in each of its windows it was not too
    // late for: at most 6 (1 min by 10 s), at least 1 unless it was too late for all of them.
    long counted = lastCount.values().stream().mapToLong(Long::longValue).sum();
    assertThat(counted).isLessThanOrEqualTo(6L * FIELDS * SAMPLE_RECORDS);
    assertThat(counted).isGreaterThanOrEqualTo((long) FIELDS * (SAMPLE_RECORDS - late));
  }
}
