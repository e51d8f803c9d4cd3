package io.ogpm.flink.kafka;

import io.ogpm.flink.PerturbedValues;
import io.ogpm.flink.WindowEstimate;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;

/**
 * The Kafka ends of the aggregation: the perturbed topic in, the stats topic out.
 *
 * <pre>{@code
 * KafkaSource<PerturbedValues> source = AggregationKafka.perturbedValuesSource()
 *     .kafka(kafka)
 *     .topics("ogpm.perturbed")
 *     .groupId("my-stats")
 *     .deserializer(aggregation.deserializer("ts"))
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
   * parsed once by the aggregation's deserializer ({@link
   * io.ogpm.flink.LdpAggregation#deserializer}). The options are {@link CommittedSourceBuilder}'s,
   * as for the raw records.
   */
  public static PerturbedValuesSourceBuilder perturbedValuesSource() {
    return new PerturbedValuesSourceBuilder();
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

    /**
     * Required: the aggregation's reader of records ({@code
     * LdpAggregation.deserializer(timeField)}).
     */
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
              deserializer, "deserializer: required (LdpAggregation.deserializer(timeField))"));
    }
  }
}
