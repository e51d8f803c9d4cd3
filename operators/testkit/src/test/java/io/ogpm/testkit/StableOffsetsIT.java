package io.ogpm.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.flink.kafka.StableOffsets;
import io.ogpm.kafka.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Readers of committed data never stop short of a transaction that is open when they start: they
 * wait for it to be decided, or fail naming the partition. (A read_committed reader's end offset is
 * the last stable offset: taken as the end, it would silently return only what lies before the open
 * transaction.)
 */
@ExtendWith(KafkaFixtureExtension.class)
class StableOffsetsIT {
  private static final Duration LONG = Duration.ofMinutes(3);

  @Test
  void aReaderWaitsForAnOpenTransactionAndSeesItsRecordsOnceCommitted(KafkaFixture kafka)
      throws Exception {
    String topic = "open-then-committed";
    kafka.createTopic(topic, 2, Map.of());
    kafka.produce(topic, values("plain-", 10));
    try (KafkaProducer<byte[], byte[]> tx = transactional(kafka, topic)) {
      tx.beginTransaction();
      values("tx-", 20).forEach(v -> tx.send(new ProducerRecord<>(topic, v)));
      tx.flush();
      // The transaction is open: its records are in the log but not decided. A reader must not
      // call what lies before it "everything".
      assertThatThrownBy(
              () ->
                  KafkaClients.consumeAll(
                      kafka.bootstrapServers(), topic, true, Duration.ofSeconds(2)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("open-then-committed-")
          .hasMessageContaining("is still open after PT2S");
      try (Admin admin = admin(kafka)) {
        assertThatThrownBy(
                () -> StableOffsets.awaitTopics(admin, List.of(topic), Duration.ofSeconds(1)))
            .hasMessageStartingWith("partition open-then-committed-");
      }
      tx.commitTransaction();
    }
    assertThat(kafka.readCommitted(topic)).hasSize(30);
    try (Admin admin = admin(kafka)) {
      Map<TopicPartition, Long> end = StableOffsets.awaitTopics(admin, List.of(topic), LONG);
      // 30 records and one commit marker on each partition the transaction wrote to.
      assertThat(end.values().stream().mapToLong(Long::longValue).sum()).isBetween(31L, 32L);
    }
  }

  @Test
  void anAbortedTransactionEndsTheWaitAndStaysHidden(KafkaFixture kafka) throws Exception {
    String topic = "open-then-aborted";
    kafka.createTopic(topic, 1, Map.of());
    kafka.produce(topic, values("plain-", 5));
    try (KafkaProducer<byte[], byte[]> tx = transactional(kafka, topic)) {
      tx.beginTransaction();
      values("tx-", 7).forEach(v -> tx.send(new ProducerRecord<>(topic, v)));
      tx.flush();
      tx.abortTransaction();
    }
    assertThat(kafka.readCommitted(topic)).hasSize(5);
    assertThat(kafka.readUncommitted(topic)).hasSize(12);
  }

  @Test
  void aMissingTopicIsNamed(KafkaFixture kafka) {
    try (Admin admin = admin(kafka)) {
      assertThatThrownBy(() -> StableOffsets.awaitTopics(admin, List.of("no-such-topic"), LONG))
          .hasMessage("topic 'no-such-topic' does not exist");
    }
  }

  private static Admin admin(KafkaFixture kafka) {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
  }

  private static KafkaProducer<byte[], byte[]> transactional(KafkaFixture kafka, String topic) {
    KafkaProducer<byte[], byte[]> p =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                topic + "-tx",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class));
    p.initTransactions();
    return p;
  }

  private static List<byte[]> values(String prefix, int n) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add((prefix + i).getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }
}
