package io.ogpm.kafka;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * Creates topics on a one-broker cluster (the embedded broker, the test kit's container, the
 * demo's): one replica each, since there is no other broker to hold a second, and ready when {@link
 * #create} returns ({@link KafkaTopics}). Holds one admin client until {@link #close()}.
 */
public final class SingleBrokerTopics implements AutoCloseable {
  /** How long a creation, and the wait for its leaders, may take. */
  static final Duration TIMEOUT = Duration.ofMinutes(2);

  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

  private final Admin admin;

  private SingleBrokerTopics(Admin admin) {
    this.admin = admin;
  }

  /** An admin client of the broker at {@code bootstrapServers}. */
  public static SingleBrokerTopics connect(String bootstrapServers) {
    return new SingleBrokerTopics(
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)));
  }

  /**
   * Creates a topic (replication factor 1) with the given topic-level configs and returns once
   * every partition has a leader, so producers and sources can use it at once.
   *
   * @throws KafkaTopics.TopicException naming the topic and what failed
   */
  public void create(String name, int partitions, Map<String, String> configs) {
    KafkaTopics.createAndAwait(
        admin, new NewTopic(name, partitions, (short) 1).configs(Map.copyOf(configs)), TIMEOUT);
  }

  @Override
  public void close() {
    admin.close(CLOSE_TIMEOUT);
  }
}
