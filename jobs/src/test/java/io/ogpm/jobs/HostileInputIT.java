package io.ogpm.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.record.HostileInputs;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import io.ogpm.testkit.PrivacyAssertions;
import io.ogpm.testkit.TestRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hostile input through the Flink operator against a real broker (the aggregation's deserializer is
 * checked on the same generator in PerturbedValuesDeserializerTest): the job never fails, every
 * input ends in exactly one of the perturbed or dead-letter topics, and no output, dead letter or
 * log line carries a raw value.
 */
class HostileInputIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV = LdpTestEnvironment.builder().parallelism(2).build();

  @Test
  void hostileInputThroughTheOperatorIsAccountedForAndLeaksNothing() throws Exception {
    KafkaFixture kafka = ENV.kafka();
    List<byte[]> values = HostileInputs.generate(11, 3_000);
    kafka.createTopic("hostile-raw", 2);
    kafka.createTopic("hostile-out", 2);
    kafka.createTopic("hostile-dead", 1);
    List<KafkaRecord> inputs =
        kafka.produceRecords("hostile-raw", values.stream().map(TestRecord::value).toList());
    PrivacyConfig config = PrivacyConfig.parse(HostileInputs.CONFIG_REJECT);
    try (LogCapture logs = new LogCapture()) {
      PerturbJob.Settings settings =
          PerturbJob.Settings.builder()
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
      StreamExecutionEnvironment env = ENV.executionEnvironment();
      PerturbJob.build(env, settings);
      env.execute("hostile input");
      List<KafkaRecord> out = kafka.readCommitted("hostile-out");
      List<KafkaRecord> dead = kafka.readCommitted("hostile-dead");
      assertThat(out.size() + dead.size()).isEqualTo(values.size());
      assertThat(out).isNotEmpty();
      for (KafkaRecord r : out) {
        assertThat(new String(r.value(), StandardCharsets.UTF_8))
            .doesNotContain(HostileInputs.MARKER);
      }
      for (KafkaRecord r : dead) {
        assertThat(new String(r.value(), StandardCharsets.UTF_8))
            .doesNotContain(HostileInputs.MARKER);
      }
      PrivacyAssertions.assertPrivacyContract(config, inputs, out, dead);
      // The capture works (it sees this line), and no line carries a value.
      org.apache.logging.log4j.LogManager.getLogger("io.ogpm.test").warn("log capture check");
      assertThat(logs.lines()).anyMatch(l -> l.contains("log capture check"));
      assertThat(logs.lines()).noneMatch(l -> l.contains(HostileInputs.MARKER));
    }
  }
}
