package io.ogpm.flink.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;

/**
 * Stopping offsets for a bounded {@code KafkaSource}: the end of each partition when the job
 * starts, once every transaction below it is decided ({@link StableOffsets}).
 *
 * <p>Why not {@link OffsetsInitializer#latest()}: that end includes the records of transactions
 * still open, so a {@code read_committed} reader waits for them without any deadline (up to the
 * producer's transaction timeout, after which they are aborted). Here the enumerator waits with a
 * deadline and the job fails naming the partition whose transaction stays open.
 */
@Internal
public final class StableEndOffsets implements OffsetsInitializer {
  private static final long serialVersionUID = 1L;

  /**
   * How long a bounded job waits for open transactions on its input: half the exactly-once sinks'
   * transaction timeout (10 minutes), after which the broker would abort them anyway.
   */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);

  private final KafkaSettings kafka;
  private final Duration timeout;

  public StableEndOffsets(KafkaSettings kafka, Duration timeout) {
    this.kafka = kafka;
    this.timeout = timeout;
  }

  @Override
  public Map<TopicPartition, Long> getPartitionOffsets(
      Collection<TopicPartition> partitions, PartitionOffsetsRetriever retriever) {
    if (partitions.isEmpty()) {
      return Map.of();
    }
    try (Admin admin = Admin.create(kafka.adminConfig())) {
      return new HashMap<>(StableOffsets.await(admin, partitions, timeout));
    }
  }

  @Override
  public OffsetResetStrategy getAutoOffsetResetStrategy() {
    return OffsetResetStrategy.LATEST;
  }
}
