package io.ogpm.kafka.embedded;

import io.ogpm.kafka.SingleBrokerTopics;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A Kafka 4.2 broker inside this JVM: one KRaft node that is both broker and controller.
 *
 * <p>Why: the demo, the {@code bench} command and the tests need a real broker, including
 * transactions for the exactly-once {@code KafkaSink}, on machines without Docker. It is built on
 * Kafka's own {@link KafkaClusterTestKit}, which formats the KRaft metadata log and wires the
 * listeners for us.
 *
 * <p>A single broker cannot host the default three replicas of the internal topics, so {@link
 * #DEFAULT_BROKER_PROPERTIES} lowers them to one; without that, {@code initTransactions()} hangs
 * until {@code InitProducerId} times out. All data lives in a fresh temporary directory that {@link
 * #close()} deletes.
 *
 * <p>A module of its own so that the demo and the benchmarks, which are not tests, get a broker
 * without the test kit; the test kit's {@code EmbeddedKafka} is this broker with the kit's helpers.
 */
public final class EmbeddedBroker implements AutoCloseable {

  /** Largest {@code transaction.timeout.ms} a producer (or an exactly-once sink) may ask for. */
  public static final Duration TRANSACTION_MAX_TIMEOUT = Duration.ofMinutes(15);

  /** Broker settings a one-node cluster needs for transactions and consumer groups. */
  public static final Map<String, String> DEFAULT_BROKER_PROPERTIES =
      Map.of(
          "transaction.state.log.replication.factor", "1",
          "transaction.state.log.min.isr", "1",
          "offsets.topic.replication.factor", "1",
          "transaction.max.timeout.ms", Long.toString(TRANSACTION_MAX_TIMEOUT.toMillis()),
          // Consumers here come one at a time: skip the 3 s wait for more group members.
          "group.initial.rebalance.delay.ms", "0",
          // The test kit enables in-development versions by default; run what a release runs.
          "unstable.api.versions.enable", "false",
          "unstable.feature.versions.enable", "false");

  private static final Object STDOUT_LOCK = new Object();

  private final KafkaClusterTestKit cluster;
  private final Path dataDirectory;
  private final SingleBrokerTopics topics;
  private boolean closed;

  private EmbeddedBroker(KafkaClusterTestKit cluster, Path dataDirectory) {
    this.cluster = cluster;
    this.dataDirectory = dataDirectory;
    this.topics = SingleBrokerTopics.connect(cluster.bootstrapServers());
  }

  /** Starts a broker with {@link #DEFAULT_BROKER_PROPERTIES}; returns once it accepts clients. */
  public static EmbeddedBroker start() {
    return start(Map.of());
  }

  /**
   * Starts a broker with {@link #DEFAULT_BROKER_PROPERTIES} overridden by {@code brokerProperties}
   * (for example a smaller {@code transaction.max.timeout.ms} to test a misconfigured sink).
   *
   * @throws IllegalStateException if the broker does not start; nothing is left behind
   */
  public static EmbeddedBroker start(Map<String, String> brokerProperties) {
    Map<String, String> properties = new LinkedHashMap<>(DEFAULT_BROKER_PROPERTIES);
    properties.putAll(brokerProperties);
    Path directory = createDataDirectory();
    KafkaClusterTestKit cluster = null;
    try {
      TestKitNodes nodes =
          new TestKitNodes.Builder(productionBootstrapMetadata())
              .setCombined(true)
              .setNumBrokerNodes(1)
              .setNumControllerNodes(1)
              .setBaseDirectory(directory)
              .build();
      KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(nodes);
      properties.forEach(builder::setConfigProp);
      cluster = builder.setDeleteOnClose(true).build();
      formatQuietly(cluster);
      cluster.startup();
      cluster.waitForReadyBrokers();
      return new EmbeddedBroker(cluster, directory);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      closeQuietly(cluster, e);
      deleteRecursively(directory);
      throw new IllegalStateException("could not start the embedded Kafka broker", e);
    }
  }

  /** The {@code bootstrap.servers} value for clients, e.g. {@code localhost:41234}. */
  public String bootstrapServers() {
    return cluster.bootstrapServers();
  }

  /** Where the broker keeps its logs and KRaft metadata; deleted by {@link #close()}. */
  public Path dataDirectory() {
    return dataDirectory;
  }

  /**
   * Creates a topic (replication factor 1) with the given topic-level configs and returns once
   * every partition has a leader, so producers and sources can use it at once.
   */
  public void createTopic(String name, int partitions, Map<String, String> configs) {
    topics.create(name, partitions, configs);
  }

  /** Stops the broker and deletes its data directory. Calling it again does nothing. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try (KafkaClusterTestKit c = cluster) {
      topics.close();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("could not stop the embedded Kafka broker", e);
    } finally {
      deleteRecursively(dataDirectory);
    }
  }

  @Override
  public String toString() {
    return "embedded Kafka at " + bootstrapServers();
  }

  /**
   * Metadata and feature versions of the 4.2 release. The test kit's default is {@link
   * MetadataVersion#latestTesting()}, an unreleased version that no real cluster (nor the {@code
   * apache/kafka} image) runs, which would make the embedded broker a different target.
   */
  private static BootstrapMetadata productionBootstrapMetadata() {
    MetadataVersion version = MetadataVersion.latestProduction();
    Map<String, Short> features =
        Feature.PRODUCTION_FEATURES.stream()
            .collect(Collectors.toMap(Feature::featureName, f -> f.defaultLevel(version)));
    return BootstrapMetadata.fromVersions(version, features, "ogpm");
  }

  /**
   * Runs {@link KafkaClusterTestKit#format()}, whose storage formatter prints two long lines to
   * {@code System.out} and offers no way to redirect them. Stdout belongs to the command line's
   * output, so for the few milliseconds of formatting it is swapped for a stream that discards them
   * (output of other threads in that window would be lost too; nothing prints during start).
   */
  private static void formatQuietly(KafkaClusterTestKit cluster) throws Exception {
    synchronized (STDOUT_LOCK) {
      PrintStream stdout = System.out;
      System.setOut(new PrintStream(OutputStream.nullOutputStream()));
      try {
        cluster.format();
      } finally {
        System.setOut(stdout);
      }
    }
  }

  private static Path createDataDirectory() {
    try {
      return Files.createTempDirectory("ogpm-kafka-");
    } catch (IOException e) {
      throw new UncheckedIOException("could not create a data directory for Kafka", e);
    }
  }

  private static void closeQuietly(KafkaClusterTestKit cluster, Exception cause) {
    if (cluster == null) {
      return;
    }
    try {
      cluster.close();
    } catch (Exception suppressed) {
      cause.addSuppressed(suppressed);
    }
  }

  /** The test kit already deletes its base directory; this covers a failed start as well. */
  private static void deleteRecursively(Path directory) {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + directory, e);
    }
  }
}
