/**
 * Each raw partition's order restored after the budget: the perturb operator numbers the records of
 * each raw partition ({@code io.ogpm.flink.perturb.RawPartitionSequences}), the budget, keyed by
 * user, emits each record released or its dead letter at its place ({@link
 * io.ogpm.flink.order.Placed}), and {@link io.ogpm.flink.order.RawPartitionOrder}, keyed by raw
 * partition, passes them on in the partition's order to one writer.
 *
 * <p>Its state (uid {@code partition-order}: per raw partition, the next number and the records
 * waiting for it) is in the perturb job's savepoints. Everything here is {@link
 * org.apache.flink.annotation.Internal}: wired by {@code LdpPerturbation}.
 */
package io.ogpm.flink.order;
