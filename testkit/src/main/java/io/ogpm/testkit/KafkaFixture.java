package io.ogpm.testkit;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import io.ogpm.testkit.KafkaClients;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A running Kafka cluster for tests, whatever hosts it: the in-JVM broker or a Docker container.
 *
 * <p>Why an interface: the same tests must run here (no Docker, {@link EmbeddedKafkaFixture}) and
 * against the official {@code apache/kafka} image where Docker exists ({@link
 * ContainerKafkaFixture}); {@link KafkaFixtures#start()} picks one.
 */
public interface KafkaFixture extends AutoCloseable {

  /**
   * Broker settings of every test fixture. Tests stamp records at fixed past instants (2026-01-01)
   * for reproducible windows and budget periods, and time-based retention (7 days by default)
   * deletes such records at the broker's first retention check, 30 s after it starts: a test class
   * that ran longer lost its input ({@code DemoTopicsIT} shows the effect on topics).
   */
  Map<String, String> TEST_BROKER_PROPERTIES = Map.of("log.retention.ms", "-1");

  /**
   * How long tests wait for a condition (records read, a job running, a metric reached). Tests end
   * as soon as the condition holds; the deadline only bounds a real failure, so it is generous: a
   * shared 2-core machine under load can be many times slower than an idle one.
   */
  Duration PATIENCE = Duration.ofMinutes(5);

  /** The {@code bootstrap.servers} value for clients. */
  String bootstrapServers();

  /** Creates a topic (replication factor 1) and returns once every partition has a leader. */
  void createTopic(String name, int partitions, Map<String, String> configs);

  /** Writes {@code values} (no keys) with a plain, non-transactional producer and waits for acks. */
  default void produce(String topic, List<byte[]> values) {
    KafkaClients.produce(bootstrapServers(), topic, values);
  }

  /**
   * Reads every partition of {@code topic} from the beginning up to its current end offset (the
   * last stable offset when {@code readCommitted}, so open transactions are not waited for).
   *
   * @throws IllegalStateException if the end is not reached within {@code timeout}
   */
  default List<ConsumerRecord<byte[], byte[]>> consumeAll(
      String topic, boolean readCommitted, Duration timeout) {
    return KafkaClients.consumeAll(bootstrapServers(), topic, readCommitted, timeout);
  }

  /** Stops the cluster and frees its resources; does not throw checked exceptions. */
  @Override
  void close();
}
