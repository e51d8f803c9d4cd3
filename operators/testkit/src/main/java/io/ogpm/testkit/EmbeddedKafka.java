package io.ogpm.testkit;

import io.ogpm.kafka.embedded.EmbeddedBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A Kafka 4.2 broker inside this JVM ({@link EmbeddedBroker}: one KRaft node, transactions
 * included, no Docker) as a {@link KafkaFixture}, with all its helpers. Tests usually get one
 * through {@link LdpTestEnvironment} or {@link KafkaFixtures#start()}, which also apply {@link
 * KafkaFixture#TEST_BROKER_PROPERTIES}.
 */
public final class EmbeddedKafka implements KafkaFixture {

  /** Largest {@code transaction.timeout.ms} a producer (or an exactly-once sink) may ask for. */
  public static final Duration TRANSACTION_MAX_TIMEOUT = EmbeddedBroker.TRANSACTION_MAX_TIMEOUT;

  /** Broker settings a one-node cluster needs for transactions and consumer groups. */
  public static final Map<String, String> DEFAULT_BROKER_PROPERTIES =
      EmbeddedBroker.DEFAULT_BROKER_PROPERTIES;

  private final EmbeddedBroker broker;

  private EmbeddedKafka(EmbeddedBroker broker) {
    this.broker = broker;
  }

  /** Starts a broker with {@link #DEFAULT_BROKER_PROPERTIES}; returns once it accepts clients. */
  public static EmbeddedKafka start() {
    return start(Map.of());
  }

  /**
   * Starts a broker with {@link #DEFAULT_BROKER_PROPERTIES} overridden by {@code brokerProperties}
   * (for example a smaller {@code transaction.max.timeout.ms} to test a misconfigured sink).
   *
   * @throws IllegalStateException if the broker does not start; nothing is left behind
   */
  public static EmbeddedKafka start(Map<String, String> brokerProperties) {
    return new EmbeddedKafka(EmbeddedBroker.start(brokerProperties));
  }

  /** The {@code bootstrap.servers} value for clients, e.g. {@code localhost:41234}. */
  @Override
  public String bootstrapServers() {
    return broker.bootstrapServers();
  }

  /** Where the broker keeps its logs and KRaft metadata; deleted by {@link #close()}. */
  public Path dataDirectory() {
    return broker.dataDirectory();
  }

  /**
   * Creates a topic (replication factor 1) with the given topic-level configs and returns once
   * every partition has a leader, so producers and sources can use it at once.
   */
  @Override
  public void createTopic(String name, int partitions, Map<String, String> configs) {
    broker.createTopic(name, partitions, configs);
  }

  /** Stops the broker and deletes its data directory. Calling it again does nothing. */
  @Override
  public void close() {
    broker.close();
  }

  @Override
  public String toString() {
    return broker.toString();
  }
}
