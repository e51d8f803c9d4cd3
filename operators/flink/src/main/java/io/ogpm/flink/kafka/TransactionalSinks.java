package io.ogpm.flink.kafka;

import io.ogpm.config.Options;
import java.util.Objects;
import java.util.function.Function;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;

/**
 * How the library's exactly-once sinks ({@link PerturbationSinks}, {@link
 * AggregationKafka#estimateSink}) are made: the topic and the job's transactional id prefix
 * checked, and each sink's transactional ids under {@code <prefix>-<sink>}, so that two sinks of a
 * job never share one.
 */
final class TransactionalSinks {
  private TransactionalSinks() {}

  /**
   * @param serializer the sink's serializer for the topic
   * @param sink the suffix of this sink's transactional ids ({@code perturbed}, {@code stats}...)
   */
  static <T> KafkaSink<T> exactlyOnce(
      KafkaSettings kafka,
      String topic,
      Function<String, KafkaRecordSerializationSchema<T>> serializer,
      String transactionalIdPrefix,
      String sink) {
    Objects.requireNonNull(kafka, "kafka: required (KafkaSettings.of(bootstrapServers))");
    return kafka.exactlyOnceSink(
        serializer.apply(Options.notBlank("topic", topic)),
        Options.notBlank("transactionalIdPrefix", transactionalIdPrefix) + "-" + sink);
  }
}
