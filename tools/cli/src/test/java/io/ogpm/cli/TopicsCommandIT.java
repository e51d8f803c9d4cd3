package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.jobs.cli.CommandRun;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaFixtures;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ogpm topics} against a real broker (the test kit's): it creates the topics with their
 * settings and says why, {@code --check} finds nothing to report on them, reports each deviation of
 * a spoiled deployment on one line and exits 1, and a second run without {@code --check} cures what
 * a topic setting cures.
 */
class TopicsCommandIT {
  static KafkaFixture kafka;
  static Admin admin;

  @BeforeAll
  static void start() {
    kafka = KafkaFixtures.start();
    admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()));
  }

  @AfterAll
  static void stop() {
    if (admin != null) {
      admin.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  CommandRun topics(String... more) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "topics",
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--replication-factor",
                "1",
                "--raw-topic",
                "t.raw",
                "--perturbed-topic",
                "t.perturbed",
                "--dead-letter-topic",
                "t.dead",
                "--stats-topic",
                "t.stats"));
    args.addAll(List.of(more));
    return CliRunner.run(args.toArray(String[]::new));
  }

  @Test
  void createsTheTopicsChecksThemAndCuresWhatASettingCures(@TempDir Path dir) throws Exception {
    CommandRun created = topics("--perturb-parallelism", "2", "--partitions", "3");
    assertThat(created.status()).as(created.out() + created.err()).isZero();
    assertThat(created.out())
        .contains(
            "created t.raw (raw readings, read by perturb-job): 3 partitions, replication factor 1, retention.ms=86400000,"
                + " cleanup.policy=delete, message.timestamp.type=LogAppendTime, min.insync.replicas=1",
            "  message.timestamp.type=LogAppendTime: the privacy budget's default clock (log-append-time)",
            "created t.stats (window statistics, written by aggregate-job): 1 partition,",
            "every broker: transaction.max.timeout.ms at least 600000 (10m, the jobs' transaction.timeout.ms): ",
            "ok: t.raw, t.perturbed, t.dead, t.stats and "
                + kafka.bootstrapServers()
                + " meet what the jobs need");
    assertThat(partitions("t.raw")).isEqualTo(3);
    assertThat(partitions("t.perturbed")).isEqualTo(3);
    assertThat(partitions("t.dead")).isEqualTo(1);
    assertThat(config("t.raw", "message.timestamp.type")).isEqualTo("LogAppendTime");
    assertThat(config("t.raw", "retention.ms")).isEqualTo("86400000");
    assertThat(config("t.stats", "message.timestamp.type")).isEqualTo("LogAppendTime");

    CommandRun clean = topics("--check", "--perturb-parallelism", "2");
    assertThat(clean.status()).as(clean.out() + clean.err()).isZero();
    assertThat(clean.out()).startsWith("ok: ");

    set("t.raw", Map.of("retention.ms", "-1", "message.timestamp.type", "CreateTime"));
    set("t.stats", Map.of("cleanup.policy", "compact"));
    admin.deleteTopics(List.of("t.dead")).all().get();
    Path client = dir.resolve("client.properties");
    Files.writeString(client, "transaction.timeout.ms=1000000\n");
    CommandRun spoiled =
        topics("--check", "--perturb-parallelism", "4", "--kafka-properties", client.toString());
    assertThat(spoiled.status()).isEqualTo(1);
    assertThat(
            spoiled
                .out()
                .lines()
                .map(
                    l ->
                        l.substring(
                            0,
                            l.indexOf(", needs") > 0
                                ? l.indexOf(", needs")
                                : l.indexOf(": ", l.indexOf(": ") + 1))))
        .containsExactly(
            "t.raw: 3 partitions",
            "t.raw: retention.ms=-1 (forever)",
            "t.raw: message.timestamp.type=CreateTime",
            "t.perturbed: 3 partitions",
            "t.dead: does not exist",
            "t.stats: cleanup.policy=compact",
            "broker " + brokerId() + ": transaction.max.timeout.ms=900000");
    assertThat(spoiled.err())
        .isEqualTo(
            "ogpm: topics: 7 deviations (ogpm topics without --check sets topic settings;"
                + " partitions, replicas and broker settings are yours to change)\n");
    assertThat(config("t.raw", "retention.ms")).as("--check changes nothing").isEqualTo("-1");

    CommandRun cured = topics("--perturb-parallelism", "2");
    assertThat(cured.status()).as(cured.out() + cured.err()).isZero();
    assertThat(cured.out())
        .contains(
            "updated t.raw (raw readings, read by perturb-job): retention.ms=86400000 (was -1), message.timestamp.type=LogAppendTime (was CreateTime)",
            "kept t.perturbed",
            "created t.dead",
            "updated t.stats (window statistics, written by aggregate-job): cleanup.policy=delete (was compact)");
    assertThat(topics("--check", "--perturb-parallelism", "2").status()).isZero();

    CommandRun narrow = topics("--perturb-parallelism", "4");
    assertThat(narrow.status()).as("partitions are reported, never changed").isEqualTo(1);
    assertThat(narrow.out())
        .contains("t.raw: 3 partitions, needs at least 4 (--perturb-parallelism)");
    assertThat(narrow.err())
        .isEqualTo(
            "ogpm: topics: 2 deviations left (partitions, replicas and broker settings are yours to change)\n");
    assertThat(partitions("t.raw")).isEqualTo(3);
  }

  @Test
  void anUnreachableBrokerIsOneLineAndExitStatus2() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    CommandRun r =
        CliRunner.run(
            "topics",
            "--check",
            "--bootstrap-servers",
            "127.0.0.1:" + port,
            "--kafka-timeout",
            "5s");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err())
        .startsWith("ogpm: cannot reach Kafka at 127.0.0.1:" + port + " (")
        .endsWith("(--bootstrap-servers)\n");
    assertThat(r.err().lines()).hasSize(1);
  }

  private static int partitions(String topic) throws Exception {
    TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
    return d.partitions().size();
  }

  private static String config(String topic, String key) throws Exception {
    ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    Config c = admin.describeConfigs(List.of(r)).all().get().get(r);
    return c.get(key).value();
  }

  private static void set(String topic, Map<String, String> settings) throws Exception {
    ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    List<AlterConfigOp> ops =
        settings.entrySet().stream()
            .map(
                e ->
                    new AlterConfigOp(
                        new ConfigEntry(e.getKey(), e.getValue()), AlterConfigOp.OpType.SET))
            .toList();
    admin.incrementalAlterConfigs(Map.of(r, ops)).all().get();
  }

  private static int brokerId() throws Exception {
    return admin.describeCluster().nodes().get().iterator().next().id();
  }
}
