package io.ogpm.jobs.embedded;

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
 * Plain Kafka client helpers shared by the demo and the tests: produce and wait for every ack;
 * read a whole topic up to its current end.
 */
public final class KafkaClients {

  private static final Duration POLL = Duration.ofMillis(200);

  private KafkaClients() {}

  /** Writes values without keys and waits for every acknowledgement. */
  public static void produce(String bootstrapServers, String topic, List<byte[]> values) {
    produceRecords(bootstrapServers, values.stream().map(v -> new ProducerRecord<byte[], byte[]>(topic, v)).toList());
  }

  /** Writes records (keys, timestamps, headers as given) and waits for every acknowledgement. */
  public static void produceRecords(String bootstrapServers, List<ProducerRecord<byte[], byte[]>> records) {
    String topic = records.isEmpty() ? "" : records.get(0).topic();
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      List<Future<RecordMetadata>> acks = new ArrayList<>(records.size());
      for (ProducerRecord<byte[], byte[]> record : records) {
        acks.add(producer.send(record));
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
  public static List<ConsumerRecord<byte[], byte[]>> consumeAll(
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
