/**
 * Kafka ends of the library's pipelines: {@link io.ogpm.flink.kafka.KafkaSettings} (bootstrap
 * servers and client properties, from code or a properties file), {@link
 * io.ogpm.flink.kafka.RawRecordSource} (raw JSON records, {@code read_committed}, optionally bounded
 * at the end offsets of the start), {@link io.ogpm.flink.kafka.PerturbationSinks} (perturbed
 * records and dead letters, exactly once) and {@link io.ogpm.flink.kafka.AggregationKafka}
 * (perturbed values in, window estimates out, exactly once). All are {@code PublicEvolving}.
 *
 * <p>The Kafka (de)serialization schemas of the library's records live here too, as {@code
 * PublicEvolving} types a job may use with its own {@code KafkaSource} or {@code KafkaSink}: {@link
 * io.ogpm.flink.kafka.RawRecordDeserializer} (a message's bytes and coordinates, unparsed), {@link
 * io.ogpm.flink.kafka.PerturbedRecordSerializer} (cost and configuration fingerprint as headers),
 * {@link io.ogpm.flink.kafka.DeadLetterSerializer} (the reason as a header), {@link
 * io.ogpm.flink.kafka.PerturbedValuesDeserializer} (a perturbed record read once for the
 * aggregation) and {@link io.ogpm.flink.kafka.WindowEstimateSerializer} (the stats topic's JSON).
 *
 * <p>The classes marked {@link org.apache.flink.annotation.Internal} ({@code KafkaPreflight},
 * {@code StableOffsets}, {@code StableEndOffsets}) are used by the project's jobs, command line and
 * test kit: start-up checks of topics and their settings, and reading a topic to its end once no
 * transaction is open on it. They may change without notice.
 */
package io.ogpm.flink.kafka;
