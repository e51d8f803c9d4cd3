package io.ogpm.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.testkit.EmbeddedKafka;
import io.ogpm.testkit.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * Records stamped long ago (the sample's 2026-01-01) survive the broker's retention in every demo
 * topic. The broker here checks retention every 200 ms; a control topic with the default 7-day
 * retention shows that the check ran and deletes such records.
 */
class DemoTopicsIT {
  static final long LONG_AGO = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
  static final int PER_TOPIC = 50;

  @Test
  void oldTimestampsAreNotDeletedByRetention() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(Map.of(
        "log.retention.check.interval.ms", "200",
        "log.initial.task.delay.ms", "0"))) {
      Demo.createTopics(kafka);
      kafka.createTopic("control", 1, Map.of());
      List<String> topics = List.of(Demo.RAW, Demo.PERTURBED, Demo.DEAD, Demo.STATS, "control");
      for (String topic : topics) {
        KafkaClients.produceRecords(kafka.bootstrapServers(), stamped(topic));
      }
      long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
      while (!KafkaClients.consumeAll(kafka.bootstrapServers(), "control", true, Duration.ofMinutes(2)).isEmpty()) {
        assertThat(System.nanoTime()).as("the retention check deletes old records of the control topic").isLessThan(deadline);
        Thread.sleep(200);
      }
      for (String topic : topics.subList(0, 4)) {
        assertThat(KafkaClients.consumeAll(kafka.bootstrapServers(), topic, true, Duration.ofMinutes(2)))
            .as(topic).hasSize(PER_TOPIC);
      }
    }
  }

  private static List<ProducerRecord<byte[], byte[]>> stamped(String topic) {
    List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
    for (int i = 0; i < PER_TOPIC; i++) {
      out.add(new ProducerRecord<>(topic, 0, LONG_AGO + i, null, ("{\"i\":" + i + "}").getBytes(StandardCharsets.UTF_8)));
    }
    return out;
  }
}
