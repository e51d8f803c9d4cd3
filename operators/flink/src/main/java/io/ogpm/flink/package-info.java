/**
 * Local differential privacy for Flink DataStream jobs.
 *
 * <p><b>Perturbation.</b> {@link io.ogpm.flink.LdpPerturbation} perturbs each record with the
 * optimal piecewise mechanism (or another configured mechanism) field by field, as it enters the
 * job: {@code LdpPerturbation.builder().config(privacyConfig).randomness(keySource).build()} then
 * {@code apply(rawRecords)} for the JSON bytes of Kafka records ({@link io.ogpm.flink.RawRecord}
 * in, {@link io.ogpm.flink.PerturbedRecord} out) or {@code apply(records,
 * RecordAccess.pojo(T.class))} and {@code apply(rows, RecordAccess.row())} for the job's own POJOs
 * and Rows ({@link io.ogpm.flink.RecordAccess}). Each returns a {@link
 * io.ogpm.flink.PerturbationResult}: the perturbed stream and the stream of {@link
 * io.ogpm.flink.DeadLetterRecord}s. Only the perturbed and the passthrough fields of the {@link
 * io.ogpm.config.PrivacyConfig} leave the perturb operator (deny by default); dead letters name a
 * reason and a field, never a value; a per-user budget, if configured, is kept after the
 * perturbation. {@link io.ogpm.flink.KeySource} says where the randomness comes from: secure random
 * by default, or a key on the task managers for replay-safe keyed randomness.
 *
 * <p><b>Aggregation.</b> {@link io.ogpm.flink.LdpAggregation} turns perturbed records into windowed
 * estimates: {@code LdpAggregation.builder().config(privacyConfig).window(..).build()} then {@code
 * apply(perturbedValues)}, a stream of {@link io.ogpm.flink.PerturbedValues} with timestamps and
 * watermarks ({@code LdpAggregation.watermarks(..)}; read once per record by the aggregation's
 * readers: {@code AggregationKafka.deserializer(aggregation, ..)} from Kafka, which checks each
 * record's configuration fingerprint, {@code parser(..)} from {@link
 * io.ogpm.flink.PerturbedRecord}s, {@code fromRecords(..)} from your own types), gives typed {@link
 * io.ogpm.flink.WindowEstimate}s per window, field and group. It aggregates in two phases (exact
 * partial accumulators on every subtask, merged per window, field and group), so one busy field is
 * spread over the whole job, and it estimates at emissions only (at the watermark, then at most
 * once per late-update interval, and at the end of the allowed lateness). {@link
 * io.ogpm.flink.kafka.WindowEstimateSerializer} writes the JSON documented in docs/aggregation.md.
 *
 * <p><b>Kafka.</b> {@code io.ogpm.flink.kafka} builds the sources and exactly-once sinks the
 * perturbation reads from and writes to ({@code RawRecordSource}, {@code PerturbationSinks}) and
 * those of the aggregation ({@code AggregationKafka}), and holds the Kafka (de)serialization
 * schemas of these records ({@link io.ogpm.flink.kafka.PerturbedRecordSerializer} writes a
 * perturbed record's cost and configuration fingerprint as headers, {@link
 * io.ogpm.flink.kafka.DeadLetterSerializer} a dead letter's reason). {@code io.ogpm.flink.table}
 * holds the same privacy as Flink SQL functions.
 *
 * <p><b>Layout.</b> This package is the API only: the builders, the record types they take and
 * give, and what configures them, all {@link org.apache.flink.annotation.PublicEvolving}. What they
 * wire lives in subpackages, one job each, all {@link org.apache.flink.annotation.Internal}: {@code
 * perturb} (the perturb operators, the only place that sees raw values), {@code budget} (the
 * per-user budget and its state), {@code aggregate} (the two-phase aggregation) and {@code
 * typeutils} (type information and serializers). Internal types are public only because another
 * package of the library wires them, as in Flink; they may change without notice. Only the two
 * builders, {@code LdpPerturbation} and {@code LdpAggregation}, wire internals into a job; the
 * record types and interfaces use none, but for {@code PerturbedRecord}'s Flink type information
 * ({@code @TypeInfo}, Flink's way to give a type its serializer). Kafka is not a dependency of this
 * package: {@code io.ogpm.flink.kafka} uses it, never the reverse.
 *
 * <p><b>Rules of the library.</b> {@code apply} only adds operators to the caller's stream: the job
 * sets checkpointing, parallelism and restart strategy. Every operator has a stable uid derived
 * from the builder's uid prefix. Every stream the library creates has Flink type information
 * (POJOs, tuples, the input's own type), so nothing falls back to Kryo.
 */
package io.ogpm.flink;
