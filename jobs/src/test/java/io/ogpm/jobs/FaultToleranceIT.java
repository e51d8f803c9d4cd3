package io.ogpm.jobs;

import io.ogpm.flink.kafka.KafkaSettings;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaFixtureExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once under failure, against a real broker: a task manager killed mid-stream, and a
 * failure injected in the operator. A read_committed consumer then finds every input exactly
 * once, in the perturbed or the dead-letter topic; in keyed mode every record replayed after the
 * failure (visible to a read_uncommitted consumer, in the aborted transactions) got the identical
 * perturbed value, so the retry leaked nothing.
 */
@ExtendWith(KafkaFixtureExtension.class)
class FaultToleranceIT {
  static final PrivacyConfig CONFIG = PrivacyConfig.parse("""
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
  void killingATaskManagerMidStreamLosesAndDuplicatesNothing(KafkaFixture kafka, @TempDir Path dir) throws Exception {
    run(kafka, dir, "tm", (cluster, job) -> {
      // Mid-stream: once records are flowing into the output (uncommitted transactions included).
      long deadline = System.nanoTime() + KafkaFixture.PATIENCE.toNanos();
      while (kafka.consumeAll("tm-perturbed", false, KafkaFixture.PATIENCE).size() < 300) {
        assertThat(System.nanoTime()).as("records flowing within a minute").isLessThan(deadline);
        Thread.sleep(100);
      }
      cluster.cluster.terminateTaskManager(0).get();
      cluster.cluster.startTaskManager();
    }, in -> Hooks.throttled(in, 2000));
  }

  @Test
  void aFailureInTheOperatorLosesAndDuplicatesNothing(KafkaFixture kafka, @TempDir Path dir) throws Exception {
    run(kafka, dir, "op", (cluster, job) -> {}, in -> Hooks.failingOnce(in, RECORDS / 3, 300));
  }

  interface Fault {
    void cause(TestCluster cluster, JobID job) throws Exception;
  }

  private void run(KafkaFixture kafka, Path dir, String name, Fault fault, UnaryOperator<DataStream<io.ogpm.flink.RawRecord>> hook)
      throws Exception {
    String raw = name + "-raw";
    String out = name + "-perturbed";
    String dead = name + "-dead";
    kafka.createTopic(raw, 2, Map.of());
    kafka.createTopic(out, 2, Map.of());
    kafka.createTopic(dead, 1, Map.of());
    List<byte[]> records = new ArrayList<>();
    for (int i = 0; i < RECORDS; i++) {
      String value = i % 100 == 99 ? "\"bad\"" : Double.toString((i % 97) / 97.0);
      records.add(("{\"id\":\"" + name + "-" + i + "\",\"x\":" + value + "}").getBytes(StandardCharsets.UTF_8));
    }
    kafka.produce(raw, records);
    Path key = Files.write(dir.resolve("key"), "fault-tolerance test key 0123456789".getBytes(StandardCharsets.US_ASCII));
    // Checkpoints every 5 s, longer than the faults take to strike (under a second of processing):
    // the records processed before a fault sit in open transactions, so they are aborted and
    // replayed, and the test sees the replay (a read_uncommitted consumer sees both attempts).
    PerturbJob.Settings settings = PerturbJob.Settings.builder()
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
    try (TestCluster cluster = new TestCluster(2, 1)) {
      JobID job = cluster.submit(env -> PerturbJob.build(env, settings, hook), null);
      cluster.awaitRunning(job, KafkaFixture.PATIENCE);
      fault.cause(cluster, job);
      JobResult result = cluster.await(job, Duration.ofMinutes(3));
      assertThat(result.isSuccess()).as("job result %s", result.getSerializedThrowable()).isTrue();
    }
    List<ConsumerRecord<byte[], byte[]>> committed = kafka.consumeAll(out, true, KafkaFixture.PATIENCE);
    List<ConsumerRecord<byte[], byte[]>> deadLetters = kafka.consumeAll(dead, true, KafkaFixture.PATIENCE);
    Map<String, Integer> seen = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : committed) {
      seen.merge(JSON.readTree(r.value()).get("id").asText(), 1, Integer::sum);
    }
    assertThat(seen.values()).allMatch(n -> n == 1);
    assertThat(seen).hasSize(RECORDS - RECORDS / 100);
    assertThat(deadLetters).hasSize(RECORDS / 100);
    assertThat(committed.size() + deadLetters.size()).isEqualTo(RECORDS);

    // The aborted attempts are visible to read_uncommitted: every replayed id has one value.
    Map<String, List<Double>> values = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : kafka.consumeAll(out, false, KafkaFixture.PATIENCE)) {
      JsonNode v = JSON.readTree(r.value());
      values.computeIfAbsent(v.get("id").asText(), k -> new ArrayList<>()).add(v.get("x").asDouble());
    }
    long replayed = values.values().stream().filter(l -> l.size() > 1).count();
    assertThat(replayed).as("records written twice (first attempt aborted)").isPositive();
    assertThat(values.values()).allMatch(l -> l.stream().distinct().count() == 1);
  }
}
