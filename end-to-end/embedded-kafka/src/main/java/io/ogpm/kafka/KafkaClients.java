package io.ogpm.kafka;

import io.ogpm.flink.kafka.StableOffsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
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
 * Plain Kafka client calls shared by the demo, the benchmarks and the test kit: produce and wait
 * for every ack; read a whole topic up to its current end, committed transactions included.
 */
public final class KafkaClients {

  private static final Duration POLL = Duration.ofMillis(200);

  private KafkaClients() {}

  /** Writes values without keys and waits for every acknowledgement. */
  public static void produce(String bootstrapServers, String topic, List<byte[]> values) {
    produceRecords(
        bootstrapServers,
        values.stream().map(v -> new ProducerRecord<byte[], byte[]>(topic, v)).toList());
  }

  /**
   * Writes records (keys, timestamps, headers as given), waits for every acknowledgement, and
   * returns where each landed, in order.
   */
  public static List<RecordMetadata> produceRecords(
      String bootstrapServers, List<ProducerRecord<byte[], byte[]>> records) {
    String topic = records.isEmpty() ? "" : records.get(0).topic();
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      List<Future<RecordMetadata>> acks = new ArrayList<>(records.size());
      for (ProducerRecord<byte[], byte[]> record : records) {
        acks.add(producer.send(record));
      }
      producer.flush();
      List<RecordMetadata> landed = new ArrayList<>(acks.size());
      for (Future<RecordMetadata> ack : acks) {
        landed.add(ack.get());
      }
      return landed;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while producing to " + topic, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("could not produce to " + topic, e.getCause());
    }
  }

  /**
   * Reads every partition of {@code topic} from the beginning to its end as of the call. Under
   * {@code read_committed} it first waits until every transaction below that end is decided ({@link
   * StableOffsets}), so a reader started right after a job commits sees all of it; the position
   * then moves past transaction markers and aborted records to that end.
   *
   * @throws IllegalStateException if a transaction stays open for {@code timeout}, or the end is
   *     not reached within another {@code timeout}; the message names the topic and what was read
   */
  public static List<ConsumerRecord<byte[], byte[]>> consumeAll(
      String bootstrapServers, String topic, boolean readCommitted, Duration timeout) {
    Map<TopicPartition, Long> end;
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      List<TopicPartition> partitions = StableOffsets.partitions(admin, List.of(topic), timeout);
      if (partitions.isEmpty()) {
        throw new IllegalStateException("topic " + topic + " has no partitions");
      }
      end =
          readCommitted
              ? StableOffsets.await(admin, partitions, timeout)
              : StableOffsets.endOffsets(admin, partitions, timeout);
    }
    try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrapServers, readCommitted)) {
      List<TopicPartition> partitions = List.copyOf(end.keySet());
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      List<ConsumerRecord<byte[], byte[]>> records = readTo(consumer, end, timeout, topic);
      // A record past the end was written after the call: not part of this read.
      records.removeIf(r -> r.offset() >= end.get(new TopicPartition(r.topic(), r.partition())));
      return records;
    }
  }

  /**
   * A consumer of byte keys and values that commits nothing, of committed records only if {@code
   * readCommitted}.
   */
  public static KafkaConsumer<byte[], byte[]> consumer(
      String bootstrapServers, boolean readCommitted) {
    return new KafkaConsumer<>(
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            readCommitted ? "read_committed" : "read_uncommitted",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false,
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class));
  }

  /**
   * Polls {@code consumer} until its position in every partition of {@code end} reaches that
   * partition's offset, and returns every record polled on the way (the last poll may return some
   * past the end).
   *
   * @throws IllegalStateException if the end is not reached within {@code timeout}; the message
   *     says how many records of {@code topic} were read, and the end
   */
  public static List<ConsumerRecord<byte[], byte[]>> readTo(
      KafkaConsumer<byte[], byte[]> consumer,
      Map<TopicPartition, Long> end,
      Duration timeout,
      String topic) {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    while (end.entrySet().stream()
        .anyMatch(e -> consumer.position(e.getKey(), timeout) < e.getValue())) {
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "read "
                + records.size()
                + " records of "
                + topic
                + " but not to "
                + end
                + " within "
                + timeout);
      }
      consumer.poll(POLL).forEach(records::add);
    }
    return records;
  }
}
