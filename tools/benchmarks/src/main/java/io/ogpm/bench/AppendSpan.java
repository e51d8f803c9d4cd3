package io.ogpm.bench;

import io.ogpm.kafka.KafkaClients;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * A perturbation's throughput from its output: the records over the span of the broker's append
 * times ({@code LogAppendTime}), from the first record written to the last, without the job's start
 * and its final commit.
 */
final class AppendSpan {
  private AppendSpan() {}

  /**
   * Records per second over the append span of {@code output} (two partitions, committed records).
   *
   * @throws IllegalStateException if the output does not hold exactly {@code records} records
   */
  static double rate(String bootstrapServers, String output, long records) {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    long count = 0;
    try (KafkaConsumer<byte[], byte[]> consumer = KafkaClients.consumer(bootstrapServers, true)) {
      List<TopicPartition> partitions =
          List.of(new TopicPartition(output, 0), new TopicPartition(output, 1));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          first = Math.min(first, r.timestamp());
          last = Math.max(last, r.timestamp());
          count++;
        }
      }
    }
    if (count != records) {
      throw new IllegalStateException(
          output + " holds " + count + " records, not the " + records + " of the input");
    }
    return records * 1000.0 / Math.max(1, last - first);
  }
}
