package io.ogpm.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka through {@link KafkaFixtures}: the in-JVM broker by default, the {@code apache/kafka}
 * container with {@code -Dogpm.kafka=container} and Docker.
 */
@ExtendWith(KafkaFixtureExtension.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class EmbeddedKafkaIT {

  @Test
  void readCommittedSeesOnlyCommittedTransaction(KafkaFixture kafka) {
    TransactionScenario.run(kafka, "transactions");
  }

  @Test
  void producesAndConsumesPlainRecords(KafkaFixture kafka) {
    kafka.createTopic("plain", 2, Map.of("cleanup.policy", "delete"));
    List<byte[]> values =
        List.of("a", "b", "c").stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toList();

    kafka.produce("plain", values);

    List<ConsumerRecord<byte[], byte[]>> read =
        kafka.consumeAll("plain", true, KafkaFixture.PATIENCE);
    assertThat(read)
        .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
        .containsExactlyInAnyOrder("a", "b", "c");
  }

  @Test
  void producedRecordsAreReadBackWithTheirCoordinatesKeysTimestampsAndHeaders(KafkaFixture kafka) {
    kafka.createTopic("json", 3);
    List<KafkaRecord> sent =
        kafka.produce(
            "json",
            TestRecord.json("{\"x\":1}")
                .withKey("k1")
                .withPartition(0)
                .withTimestamp(Instant.parse("2026-01-01T00:00:00Z")),
            TestRecord.json("{\"x\":2}").withPartition(2).withHeader("h", "v"));
    List<KafkaRecord> read = kafka.awaitCommitted("json", 2);
    assertThat(read).containsExactlyInAnyOrderElementsOf(sent);
    assertThat(sent).extracting(KafkaRecord::coordinates).containsExactly("json-0@0", "json-2@0");
    assertThat(sent.get(0).timestamp())
        .isEqualTo(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli());
    assertThat(sent.get(0).keyAsString()).isEqualTo("k1");
    assertThat(sent.get(1).header("h")).isEqualTo("v");
  }

  @Test
  void jsonLinesAreProducedInOrderSkippingBlankLines(KafkaFixture kafka, @TempDir Path dir)
      throws Exception {
    kafka.createTopic("lines", 1);
    Path file =
        Files.writeString(dir.resolve("in.jsonl"), "{\"i\":0}\n\n{\"i\":1}\n  \n{\"i\":2}\n");
    List<KafkaRecord> sent = kafka.produceJsonLines("lines", file);
    assertThat(sent)
        .extracting(KafkaRecord::valueAsString)
        .containsExactly("{\"i\":0}", "{\"i\":1}", "{\"i\":2}");
    assertThat(sent).extracting(KafkaRecord::offset).containsExactly(0L, 1L, 2L);
    assertThat(kafka.readCommitted("lines")).isEqualTo(sent);
  }

  /**
   * The kit's topics keep records stamped in the past, and raw topics are stamped by the broker,
   * even on a broker whose retention would delete them: one that keeps records 7 days and checks
   * every 200 ms, where a topic with the broker's default loses them.
   */
  @Test
  void theKitsTopicsKeepRecordsStampedInThePast() {
    try (KafkaFixture kafka =
        KafkaFixtures.start(
            Map.of(
                "log.retention.ms",
                Long.toString(Duration.ofDays(7).toMillis()),
                "log.retention.check.interval.ms",
                "200",
                "log.initial.task.delay.ms",
                "0"))) {
      kafka.createTopic("kept", 1);
      kafka.createRawTopic("raw", 1);
      kafka.createTopic("default", 1, Map.of());
      TestRecord old = TestRecord.json("{}").withTimestamp(Instant.parse("2026-01-01T00:00:00Z"));
      long before = System.currentTimeMillis();
      for (String t : List.of("kept", "raw", "default")) {
        kafka.produce(t, old, old, old);
      }
      Await.until(
          "retention deletes the old records of topic default",
          () -> kafka.readCommitted("default").size(),
          n -> n == 0);
      assertThat(kafka.readCommitted("kept")).hasSize(3);
      assertThat(kafka.readCommitted("raw"))
          .hasSize(3)
          .allSatisfy(r -> assertThat(r.timestamp()).isGreaterThanOrEqualTo(before));
    }
  }
}
