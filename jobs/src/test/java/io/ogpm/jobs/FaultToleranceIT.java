package io.ogpm.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.RawRecord;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.testkit.Await;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import io.ogpm.testkit.PrivacyAssertions;
import io.ogpm.testkit.TestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once under failure, against a real broker: a task manager killed mid-stream, and a
 * failure injected in the operator. A read_committed consumer then finds every input exactly once,
 * in the perturbed or the dead-letter topic; in keyed mode every record replayed after the failure
 * (visible to a read_uncommitted consumer, in the aborted transactions) got the identical perturbed
 * value, so the retry leaked nothing.
 */
class FaultToleranceIT {
  /**
   * Two task managers with one slot each: at parallelism 2 each runs one subtask of every operator
   * (slot sharing), so killing either is sure to hit the job; quick restarts, enough for the
   * faults.
   */
  @RegisterExtension
  static final LdpTestEnvironment ENV =
      LdpTestEnvironment.builder()
          .taskManagers(2)
          .slotsPerTaskManager(1)
          .flinkConfiguration(restarts())
          .build();

  /** Fixed-delay restarts, 20 attempts 200 ms apart (BudgetIT's cluster too). */
  static Configuration restarts() {
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 20);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
    return conf;
  }

  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      id-field: id
      passthrough: [id]
      fields:
        - name: x
          min: 0
          max: 1
          epsilon: 1
      """);
  static final ObjectMapper JSON = new ObjectMapper();
  static final int RECORDS = 3_000;

  @Test
  void killingATaskManagerMidStreamLosesAndDuplicatesNothing(@TempDir Path dir) throws Exception {
    KafkaFixture kafka = ENV.kafka();
    run(
        kafka,
        dir,
        "tm",
        (job, inputs) -> {
          // Mid-stream, on both subtasks: each reads one raw partition, and the one on the task
          // manager killed must have records in open transactions, or no replay is there to check.
          // (300 records in all would not do: on a loaded machine one subtask can write them all,
          // and then nothing is replayed.)
          Map<String, Integer> rawPartition = new HashMap<>();
          for (KafkaRecord r : inputs) {
            rawPartition.put(id(r), r.partition());
          }
          Await.until(
              "100 records of each raw partition written to tm-perturbed (uncommitted included)",
              () -> fewestOfAPartition(kafka.readUncommitted("tm-perturbed"), rawPartition, 2),
              n -> n >= 100);
          ENV.miniCluster().terminateTaskManager(0).get();
          ENV.miniCluster().startTaskManager();
        },
        in -> Hooks.throttled(in, 2000));
  }

  @Test
  void aFailureInTheOperatorLosesAndDuplicatesNothing(@TempDir Path dir) throws Exception {
    run(ENV.kafka(), dir, "op", (job, inputs) -> {}, in -> Hooks.failingOnce(in, RECORDS / 3, 300));
  }

  /** The fewest output records that came from one of the raw topic's partitions. */
  private static int fewestOfAPartition(
      List<KafkaRecord> outputs, Map<String, Integer> rawPartition, int partitions) {
    int[] counts = new int[partitions];
    for (KafkaRecord r : outputs) {
      counts[rawPartition.get(id(r))]++;
    }
    return Arrays.stream(counts).min().orElse(0);
  }

  private static String id(KafkaRecord r) {
    try {
      return JSON.readTree(r.value()).get("id").asText();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  interface Fault {
    /**
     * @param inputs the raw records as produced, with the partition each landed in
     */
    void cause(JobClient job, List<KafkaRecord> inputs) throws Exception;
  }

  private void run(
      KafkaFixture kafka,
      Path dir,
      String name,
      Fault fault,
      UnaryOperator<DataStream<RawRecord>> hook)
      throws Exception {
    String raw = name + "-raw";
    String out = name + "-perturbed";
    String dead = name + "-dead";
    kafka.createTopic(raw, 2);
    kafka.createTopic(out, 2);
    kafka.createTopic(dead, 1);
    // Half the records in each raw partition, alternately: each subtask reads one, so both have
    // work when the fault strikes. (Keyless records left to the producer's sticky partitioner can
    // all land in one partition, and then the subtask killed may have nothing to replay.)
    List<TestRecord> records = new ArrayList<>();
    for (int i = 0; i < RECORDS; i++) {
      String value = i % 100 == 99 ? "\"bad\"" : Double.toString((i % 97) / 97.0);
      records.add(
          TestRecord.json("{\"id\":\"" + name + "-" + i + "\",\"x\":" + value + "}")
              .withPartition(i % 2));
    }
    List<KafkaRecord> inputs = kafka.produceRecords(raw, records);
    Path key =
        Files.write(
            dir.resolve("key"),
            "fault-tolerance test key 0123456789".getBytes(StandardCharsets.US_ASCII));
    // Checkpoints every 5 s, longer than the faults take to strike (under a second of processing):
    // the records processed before a fault sit in open transactions, so they are aborted and
    // replayed, and the test sees the replay (a read_uncommitted consumer sees both attempts).
    PerturbJob.Settings settings =
        PerturbJob.Settings.builder()
            .config(CONFIG)
            .kafka(KafkaSettings.of(kafka.bootstrapServers()))
            .inputTopic(raw)
            .outputTopic(out)
            .deadLetterTopic(dead)
            .groupId(name)
            .transactionalIdPrefix(name)
            .keySource(KeySource.file(key))
            .bounded(true)
            .checkpointInterval(Duration.ofSeconds(5))
            .parallelism(2)
            .build();
    StreamExecutionEnvironment env = ENV.executionEnvironment();
    PerturbJob.build(env, settings, hook);
    JobClient job = env.executeAsync("fault tolerance " + name);
    Await.jobStatus(job, JobStatus.RUNNING);
    fault.cause(job, inputs);
    assertThat(job.getJobExecutionResult())
        .as("the job's result")
        .succeedsWithin(KafkaFixture.PATIENCE);

    List<KafkaRecord> committed = kafka.readCommitted(out);
    List<KafkaRecord> deadLetters = kafka.readCommitted(dead);
    Map<String, Integer> seen = new HashMap<>();
    for (KafkaRecord r : committed) {
      seen.merge(id(r), 1, Integer::sum);
    }
    assertThat(seen.values()).allMatch(n -> n == 1);
    assertThat(seen).hasSize(RECORDS - RECORDS / 100);
    assertThat(deadLetters).hasSize(RECORDS / 100);
    assertThat(committed.size() + deadLetters.size()).isEqualTo(RECORDS);
    PrivacyAssertions.assertPrivacyContract(CONFIG, inputs, committed, deadLetters);

    // The aborted attempts are visible to read_uncommitted: every replayed id has one value.
    Map<String, List<Double>> values = new HashMap<>();
    for (KafkaRecord r : kafka.readUncommitted(out)) {
      JsonNode v = JSON.readTree(r.value());
      values
          .computeIfAbsent(v.get("id").asText(), k -> new ArrayList<>())
          .add(v.get("x").asDouble());
    }
    long replayed = values.values().stream().filter(l -> l.size() > 1).count();
    assertThat(replayed).as("records written twice (first attempt aborted)").isPositive();
    assertThat(values.values()).allMatch(l -> l.stream().distinct().count() == 1);
  }
}
