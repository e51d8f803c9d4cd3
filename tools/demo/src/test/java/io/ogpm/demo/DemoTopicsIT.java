package io.ogpm.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.testkit.Await;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaFixtures;
import io.ogpm.testkit.TestRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Records stamped long ago (the sample's 2026-01-01) survive the broker's retention in every demo
 * topic. The broker here checks retention every 200 ms and keeps records 7 days by default (the
 * test kit's brokers keep them forever: that is overridden); a control topic with that default
 * shows that the check ran and deletes such records.
 */
class DemoTopicsIT {
  static final Instant LONG_AGO = Instant.parse("2026-01-01T00:00:00Z");
  static final int PER_TOPIC = 50;

  @Test
  void oldTimestampsAreNotDeletedByRetention() {
    try (KafkaFixture kafka =
        KafkaFixtures.start(
            Map.of(
                "log.retention.ms", Long.toString(Duration.ofDays(7).toMillis()),
                "log.retention.check.interval.ms", "200",
                "log.initial.task.delay.ms", "0"))) {
      DemoTopics.create(kafka.bootstrapServers(), 2);
      kafka.createTopic("control", 1, Map.of());
      List<String> topics =
          List.of(
              DemoTopics.RAW, DemoTopics.PERTURBED, DemoTopics.DEAD, DemoTopics.STATS, "control");
      for (String topic : topics) {
        kafka.produceRecords(topic, stamped());
      }
      Await.until(
          "the retention check deletes the old records of the control topic",
          () -> kafka.readCommitted("control").size(),
          n -> n == 0);
      for (String topic : topics.subList(0, 4)) {
        assertThat(kafka.readCommitted(topic)).as(topic).hasSize(PER_TOPIC);
      }
    }
  }

  private static List<TestRecord> stamped() {
    List<TestRecord> out = new ArrayList<>();
    for (int i = 0; i < PER_TOPIC; i++) {
      out.add(
          TestRecord.json("{\"i\":" + i + "}")
              .withPartition(0)
              .withTimestamp(LONG_AGO.plusMillis(i)));
    }
    return out;
  }
}
