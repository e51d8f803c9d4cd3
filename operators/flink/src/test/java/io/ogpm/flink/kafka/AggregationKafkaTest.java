package io.ogpm.flink.kafka;

import static io.ogpm.flink.kafka.PerturbationKafkaTest.KAFKA;
import static io.ogpm.flink.kafka.PerturbationKafkaTest.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.flink.WindowEstimate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka wiring of the aggregation, as built (no broker): its source is set up as the raw
 * records' is (committed data only, the group's offsets or the earliest, bounded at the stable end
 * on demand, the hook before read_committed), with the aggregation's deserializer; its sink is
 * exactly-once under {@code <prefix>-stats}, checked as the perturbation's sinks are.
 */
class AggregationKafkaTest {
  static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      passthrough: [ts]
      fields:
        - {name: x, min: 0, max: 1, epsilon: 1}
      """);
  static final PerturbedValuesDeserializer DESERIALIZER =
      new PerturbedValuesDeserializer(CONFIG, null, "ts");

  @Test
  void theSourceReadsCommittedValuesWithTheAggregationsDeserializer(@TempDir Path dir)
      throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("client.properties"),
            "isolation.level=read_uncommitted\nsecurity.protocol=SSL\n");
    KafkaSource<PerturbedValues> source =
        AggregationKafka.perturbedValuesSource()
            .kafka(KafkaSettings.of("kafka-1:9092", file))
            .topics("perturbed")
            .groupId("stats")
            .deserializer(DESERIALIZER)
            .build();
    Properties props = field(source, "props");
    assertThat(props)
        .containsEntry("isolation.level", "read_committed")
        .containsEntry("security.protocol", "SSL")
        .containsEntry("group.id", "stats")
        .containsEntry("bootstrap.servers", "kafka-1:9092");
    assertThat((Object) field(source, "deserializationSchema")).isSameAs(DESERIALIZER);
    assertThat((Object) field(field(source, "subscriber"), "topics"))
        .isEqualTo(List.of("perturbed"));
    assertThat(source.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
    assertThat(
            ((OffsetsInitializer) field(source, "startingOffsetsInitializer"))
                .getAutoOffsetResetStrategy())
        .isEqualTo(OffsetResetStrategy.EARLIEST);

    KafkaSource<PerturbedValues> bounded =
        AggregationKafka.perturbedValuesSource()
            .kafka(KAFKA)
            .topics("perturbed")
            .groupId("stats")
            .deserializer(DESERIALIZER)
            .bounded(true)
            .fromEarliest(false)
            .configure(
                b ->
                    b.setClientIdPrefix("stats-job")
                        .setProperty("isolation.level", "read_uncommitted"))
            .build();
    assertThat(bounded.getBoundedness()).isEqualTo(Boundedness.BOUNDED);
    assertThat((Object) field(bounded, "stoppingOffsetsInitializer"))
        .isInstanceOf(StableEndOffsets.class);
    assertThat(
            ((OffsetsInitializer) field(bounded, "startingOffsetsInitializer"))
                .getAutoOffsetResetStrategy())
        .isEqualTo(OffsetResetStrategy.LATEST);
    assertThat((Properties) field(bounded, "props"))
        .containsEntry("client.id.prefix", "stats-job")
        .containsEntry("isolation.level", "read_committed");
  }

  @Test
  void theSourcesOptionsAreValidatedAsTheRawSourcesAre() {
    assertThatThrownBy(
            () ->
                AggregationKafka.perturbedValuesSource()
                    .kafka(KAFKA)
                    .topics("t")
                    .groupId("g")
                    .build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage(
            "deserializer: required (AggregationKafka.deserializer(aggregation, timeField))");
    assertThatThrownBy(
            () ->
                AggregationKafka.perturbedValuesSource()
                    .topics("t")
                    .groupId("g")
                    .deserializer(DESERIALIZER)
                    .build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("kafka: required (KafkaSettings.of(bootstrapServers))");
    assertThatThrownBy(
            () ->
                AggregationKafka.perturbedValuesSource()
                    .kafka(KAFKA)
                    .groupId("g")
                    .deserializer(DESERIALIZER)
                    .build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("topics: required (or a subscription set in configure(..))");
    assertThatThrownBy(
            () ->
                AggregationKafka.perturbedValuesSource()
                    .kafka(KAFKA)
                    .topics(" ")
                    .groupId("g")
                    .deserializer(DESERIALIZER)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topics: must not be blank, got ' '");
    assertThatThrownBy(
            () ->
                AggregationKafka.perturbedValuesSource()
                    .kafka(KAFKA)
                    .topics("t")
                    .deserializer(DESERIALIZER)
                    .build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("groupId: required");
  }

  @Test
  void theSinkIsExactlyOnceUnderThePrefixAndStats() throws Exception {
    KafkaSink<WindowEstimate> sink = AggregationKafka.estimateSink(KAFKA, "stats", "job-7");
    assertThat((Object) field(sink, "transactionalIdPrefix")).isEqualTo("job-7-stats");
    assertThat((Object) field(sink, "deliveryGuarantee")).isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
    KafkaRecordSerializationSchema<WindowEstimate> s = field(sink, "recordSerializer");
    assertThat(s).isInstanceOf(WindowEstimateSerializer.class);
    WindowEstimate e = new WindowEstimate();
    e.setWindowEnd(10);
    e.setHistogram(new double[0]);
    e.setRawHistogram(new double[0]);
    assertThat(s.serialize(e, null, null).topic()).isEqualTo("stats");

    assertThatThrownBy(() -> AggregationKafka.estimateSink(null, "t", "p"))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("kafka: required (KafkaSettings.of(bootstrapServers))");
    assertThatThrownBy(() -> AggregationKafka.estimateSink(KAFKA, " ", "p"))
        .hasMessage("topic: must not be blank, got ' '");
    assertThatThrownBy(() -> AggregationKafka.estimateSink(KAFKA, null, "p"))
        .hasMessage("topic: required");
    assertThatThrownBy(() -> AggregationKafka.estimateSink(KAFKA, "t", ""))
        .hasMessage("transactionalIdPrefix: must not be blank, got ''");
    assertThatThrownBy(() -> AggregationKafka.estimateSink(KAFKA, "t", null))
        .hasMessage("transactionalIdPrefix: required");
  }
}
