package io.ogpm.flink.kafka;

import io.ogpm.flink.LdpAggregation;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.flink.WindowEstimate;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;

/**
 * The Kafka ends of the aggregation: the perturbed topic in, the stats topic out. The aggregation
 * itself ({@link LdpAggregation}) knows no Kafka: its Kafka reader is made here, from it.
 *
 * <pre>{@code
 * KafkaSource<PerturbedValues> source = AggregationKafka.perturbedValuesSource()
 *     .kafka(kafka)
 *     .topics("ogpm.perturbed")
 *     .groupId("my-stats")
 *     .deserializer(AggregationKafka.deserializer(aggregation, "ts"))
 *     .build();
 * KafkaSink<WindowEstimate> sink = AggregationKafka.estimateSink(kafka, "ogpm.stats", "my-stats");
 * }</pre>
 */
@PublicEvolving
public final class AggregationKafka {
  private AggregationKafka() {}

  /**
   * A source of perturbed values from a perturbed topic: {@code read_committed} (only what the
   * perturbation committed), from the group's committed offsets, else the earliest; each record
   * parsed once by the aggregation's deserializer ({@link #deserializer}). The options are {@link
   * CommittedSourceBuilder}'s, as for the raw records.
   */
  public static PerturbedValuesSourceBuilder perturbedValuesSource() {
    return new PerturbedValuesSourceBuilder();
  }

  /**
   * A Kafka deserializer of perturbed records for an aggregation (its configuration and group-by
   * field), for {@link PerturbedValuesSourceBuilder#deserializer} or a {@code KafkaSource} of your
   * own.
   *
   * @param timeField dotted name of a passthrough field with the event time, or null for the Kafka
   *     timestamp
   * @throws NullPointerException if {@code aggregation} is null
   * @throws IllegalArgumentException naming {@code timeField} if it is not passed through
   */
  public static PerturbedValuesDeserializer deserializer(
      LdpAggregation aggregation, String timeField) {
    Objects.requireNonNull(aggregation, "aggregation: required");
    return new PerturbedValuesDeserializer(aggregation.config(), aggregation.groupBy(), timeField);
  }

  /**
   * An exactly-once sink of window estimates to a stats topic, one JSON object each ({@link
   * WindowEstimateSerializer}), in transactions committed on checkpoints with ids under {@code
   * <transactionalIdPrefix>-stats} (the prefix must be unique per job on a Kafka cluster), as
   * {@link PerturbationSinks} makes the perturbation's.
   *
   * @throws NullPointerException naming a missing argument
   * @throws IllegalArgumentException for a blank topic or prefix
   */
  public static KafkaSink<WindowEstimate> estimateSink(
      KafkaSettings kafka, String topic, String transactionalIdPrefix) {
    return TransactionalSinks.exactlyOnce(
        kafka, topic, WindowEstimateSerializer::new, transactionalIdPrefix, "stats");
  }

  /** Builds the source of perturbed values; {@link #build} validates. */
  @PublicEvolving
  public static final class PerturbedValuesSourceBuilder
      extends CommittedSourceBuilder<PerturbedValues, PerturbedValuesSourceBuilder> {
    private PerturbedValuesDeserializer deserializer;

    private PerturbedValuesSourceBuilder() {}

    /** Required: the aggregation's reader of records ({@link AggregationKafka#deserializer}). */
    public PerturbedValuesSourceBuilder deserializer(PerturbedValuesDeserializer deserializer) {
      this.deserializer = deserializer;
      return this;
    }

    /**
     * @throws NullPointerException if the Kafka settings, the topics, the group id or the
     *     deserializer are missing
     * @throws IllegalArgumentException for no topic, a blank topic or a blank group id
     */
    public KafkaSource<PerturbedValues> build() {
      return buildWith(
          Objects.requireNonNull(
              deserializer,
              "deserializer: required (AggregationKafka.deserializer(aggregation, timeField))"));
    }
  }
}
