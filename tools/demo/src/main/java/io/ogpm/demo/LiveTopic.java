package io.ogpm.demo;

import io.ogpm.kafka.KafkaClients;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * One topic read as it grows, for the live demo: each {@link #readCommitted} returns what was
 * committed since the last one, so a demo that runs for hours does not re-read its topics from the
 * start every few seconds.
 */
final class LiveTopic implements AutoCloseable {
  private final String topic;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final List<TopicPartition> partitions;

  private LiveTopic(
      String topic, KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions) {
    this.topic = topic;
    this.consumer = consumer;
    this.partitions = partitions;
  }

  /** A reader of every partition of {@code topic} from its beginning, isolation read_committed. */
  static LiveTopic open(String bootstrapServers, String topic, Duration timeout) {
    KafkaConsumer<byte[], byte[]> consumer = KafkaClients.consumer(bootstrapServers, true);
    try {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, timeout).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      if (partitions.isEmpty()) {
        throw new IllegalStateException("topic " + topic + " has no partitions");
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      return new LiveTopic(topic, consumer, partitions);
    } catch (RuntimeException e) {
      consumer.close();
      throw e;
    }
  }

  /**
   * The records committed since the last call: reads until every partition's position reaches its
   * last stable offset as of this call (read_committed: the end of what is decided), so whatever
   * was committed before the call is in the answer.
   *
   * @throws IllegalStateException if that end is not reached within {@code timeout}
   */
  List<ConsumerRecord<byte[], byte[]>> readCommitted(Duration timeout) {
    // Every record polled is kept, past that end too: the position has moved past it.
    return KafkaClients.readTo(consumer, consumer.endOffsets(partitions, timeout), timeout, topic);
  }

  @Override
  public void close() {
    consumer.close();
  }
}
