package io.ogpm.testkit;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link KafkaFixture} on the in-JVM broker: the default, since it needs no Docker.
 *
 * @deprecated {@link EmbeddedKafka} is a {@link KafkaFixture} itself; start one with the test
 *     settings through {@link KafkaFixtures#start(java.util.Map)}.
 */
@Deprecated
public final class EmbeddedKafkaFixture implements KafkaFixture {

  private final EmbeddedKafka kafka;

  private EmbeddedKafkaFixture(EmbeddedKafka kafka) {
    this.kafka = kafka;
  }

  /**
   * Starts a fresh broker with {@link EmbeddedKafka#DEFAULT_BROKER_PROPERTIES} and {@link
   * KafkaFixture#TEST_BROKER_PROPERTIES}.
   */
  public static EmbeddedKafkaFixture start() {
    return start(Map.of());
  }

  /**
   * Starts a fresh broker with {@link EmbeddedKafka#DEFAULT_BROKER_PROPERTIES}, {@link
   * KafkaFixture#TEST_BROKER_PROPERTIES} and then {@code brokerProperties}.
   */
  public static EmbeddedKafkaFixture start(Map<String, String> brokerProperties) {
    Map<String, String> properties = new LinkedHashMap<>(KafkaFixture.TEST_BROKER_PROPERTIES);
    properties.putAll(brokerProperties);
    return new EmbeddedKafkaFixture(EmbeddedKafka.start(properties));
  }

  @Override
  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  @Override
  public void createTopic(String name, int partitions, Map<String, String> configs) {
    kafka.createTopic(name, partitions, configs);
  }

  @Override
  public void close() {
    kafka.close();
  }

  @Override
  public String toString() {
    return "embedded Kafka at " + bootstrapServers();
  }
}
