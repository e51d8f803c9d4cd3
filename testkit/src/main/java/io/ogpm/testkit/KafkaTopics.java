package io.ogpm.testkit;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates a topic and waits until every partition has a leader.
 *
 * <p>Why wait: in KRaft, {@code CreateTopics} returns once the controller has committed the
 * topic, but a broker may not have applied that metadata yet; a producer or a Flink source started
 * at that moment can fail with "unknown topic or partition". Shared by {@link EmbeddedKafka} and
 * by the Testcontainers fixture so both behave alike. Internal to the kit.
 */
final class KafkaTopics {

  private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

  private KafkaTopics() {}

  /**
   * Creates {@code name} with replication factor 1 (the only one a single broker can host) and
   * returns once all its partitions have a leader.
   *
   * @throws IllegalStateException if creation fails or the topic is not ready within {@code
   *     timeout}
   */
  static void createAndAwait(
      Admin admin, String name, int partitions, Map<String, String> configs, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(Map.copyOf(configs));
    try {
      admin.createTopics(List.of(topic)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      while (!isReady(admin, name, partitions)) {
        if (System.nanoTime() - deadline > 0) {
          throw new IllegalStateException(
              "topic '" + name + "' has no leader for every partition after " + timeout);
        }
        Thread.sleep(POLL_INTERVAL.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topic '" + name + "'", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("could not create topic '" + name + "'", e);
    }
  }

  private static boolean isReady(Admin admin, String name, int partitions)
      throws InterruptedException, ExecutionException {
    try {
      TopicDescription description =
          admin.describeTopics(List.of(name)).allTopicNames().get().get(name);
      return description.partitions().size() == partitions
          && description.partitions().stream().allMatch(p -> p.leader() != null);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return false;
      }
      throw e;
    }
  }
}
