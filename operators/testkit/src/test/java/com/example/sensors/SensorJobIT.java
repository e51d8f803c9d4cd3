package com.example.sensors;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.LdpPerturbation;
import io.ogpm.flink.PerturbationResult;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.RawRecord;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.flink.kafka.PerturbationSinks;
import io.ogpm.flink.kafka.RawRecordSource;
import io.ogpm.testkit.KafkaFixture;
import io.ogpm.testkit.KafkaRecord;
import io.ogpm.testkit.LdpTestEnvironment;
import io.ogpm.testkit.PrivacyAssertions;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SensorJobIT {
  @RegisterExtension
  static final LdpTestEnvironment ENV = LdpTestEnvironment.builder().parallelism(2).build();

  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      id-field: id
      passthrough: [id, ts]
      fields:
        - {name: temperature, min: -40, max: 60, epsilon: 1}
      """);

  /** The job under test: raw JSON readings in, perturbed readings and dead letters out. */
  static void sensorJob(StreamExecutionEnvironment env, String bootstrapServers) {
    env.enableCheckpointing(1_000);
    KafkaSettings kafka = KafkaSettings.of(bootstrapServers);
    DataStream<RawRecord> raw =
        env.fromSource(
            RawRecordSource.builder()
                .kafka(kafka)
                .topics("sensors-raw")
                .groupId("sensors")
                .bounded(true)
                .build(),
            WatermarkStrategy.noWatermarks(),
            "raw readings");
    PerturbationResult<PerturbedRecord> ldp =
        LdpPerturbation.builder().config(CONFIG).uidPrefix("sensors").build().apply(raw);
    ldp.perturbed().sinkTo(PerturbationSinks.perturbed(kafka, "sensors-perturbed", "sensors"));
    ldp.deadLetters().sinkTo(PerturbationSinks.deadLetters(kafka, "sensors-dead", "sensors"));
  }

  @Test
  void everyReadingIsPerturbedOrDeadLetteredAndNothingLeaks() throws Exception {
    KafkaFixture kafka = ENV.kafka();
    kafka.createTopic("sensors-raw", 2);
    kafka.createTopic("sensors-perturbed", 2);
    kafka.createTopic("sensors-dead", 1);
    List<KafkaRecord> inputs =
        kafka.produceJson(
            "sensors-raw",
            "{\"id\":\"r1\",\"ts\":1767225600000,\"temperature\":21.5,\"owner\":\"alice\"}",
            "{\"id\":\"r2\",\"ts\":1767225601000,\"temperature\":-3.25}",
            "{\"id\":\"r3\",\"ts\":1767225602000,\"temperature\":99.5}", // out of range
            "{\"id\":\"r4\",\"ts\":1767225603000,\"temperature\":\"warm\"}"); // not a number

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    sensorJob(env, kafka.bootstrapServers());
    env.execute("sensor job");

    List<KafkaRecord> perturbed = kafka.readCommitted("sensors-perturbed");
    List<KafkaRecord> deadLetters = kafka.readCommitted("sensors-dead");
    assertThat(perturbed)
        .extracting(KafkaRecord::keyAsString)
        .containsExactlyInAnyOrder("r1", "r2");
    assertThat(deadLetters)
        .extracting(r -> r.header("ogpm-reason"))
        .containsExactlyInAnyOrder("out-of-range", "not-a-number");
    PrivacyAssertions.assertPrivacyContract(CONFIG, inputs, perturbed, deadLetters);
    assertThat(ENV.metrics().ofJob("sensor job").counter("recordsPerturbed")).isEqualTo(2);
  }
}
