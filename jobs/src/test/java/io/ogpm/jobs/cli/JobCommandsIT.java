package io.ogpm.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.kafka.StableOffsets;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaFixtures;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import io.ogpm.testkit.PrivacyAssertions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job commands against a real broker: missing topics fail at start-up with one line; a bounded
 * run returns only once its output is visible; a job that can never work ends, after a bounded
 * number of restarts, with one line naming the cause. The in-process runs go to the test kit's
 * MiniCluster (the command's {@code getExecutionEnvironment()} is the kit's there).
 */
class JobCommandsIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV = LdpTestEnvironment.builder().parallelism(2).build();

  static final String CONFIG =
      "passthrough: [i]\nfields:\n  - name: x\n    min: 0\n    max: 1\n    epsilon: 1\n";
  static final Duration LONG = Duration.ofMinutes(5);

  @Test
  void aMissingTopicFailsAtStartUpWithOneLine(KafkaFixture kafka, @TempDir Path dir)
      throws Exception {
    Path config = Files.writeString(dir.resolve("c.yaml"), CONFIG);
    kafka.createTopic("present", 1, Map.of());
    CommandRun input =
        CommandRun.inJvm(
            OgpmJobs.class,
            LONG,
            "perturb-job",
            "--config",
            config.toString(),
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--input-topic",
            "absent",
            "--output-topic",
            "present",
            "--dead-letter-topic",
            "present-dead");
    assertThat(input.status()).isEqualTo(2);
    assertThat(input.err())
        .isEqualTo(
            "ogpm: input topic (--input-topic) 'absent' does not exist on "
                + kafka.bootstrapServers()
                + "\n");
    CommandRun output =
        CommandRun.inJvm(
            OgpmJobs.class,
            LONG,
            "aggregate-job",
            "--config",
            config.toString(),
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--input-topic",
            "present",
            "--output-topic",
            "gone");
    assertThat(output.status()).isEqualTo(2);
    assertThat(output.err())
        .isEqualTo(
            "ogpm: output topic (--output-topic) 'gone' does not exist on "
                + kafka.bootstrapServers()
                + "\n");
  }

  @Test
  void aBudgetOnLogAppendTimeNeedsARawTopicStampedByTheBroker(KafkaFixture kafka, @TempDir Path dir)
      throws Exception {
    Path config =
        Files.writeString(
            dir.resolve("c.yaml"),
            "user-field: u\n" + CONFIG + "budget:\n  epsilon: 10\n  period: P1D\n");
    kafka.createTopic("producer-stamped", 1, Map.of());
    kafka.createTopic("l-out", 1, Map.of());
    kafka.createTopic("l-dead", 1, Map.of());
    CommandRun r =
        CommandRun.inJvm(
            OgpmJobs.class,
            LONG,
            "perturb-job",
            "--config",
            config.toString(),
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--input-topic",
            "producer-stamped",
            "--output-topic",
            "l-out",
            "--dead-letter-topic",
            "l-dead");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo(
            "ogpm: topic 'producer-stamped' has message.timestamp.type=CreateTime but the budget's clock"
                + " log-append-time needs LogAppendTime (kafka-configs.sh --alter --entity-type topics --entity-name producer-stamped"
                + " --add-config message.timestamp.type=LogAppendTime)\n");
  }

  @Test
  void aBoundedRunReturnsOnceItsOutputIsVisible(KafkaFixture kafka, @TempDir Path dir)
      throws Exception {
    Path config = Files.writeString(dir.resolve("c.yaml"), CONFIG);
    for (String t : new String[] {"b-raw", "b-out", "b-dead"}) {
      kafka.createTopic(t, 2, Map.of());
    }
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      values.add(
          "{\"i\":"
              + i
              + ",\"x\":"
              + (i % 10 == 0 ? "\"bad\"" : "0.5")
              + ",\"note\":\"n"
              + i
              + "\"}");
    }
    List<KafkaRecord> inputs = kafka.produceJson("b-raw", values);
    CommandRun run =
        CliRunner.run(
            "perturb-job",
            "--config",
            config.toString(),
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--input-topic",
            "b-raw",
            "--output-topic",
            "b-out",
            "--dead-letter-topic",
            "b-dead",
            "--bounded",
            "--checkpoint-interval",
            "1s",
            "--parallelism",
            "2");
    assertThat(run.status()).as(run.err()).isZero();
    // At once: no transaction of the job may still be open on its outputs.
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      List<TopicPartition> outputs =
          StableOffsets.partitions(admin, List.of("b-out", "b-dead"), LONG);
      assertThat(StableOffsets.withOpenTransactions(admin, outputs, LONG)).isEmpty();
    }
    List<KafkaRecord> perturbed = kafka.readCommitted("b-out");
    List<KafkaRecord> dead = kafka.readCommitted("b-dead");
    assertThat(perturbed).hasSize(450);
    assertThat(dead).hasSize(50);
    PrivacyAssertions.assertPrivacyContract(PrivacyConfig.parse(CONFIG), inputs, perturbed, dead);
    assertThat(ENV.metrics().counter("recordsPerturbed")).isEqualTo(450);
    assertThat(ENV.metrics().counter("recordsDeadLettered", "reason", "not-a-number"))
        .isEqualTo(50);
  }

  @Test
  void aJobThatCanNeverWorkEndsAfterBoundedRestartsWithOneLine(@TempDir Path dir) throws Exception {
    Path config = Files.writeString(dir.resolve("c.yaml"), CONFIG);
    // The exactly-once sinks ask for a 10-minute transaction timeout; this broker allows 1 minute,
    // so every attempt fails when a sink starts its first transaction.
    try (KafkaFixture strict = KafkaFixtures.start(Map.of("transaction.max.timeout.ms", "60000"))) {
      for (String t : new String[] {"s-raw", "s-out", "s-dead"}) {
        strict.createTopic(t, 1);
      }
      strict.produceJson("s-raw", "{\"i\":1,\"x\":0.5}");
      CommandRun r =
          CommandRun.inJvm(
              OgpmJobs.class,
              LONG,
              "perturb-job",
              "--config",
              config.toString(),
              "--bootstrap-servers",
              strict.bootstrapServers(),
              "--input-topic",
              "s-raw",
              "--output-topic",
              "s-out",
              "--dead-letter-topic",
              "s-dead",
              "--restart-attempts",
              "2",
              "--checkpoint-interval",
              "1s");
      assertThat(r.status()).isEqualTo(1);
      List<String> ours = r.err().lines().filter(l -> l.startsWith("ogpm:")).toList();
      assertThat(ours).hasSize(1);
      assertThat(ours.get(0))
          .startsWith("ogpm: job 'ogpm perturb s-raw -> s-out' failed: ")
          .contains("transaction.max.timeout.ms");
    }
  }
}
