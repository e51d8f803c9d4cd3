package io.ogpm.jobs;

import io.ogpm.flink.kafka.KafkaSettings;
import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaFixtureExtension;
import io.ogpm.record.HostileInputs;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Hostile input through the Flink operator against a real broker (the aggregation's deserializer
 * is checked on the same generator in PerturbedValuesDeserializerTest): the job
 * never fails, every input ends in exactly one of the perturbed or dead-letter topics, and no
 * output, dead letter or log line carries a raw value.
 */
@ExtendWith(KafkaFixtureExtension.class)
class HostileInputIT {
  @Test
  void hostileInputThroughTheOperatorIsAccountedForAndLeaksNothing(KafkaFixture kafka) throws Exception {
    List<byte[]> inputs = HostileInputs.generate(11, 3_000);
    kafka.createTopic("hostile-raw", 2, Map.of());
    kafka.createTopic("hostile-out", 2, Map.of());
    kafka.createTopic("hostile-dead", 1, Map.of());
    kafka.produce("hostile-raw", inputs);
    PrivacyConfig config = PrivacyConfig.parse(HostileInputs.CONFIG_REJECT);
    try (LogCapture logs = new LogCapture(); TestCluster cluster = new TestCluster(1, 2)) {
      PerturbJob.Settings settings = PerturbJob.Settings.builder()
          .config(config)
          .kafka(KafkaSettings.of(kafka.bootstrapServers()))
          .inputTopic("hostile-raw")
          .outputTopic("hostile-out")
          .deadLetterTopic("hostile-dead")
          .groupId("hostile")
          .transactionalIdPrefix("hostile")
          .keySource(KeySource.none())
          .bounded(true)
          .checkpointInterval(Duration.ofMillis(500))
          .parallelism(2)
          .build();
      var job = cluster.submit(env -> PerturbJob.build(env, settings), null);
      assertThat(cluster.await(job, Duration.ofMinutes(2)).isSuccess()).isTrue();
      List<ConsumerRecord<byte[], byte[]>> out = kafka.consumeAll("hostile-out", true, KafkaFixture.PATIENCE);
      List<ConsumerRecord<byte[], byte[]>> dead = kafka.consumeAll("hostile-dead", true, KafkaFixture.PATIENCE);
      assertThat(out.size() + dead.size()).isEqualTo(inputs.size());
      assertThat(out).isNotEmpty();
      for (ConsumerRecord<byte[], byte[]> r : out) {
        assertThat(new String(r.value(), StandardCharsets.UTF_8)).doesNotContain(HostileInputs.MARKER);
      }
      for (ConsumerRecord<byte[], byte[]> r : dead) {
        assertThat(new String(r.value(), StandardCharsets.UTF_8)).doesNotContain(HostileInputs.MARKER);
      }
      // The capture works (it sees this line), and no line carries a value.
      org.apache.logging.log4j.LogManager.getLogger("io.ogpm.test").warn("log capture check");
      assertThat(logs.lines()).anyMatch(l -> l.contains("log capture check"));
      assertThat(logs.lines()).noneMatch(l -> l.contains(HostileInputs.MARKER));
    }
  }
}
