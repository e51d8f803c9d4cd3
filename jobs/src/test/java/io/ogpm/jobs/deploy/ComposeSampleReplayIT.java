package io.ogpm.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.FieldSampling;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.jobs.AggregateJob;
import io.ogpm.jobs.PerturbJob;
import io.ogpm.jobs.cli.AggregateJobCommand;
import io.ogpm.jobs.cli.PerturbJobCommand;
import io.ogpm.testkit.Await;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Compose demo's documented settings on the sample, without Docker: the topics as the {@code
 * topics} service creates them (partitions read from the Compose file), the two jobs with exactly
 * the arguments the {@code submit} service passes (only the broker's address and the
 * configuration's path replaced), parallelism 2 as the cluster's {@code parallelism.default}, and
 * the sample fed as the {@code replay} service feeds it: the file in its order (event time), 200
 * lines a second, without keys. No record may be late and every window of the sample must close
 * with all its records, the last one too although no later record moves event time (the aggregate
 * job's silence-aware watermarks); then a bounded run of the same command over the same perturbed
 * topic closes every window at the end of its input.
 */
class ComposeSampleReplayIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV = LdpTestEnvironment.builder().parallelism(2).build();

  static final long WINDOW_MS = 10_000;

  @Test
  void theComposeSettingsLoseNoRecordOfTheSampleAndCloseEveryWindow() throws Exception {
    Path repo = DeployFiles.repoRoot();
    ComposeDeployment compose = ComposeDeployment.load(repo);
    String replayScript =
        DeployFiles.text(compose.service("replay").path("command")).replace("$$", "$");
    assertThat(replayScript)
        .as("the replay service feeds the sample file in order to the raw topic")
        .contains("< /data/motionsense-dws1.jsonl")
        .contains("kafka-console-producer.sh --bootstrap-server kafka:9092 --topic ogpm.raw");
    Matcher pace =
        Pattern.compile("if \\(\\( n % (\\d+) == 0 \\)\\); then sleep (\\d+); fi")
            .matcher(replayScript);
    assertThat(pace.find())
        .as("the replay service's pace: lines per pause, pause in seconds")
        .isTrue();
    int linesPerPause = Integer.parseInt(pace.group(1));
    Duration pause = Duration.ofSeconds(Integer.parseInt(pace.group(2)));
    KafkaFixture kafka = ENV.kafka();
    kafka.createRawTopic("ogpm.raw", compose.partitions("ogpm.raw"));
    kafka.createTopic("ogpm.perturbed", compose.partitions("ogpm.perturbed"));
    kafka.createTopic("ogpm.dead-letters", compose.partitions("ogpm.dead-letters"));
    kafka.createTopic("ogpm.stats", compose.partitions("ogpm.stats"));

    List<String> sample =
        Files.readAllLines(
                repo.resolve("sample-data/motionsense-dws1.jsonl"), StandardCharsets.UTF_8)
            .stream()
            .filter(l -> !l.isBlank())
            .toList();
    Map<Long, Long> expected = windowCounts(sample);

    PerturbJob.Settings perturb =
        ((PerturbJobCommand) command(compose, "perturb-job", repo)).settings();
    AggregateJob.Settings aggregate =
        ((AggregateJobCommand) command(compose, "aggregate-job", repo)).settings();
    assertThat(aggregate.bounded()).isFalse();
    StreamExecutionEnvironment env = ENV.executionEnvironment();
    PerturbJob.build(env, perturb);
    AggregateJob.build(env, aggregate);
    JobClient job = env.executeAsync("compose demo: perturb + aggregate");
    try {
      replayLikeTheComposeService(kafka.bootstrapServers(), sample, linesPerPause, pause);
      Map<Long, Long> closed =
          Await.until(
              "every window of the sample in ogpm.stats",
              Duration.ofMinutes(3),
              () -> windowsOf(kafka.readCommitted("ogpm.stats"), perturb.config()),
              w -> w.keySet().containsAll(expected.keySet()));
      assertThat(closed).as("records per window, in each field's statistics").isEqualTo(expected);
      assertThat(ENV.metrics().counter("lateRecords")).as("records dropped as late").isZero();
    } finally {
      job.cancel().get();
    }

    // The same command, bounded, over what the live run perturbed: its end of input closes the
    // last window at once.
    List<String> bounded = new ArrayList<>(compose.jobArguments("aggregate-job", false));
    replaceValue(bounded, "--output-topic", "ogpm.stats.bounded");
    replaceValue(bounded, "--group-id", "ogpm-aggregate-bounded");
    replaceValue(bounded, "--transactional-id-prefix", "ogpm-aggregate-bounded");
    bounded.add("--bounded");
    kafka.createTopic("ogpm.stats.bounded", 1);
    AggregateJobCommand boundedCommand = (AggregateJobCommand) command(bounded, repo);
    StreamExecutionEnvironment boundedEnv = ENV.executionEnvironment();
    AggregateJob.build(boundedEnv, boundedCommand.settings());
    boundedEnv.execute("compose demo: aggregate, bounded");
    assertThat(windowsOf(kafka.readCommitted("ogpm.stats.bounded"), perturb.config()))
        .isEqualTo(expected);
    assertThat(ENV.metrics().counter("lateRecords")).isZero();
  }

  static void replaceValue(List<String> args, String option, String value) {
    int i = args.indexOf(option);
    assertThat(i).as(option + " in the submit service's arguments").isNotNegative();
    args.set(i + 1, value);
  }

  /** Records per 10 s window of the sample's event time ({@code ts}). */
  static Map<Long, Long> windowCounts(List<String> sample) throws Exception {
    ObjectMapper json = new ObjectMapper();
    Map<Long, Long> counts = new TreeMap<>();
    for (String line : sample) {
      long ts = json.readTree(line).get("ts").asLong();
      counts.merge(ts - Math.floorMod(ts, WINDOW_MS), 1L, Long::sum);
    }
    return counts;
  }

  /**
   * Window start to its records' count, from the stats records (the last per window and field), for
   * the windows with statistics of every field. Each record reports K of the fields (all of them
   * without field sampling, when every field must have the same count): the fields' counts sum to K
   * times the window's records.
   */
  static Map<Long, Long> windowsOf(List<KafkaRecord> stats, PrivacyConfig config) {
    int fields = config.fields().size();
    int perRecord = config.sampling().map(FieldSampling::fieldsPerRecord).orElse(fields);
    boolean sampled = perRecord < fields;
    ObjectMapper json = new ObjectMapper();
    Map<String, Long> last = new TreeMap<>();
    for (KafkaRecord r : stats) {
      try {
        JsonNode s = json.readTree(r.value());
        long start = java.time.Instant.parse(s.get("windowStart").asText()).toEpochMilli();
        last.put(start + " " + s.get("field").asText(), s.get("count").asLong());
      } catch (java.io.IOException e) {
        throw new AssertionError("a stats record is not JSON", e);
      }
    }
    Map<Long, Integer> fieldsPerWindow = new TreeMap<>();
    Map<Long, Long> sums = new TreeMap<>();
    last.forEach(
        (key, count) -> {
          long start = Long.parseLong(key.substring(0, key.indexOf(' ')));
          fieldsPerWindow.merge(start, 1, Integer::sum);
          Long before = sums.put(start, sums.getOrDefault(start, 0L) + count);
          assertThat(sampled || before == null || before.equals(count))
              .as("window %d: the same count in every field", start)
              .isTrue();
        });
    Map<Long, Long> out = new TreeMap<>();
    sums.forEach(
        (start, sum) -> {
          if (fieldsPerWindow.get(start) == fields) {
            assertThat(sum % perRecord)
                .as("window %d: the fields' counts sum to a multiple of %d", start, perRecord)
                .isZero();
            out.put(start, sum / perRecord);
          }
        });
    return out;
  }

  static Object command(ComposeDeployment compose, String job, Path repo) {
    return command(compose.jobArguments(job, false), repo);
  }

  /** The parsed command, with the test's broker and the repository's configuration file. */
  static Object command(List<String> args, Path repo) {
    List<String> local =
        args.stream()
            .map(a -> a.equals("kafka:9092") ? ENV.bootstrapServers() : a)
            .map(
                a ->
                    a.equals("/opt/ogpm/ogpm.yaml")
                        ? repo.resolve("sample-data/ogpm.yaml").toString()
                        : a)
            .toList();
    return DeployFiles.parse(local).subcommand().commandSpec().userObject();
  }

  /** The replay service's loop: the file's lines in order, a pause after every so many, no key. */
  static void replayLikeTheComposeService(
      String bootstrap, List<String> lines, int linesPerPause, Duration pause)
      throws InterruptedException {
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            // kafka-console-producer's defaults: batches linger up to 1 s
            ProducerConfig.LINGER_MS_CONFIG,
            1000);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      for (int n = 1; n <= lines.size(); n++) {
        producer.send(
            new ProducerRecord<>("ogpm.raw", lines.get(n - 1).getBytes(StandardCharsets.UTF_8)));
        if (n % linesPerPause == 0) {
          Thread.sleep(pause.toMillis());
        }
      }
    }
  }
}
