package io.ogpm.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The check an exactly-once pipeline relies on, run against any {@link KafkaFixture}: one committed
 * and one aborted transaction over three partitions, then read_committed must see only the
 * committed records while read_uncommitted sees both.
 */
final class TransactionScenario {

  static final int COMMITTED = 1_000;
  static final int ABORTED = 100;
  private static final int PARTITIONS = 3;

  private TransactionScenario() {}

  static void run(KafkaFixture kafka, String topic) {
    kafka.createTopic(topic, PARTITIONS, Map.of());
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            kafka.bootstrapServers(),
            ProducerConfig.TRANSACTIONAL_ID_CONFIG,
            topic + "-tx",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      producer.initTransactions();
      producer.beginTransaction();
      send(producer, topic, "committed-", COMMITTED);
      producer.commitTransaction();

      producer.beginTransaction();
      send(producer, topic, "aborted-", ABORTED);
      producer.flush(); // write the records to the log, so the abort has something to hide
      producer.abortTransaction();
    }

    List<KafkaRecord> committed = kafka.readCommitted(topic);
    List<KafkaRecord> everything = kafka.readUncommitted(topic);

    assertThat(committed).hasSize(COMMITTED);
    assertThat(values(committed)).allMatch(v -> v.startsWith("committed-")).doesNotHaveDuplicates();
    assertThat(committed).extracting(KafkaRecord::partition).containsOnly(0, 1, 2);
    assertThat(everything).hasSize(COMMITTED + ABORTED);
    assertThat(values(everything)).filteredOn(v -> v.startsWith("aborted-")).hasSize(ABORTED);
  }

  /** Explicit partitions, so every partition carries both transactions. */
  private static void send(
      KafkaProducer<byte[], byte[]> producer, String topic, String prefix, int count) {
    for (int i = 0; i < count; i++) {
      byte[] value = (prefix + i).getBytes(StandardCharsets.UTF_8);
      producer.send(new ProducerRecord<>(topic, i % PARTITIONS, null, value));
    }
  }

  private static List<String> values(List<KafkaRecord> records) {
    return records.stream().map(KafkaRecord::valueAsString).toList();
  }
}
