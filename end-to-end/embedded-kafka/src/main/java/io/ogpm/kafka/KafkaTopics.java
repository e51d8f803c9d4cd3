package io.ogpm.kafka;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates a topic and waits until every partition has a leader: the one implementation for the
 * embedded broker, the test kit's fixtures and {@code ogpm topics}.
 *
 * <p>Why wait: in KRaft, {@code CreateTopics} returns once the controller has committed the topic,
 * but a broker may not have applied that metadata yet; a producer, a Flink source or a describe
 * started at that moment can fail with "unknown topic or partition", or find nothing.
 */
public final class KafkaTopics {

  private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

  private KafkaTopics() {}

  /**
   * Creates {@code topic} and returns once it has all its partitions, each with a leader. Each
   * request is bounded by {@code timeout}, and so is the wait for the leaders.
   *
   * @throws TopicException with a one-line message naming the topic and what failed; its cause is
   *     the Kafka error, where there is one (an authorization failure, an existing topic)
   */
  public static void createAndAwait(Admin admin, NewTopic topic, Duration timeout) {
    String name = topic.name();
    get(admin.createTopics(List.of(topic)).all(), "create topic '" + name + "'", timeout);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!isReady(admin, topic, timeout)) {
      if (System.nanoTime() - deadline > 0) {
        throw new TopicException(
            "topic '"
                + name
                + "' was created but has no leader for every partition after "
                + timeout,
            null);
      }
      try {
        Thread.sleep(POLL_INTERVAL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TopicException("interrupted while waiting for topic '" + name + "'", e);
      }
    }
  }

  private static boolean isReady(Admin admin, NewTopic topic, Duration timeout) {
    String name = topic.name();
    KafkaFuture<TopicDescription> described =
        admin.describeTopics(List.of(name)).topicNameValues().get(name);
    try {
      TopicDescription d = described.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return (topic.numPartitions() < 0 || d.partitions().size() == topic.numPartitions())
          && d.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty());
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return false;
      }
      throw new TopicException("cannot describe topic '" + name + "'", e.getCause());
    } catch (TimeoutException e) {
      throw new TopicException(
          "Kafka did not describe topic '" + name + "' within " + timeout, null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TopicException("interrupted while describing topic '" + name + "'", e);
    }
  }

  private static <T> T get(KafkaFuture<T> future, String what, Duration timeout) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new TopicException("cannot " + what, e.getCause());
    } catch (TimeoutException e) {
      throw new TopicException("Kafka did not " + what + " within " + timeout, null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TopicException("interrupted while trying to " + what, e);
    }
  }

  /** A topic that could not be created or did not become ready; the message is one line. */
  public static final class TopicException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    TopicException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
