/**
 * The perturb operators behind {@link io.ogpm.flink.LdpPerturbation}: the only code of the Flink
 * library that sees raw values. {@link io.ogpm.flink.perturb.PerturbFunction} perturbs the JSON
 * bytes of Kafka records (through {@code io.ogpm.record}'s record path); {@link
 * io.ogpm.flink.perturb.ObjectPerturbFunction} perturbs the user's POJOs and Rows, read and rebuilt
 * through a {@link io.ogpm.flink.perturb.RecordShape} compiled against the stream's type (deny by
 * default: the output is a new record holding only the perturbed and the passthrough fields).
 *
 * <p>Also here, because the budget operators ({@code io.ogpm.flink.budget}) release and refuse
 * records of the same perturbation: the dead letters' side output ({@link
 * io.ogpm.flink.perturb.DeadLetters}), the {@code recordsDeadLettered} counters and the metrics of
 * released records ({@code recordsPerturbed}, {@code epsilonSpent}).
 *
 * <p>Everything here is {@link org.apache.flink.annotation.Internal}: wired by {@code
 * LdpPerturbation}, free to change. The perturb operator's one state is each raw partition's next
 * number, when a budget follows ({@link io.ogpm.flink.perturb.RawPartitionSequences}, operator
 * state {@code next-sequence-by-raw-partition}); its uid ({@code perturb}, or {@code
 * <prefix>-perturb}) is the builder's.
 */
package io.ogpm.flink.perturb;
