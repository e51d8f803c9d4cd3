package io.ogpm.testkit;

import io.ogpm.kafka.SingleBrokerTopics;
import java.util.Locale;
import java.util.Map;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * {@link KafkaFixture} on the official {@code apache/kafka} image, to check that what passes on the
 * in-JVM broker also passes on a stock broker process. Only usable where a Docker engine exists.
 *
 * <p>Testcontainers' {@link KafkaContainer} already sets the internal topics' replication factor
 * and min ISR to 1; the transaction timeout ceiling is set to match {@link EmbeddedKafka}.
 */
public final class ContainerKafkaFixture implements KafkaFixture {

  /** Same version as the {@code kafka-clients} on the class path. */
  public static final DockerImageName IMAGE = DockerImageName.parse("apache/kafka:4.2.0");

  private final KafkaContainer container;
  private final SingleBrokerTopics topics;

  private ContainerKafkaFixture(KafkaContainer container) {
    this.container = container;
    this.topics = SingleBrokerTopics.connect(container.getBootstrapServers());
  }

  /** Starts a container; fails if no Docker engine is reachable. */
  public static ContainerKafkaFixture start() {
    return start(Map.of());
  }

  /**
   * Starts a container with extra broker properties (each {@code a.b.c} passed to the image as the
   * environment variable {@code KAFKA_A_B_C}); fails if no Docker engine is reachable.
   */
  @SuppressWarnings("resource") // closed by close()
  public static ContainerKafkaFixture start(Map<String, String> brokerProperties) {
    KafkaContainer container =
        new KafkaContainer(IMAGE)
            .withEnv(
                "KAFKA_TRANSACTION_MAX_TIMEOUT_MS",
                Long.toString(EmbeddedKafka.TRANSACTION_MAX_TIMEOUT.toMillis()))
            .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0")
            // Tests stamp records at fixed past instants: see KafkaFixture#TEST_BROKER_PROPERTIES.
            .withEnv("KAFKA_LOG_RETENTION_MS", "-1");
    brokerProperties.forEach((k, v) -> container.withEnv(environmentVariable(k), v));
    container.start();
    return new ContainerKafkaFixture(container);
  }

  /**
   * The {@code apache/kafka} image's name for a broker property: {@code KAFKA_} and the key in
   * capitals.
   */
  static String environmentVariable(String property) {
    return "KAFKA_" + property.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  @Override
  public String bootstrapServers() {
    return container.getBootstrapServers();
  }

  @Override
  public void createTopic(String name, int partitions, Map<String, String> configs) {
    topics.create(name, partitions, configs);
  }

  @Override
  public void close() {
    try {
      topics.close();
    } finally {
      container.stop();
    }
  }

  @Override
  public String toString() {
    return "Kafka container " + IMAGE + " at " + bootstrapServers();
  }
}
