package io.ogpm.jobs.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The client code behind {@link KafkaFixture}'s helpers, kept apart so the interface stays short
 * and both fixtures share one implementation.
 */
final class FixtureClients {

  private static final Duration POLL = Duration.ofMillis(200);

  private FixtureClients() {}

  static void produce(String bootstrapServers, String topic, List<byte[]> values) {
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      List<Future<RecordMetadata>> acks = new ArrayList<>(values.size());
      for (byte[] value : values) {
        acks.add(producer.send(new ProducerRecord<>(topic, value)));
      }
      producer.flush();
      for (Future<RecordMetadata> ack : acks) {
        ack.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while producing to " + topic, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("could not produce to " + topic, e.getCause());
    }
  }

  /**
   * Assigns every partition (no consumer group, so no rebalance delay) and polls until each
   * position reaches the end offset taken at the start. Under read_committed the position also
   * moves past transaction markers and aborted records, so it does reach that end.
   */
  static List<ConsumerRecord<byte[], byte[]>> consumeAll(
      String bootstrapServers, String topic, boolean readCommitted, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                readCommitted ? "read_committed" : "read_uncommitted",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, timeout).stream()
              .map(p -> new TopicPartition(p.topic(), p.partition()))
              .toList();
      if (partitions.isEmpty()) {
        throw new IllegalStateException("topic " + topic + " has no partitions");
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
      List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
      while (partitions.stream().anyMatch(p -> consumer.position(p, timeout) < end.get(p))) {
        if (System.nanoTime() - deadline > 0) {
          throw new IllegalStateException(
              "read " + records.size() + " records of " + topic + " but not to " + end
                  + " within " + timeout);
        }
        consumer.poll(POLL).forEach(records::add);
      }
      return records;
    }
  }
}
