package io.ogpm.flink.kafka;

import io.ogpm.flink.PerturbedValues;
import io.ogpm.flink.WindowEstimate;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/** The Kafka ends of the aggregation: the perturbed topic in, the stats topic out. */
@PublicEvolving
public final class AggregationKafka {
  private AggregationKafka() {}

  /**
   * A source of perturbed values from a perturbed topic: {@code read_committed} (only what the
   * perturbation committed), from the group's committed offsets, else the earliest; each record
   * parsed once by {@code deserializer}. Bounded: up to each partition's end as of the start, once
   * every transaction below it is decided ({@link StableEndOffsets}).
   */
  public static KafkaSource<PerturbedValues> perturbedValuesSource(KafkaSettings kafka, String topic, String groupId,
      PerturbedValuesDeserializer deserializer, boolean bounded) {
    KafkaSourceBuilder<PerturbedValues> source = KafkaSource.<PerturbedValues>builder()
        .setBootstrapServers(kafka.bootstrapServers())
        .setProperties(kafka.properties())
        .setProperty("isolation.level", "read_committed")
        .setTopics(topic)
        .setGroupId(groupId)
        .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
        .setDeserializer(deserializer);
    if (bounded) {
      source.setBounded(new StableEndOffsets(kafka, StableEndOffsets.DEFAULT_TIMEOUT));
    }
    return source.build();
  }

  /**
   * An exactly-once sink of window estimates to a stats topic, one JSON object each ({@link
   * WindowEstimateSerializer}), in transactions committed on checkpoints with ids under the prefix.
   */
  public static KafkaSink<WindowEstimate> estimateSink(KafkaSettings kafka, String topic, String transactionalIdPrefix) {
    return kafka.exactlyOnceSink(new WindowEstimateSerializer(topic), transactionalIdPrefix);
  }
}
