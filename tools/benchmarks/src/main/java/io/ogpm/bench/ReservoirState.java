package io.ogpm.bench;

import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.typeutils.PerturbedRecordTypeInfo;
import io.ogpm.kafka.KafkaClients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;

/**
 * What the contribution bound keeps per user: each chosen record as its keyed state holds it (the
 * perturbed JSON, key, user, source and time, in {@link PerturbedRecordTypeInfo}'s serializer, as
 * checkpoints write it), measured on records a bounded run released.
 */
final class ReservoirState {
  private ReservoirState() {}

  /**
   * The mean serialized bytes of up to {@code sample} records of {@code output} (any of its
   * partitions: an input written without keys may all land in one).
   */
  static double meanRecordBytes(String bootstrapServers, String output, String input, int sample) {
    TypeSerializer<PerturbedRecord> serializer =
        PerturbedRecordTypeInfo.INSTANCE.createSerializer(new SerializerConfigImpl());
    DataOutputSerializer bytes = new DataOutputSerializer(4096);
    long total = 0;
    int n = 0;
    try (KafkaConsumer<byte[], byte[]> consumer = KafkaClients.consumer(bootstrapServers, true)) {
      List<TopicPartition> partitions = new ArrayList<>();
      consumer
          .partitionsFor(output)
          .forEach(p -> partitions.add(new TopicPartition(output, p.partition())));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      while (n < sample && partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          if (n == sample) {
            break;
          }
          String user = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
          PerturbedRecord record =
              new PerturbedRecord(
                      r.key(), r.value(), 5.5, user, r.timestamp(), TimestampType.LOG_APPEND_TIME)
                  .from(input, r.partition(), r.offset());
          bytes.clear();
          serializer.serialize(record, bytes);
          total += bytes.length();
          n++;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (n == 0) {
      throw new IllegalStateException(output + " holds no record to measure");
    }
    return (double) total / n;
  }
}
