package io.ogpm.cluster;

import io.ogpm.kafka.KafkaTopics;
import io.ogpm.testkit.Await;
import io.ogpm.testkit.KafkaFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * A Kafka 4.2 broker in its own JVM, as an operator runs one: {@code kafka_2.13}'s {@code
 * kafka.Kafka} with a {@code server.properties}, one KRaft node that is broker and controller, its
 * log directory formatted first with {@code kafka.tools.StorageTool format} (what {@code
 * kafka-storage.sh format} runs). The class path is this test's, which holds {@code kafka_2.13} and
 * its dependencies. It is a {@link KafkaFixture}, so the test kit's helpers (producing, reading
 * committed output) work against it.
 */
final class KafkaBroker implements KafkaFixture {
  /** Broker settings beyond the listeners: a single node must host the internal topics alone. */
  static final Map<String, String> SETTINGS =
      Map.of(
          "offsets.topic.replication.factor", "1",
          "transaction.state.log.replication.factor", "1",
          "transaction.state.log.min.isr", "1",
          "share.coordinator.state.topic.replication.factor", "1",
          "share.coordinator.state.topic.min.isr", "1",
          "group.initial.rebalance.delay.ms", "0",
          // The sinks ask for 10 minutes; `ogpm topics --check` checks this ceiling.
          "transaction.max.timeout.ms", "900000",
          // Topics are created by `ogpm topics`, never by a client's typo.
          "auto.create.topics.enable", "false");

  private final ManagedProcesses.ManagedProcess process;
  private final String bootstrapServers;

  private KafkaBroker(ManagedProcesses.ManagedProcess process, String bootstrapServers) {
    this.process = process;
    this.bootstrapServers = bootstrapServers;
  }

  /**
   * SIGSTOP to the broker: it answers nothing, accepts no connection and runs no timer until {@link
   * #thaw}, as a broker in a long GC pause or on a frozen VM.
   */
  void freeze() {
    process.signal("STOP");
  }

  /** SIGCONT to a frozen broker: it goes on where it stopped. */
  void thaw() {
    process.signal("CONT");
  }

  /** Formats a log directory under {@code dir}, starts the broker and returns once it answers. */
  static KafkaBroker start(ManagedProcesses processes, Path dir) {
    int port = Ports.free();
    int controllerPort = Ports.free();
    Path config = dir.resolve("server.properties");
    List<String> lines =
        new ArrayList<>(
            List.of(
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:"
                    + port
                    + ",CONTROLLER://127.0.0.1:"
                    + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                "controller.listener.names=CONTROLLER",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "inter.broker.listener.name=PLAINTEXT",
                "log.dirs=" + dir.resolve("data")));
    SETTINGS.forEach((k, v) -> lines.add(k + "=" + v));
    Path logConfig = dir.resolve("log4j2.properties");
    try {
      Files.createDirectories(dir);
      Files.write(config, lines, StandardCharsets.UTF_8);
      Files.writeString(
          logConfig,
          JavaCommand.consoleLog4j(
              "logger.kafka.name = kafka",
              "logger.kafka.level = WARN",
              "logger.apache.name = org.apache.kafka",
              "logger.apache.level = WARN",
              "logger.server.name = kafka.server.KafkaRaftServer",
              "logger.server.level = INFO"),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> java =
        List.of(
            JavaCommand.java(),
            "-Xmx512m",
            "-cp",
            System.getProperty("java.class.path"),
            "-Dlog4j2.configurationFile=" + logConfig.toUri());
    List<String> format = new ArrayList<>(java);
    format.addAll(
        List.of(
            "kafka.tools.StorageTool",
            "format",
            "-t",
            Uuid.randomUuid().toString(),
            "-c",
            config.toString()));
    int status =
        processes.run(
            "kafka-storage format",
            format,
            Map.of(),
            dir.resolve("format.log"),
            KafkaFixture.PATIENCE);
    if (status != 0) {
      throw new AssertionError(
          "kafka.tools.StorageTool format exited with "
              + status
              + "; see "
              + dir.resolve("format.log"));
    }
    List<String> server = new ArrayList<>(java);
    server.addAll(List.of("kafka.Kafka", config.toString()));
    KafkaBroker broker =
        new KafkaBroker(
            processes.start("kafka broker", server, Map.of(), dir.resolve("broker.log")),
            "127.0.0.1:" + port);
    broker.awaitReady();
    return broker;
  }

  private void awaitReady() {
    try (Admin admin =
        Admin.create(
            Map.of(
                "bootstrap.servers",
                bootstrapServers,
                "default.api.timeout.ms",
                5000,
                "request.timeout.ms",
                5000,
                "reconnect.backoff.max.ms",
                1000))) {
      Await.until(
          "the Kafka broker at " + bootstrapServers + " answers",
          () -> {
            if (!process.alive()) {
              throw new AssertionError("the Kafka broker exited:\n" + process.tail(40));
            }
            try {
              return admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size();
            } catch (Exception e) {
              return 0;
            }
          },
          n -> n == 1);
    }
  }

  @Override
  public String bootstrapServers() {
    return bootstrapServers;
  }

  @Override
  public void createTopic(String name, int partitions, Map<String, String> configs) {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
      KafkaTopics.createAndAwait(
          admin, new NewTopic(name, partitions, (short) 1).configs(configs), PATIENCE);
    }
  }

  /** How many partitions the topic has. */
  public int partitions(String topic) {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
      return partitions(admin, topic);
    } catch (Exception e) {
      throw new IllegalStateException("cannot describe topic " + topic, e);
    }
  }

  static int partitions(Admin admin, String topic) throws Exception {
    return admin
        .describeTopics(List.of(topic))
        .allTopicNames()
        .get(1, TimeUnit.MINUTES)
        .get(topic)
        .partitions()
        .size();
  }

  /**
   * The sum of the topic's end offsets: the last stable offsets under read_committed, else the high
   * watermarks.
   */
  static long endOffsets(Admin admin, String topic, IsolationLevel isolation) {
    try {
      int partitions = partitions(admin, topic);
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      for (int p = 0; p < partitions; p++) {
        latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
      }
      return admin
          .listOffsets(latest, new ListOffsetsOptions(isolation))
          .all()
          .get(1, TimeUnit.MINUTES)
          .values()
          .stream()
          .mapToLong(o -> o.offset())
          .sum();
    } catch (Exception e) {
      throw new IllegalStateException("cannot read the end offsets of " + topic, e);
    }
  }

  @Override
  public void close() {
    process.kill();
  }
}
