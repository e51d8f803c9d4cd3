/**
 * Kafka ends of the library's pipelines: {@link io.ogpm.flink.kafka.KafkaSettings} (bootstrap
 * servers and client properties, from code or a properties file), {@link
 * io.ogpm.flink.kafka.RawRecordSource} (raw JSON records, {@code read_committed}, optionally
 * bounded at the end offsets of the start), {@link io.ogpm.flink.kafka.PerturbationSinks}
 * (perturbed records and dead letters, exactly once) and {@link
 * io.ogpm.flink.kafka.AggregationKafka} (perturbed values in, window estimates out, exactly once),
 * {@link io.ogpm.flink.kafka.KafkaPreflight} (a job's topics and their settings checked before it
 * is submitted) and {@link io.ogpm.flink.kafka.StableOffsets} (where a reader of committed output
 * may stop once no transaction below it is open). All are {@code PublicEvolving}: the project's
 * jobs use them, and use the library's API only.
 *
 * <p>The Kafka (de)serialization schemas of the library's records live here too, as {@code
 * PublicEvolving} types a job may use with its own {@code KafkaSource} or {@code KafkaSink}: {@link
 * io.ogpm.flink.kafka.RawRecordDeserializer} (a message's bytes and coordinates, unparsed), {@link
 * io.ogpm.flink.kafka.PerturbedRecordSerializer} (cost and configuration fingerprint as headers),
 * {@link io.ogpm.flink.kafka.DeadLetterSerializer} (the reason as a header), {@link
 * io.ogpm.flink.kafka.PerturbedValuesDeserializer} (a perturbed record read once for the
 * aggregation) and {@link io.ogpm.flink.kafka.WindowEstimateSerializer} (the stats topic's JSON).
 *
 * <p>{@code StableEndOffsets}, the bounded source's stopping offsets, is {@link
 * org.apache.flink.annotation.Internal}: it may change without notice.
 */
package io.ogpm.flink.kafka;
