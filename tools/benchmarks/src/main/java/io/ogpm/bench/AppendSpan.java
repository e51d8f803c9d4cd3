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
   * Records per second over the append span of {@code outputs} together, from the first record
   * written to any to the last: for a pipeline that writes each input to one of them (the perturbed
   * topic or the dead letters).
   *
   * @throws IllegalStateException if they do not hold exactly {@code records} records together
   */
  static double rate(String bootstrapServers, List<String> outputs, long records) {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    long count = 0;
    try (KafkaConsumer<byte[], byte[]> consumer = KafkaClients.consumer(bootstrapServers, true)) {
      List<TopicPartition> partitions = new java.util.ArrayList<>();
      for (String output : outputs) {
        consumer
            .partitionsFor(output)
            .forEach(p -> partitions.add(new TopicPartition(output, p.partition())));
      }
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
          outputs + " hold " + count + " records, not the " + records + " of the input");
    }
    return records * 1000.0 / Math.max(1, last - first);
  }
}
