/**
 * The per-user privacy budget that {@link io.ogpm.flink.LdpPerturbation} keeps after the
 * perturbation, keyed by user (so that raw values never cross the network): {@link
 * io.ogpm.flink.budget.PerUserBudget} holds, per user, the epsilon spent in each budget period that
 * is still open, in keyed state, and applies the rule of {@link io.ogpm.budget.BudgetRule} (the
 * core's, which the SQL budget {@code LDP_BUDGET} applies too); {@link
 * io.ogpm.flink.budget.KafkaRecordBudget} reads a perturbed Kafka record's cost, time and origin
 * (emitting the released records, {@link io.ogpm.flink.budget.BudgetFunction}, or every record's
 * outcome at its place for the order stage, {@link io.ogpm.flink.budget.OrderedBudgetFunction}),
 * {@link io.ogpm.flink.budget.ObjectBudgetFunction} those of the user's own objects.
 *
 * <p>A package of its own because it is the library's one stateful part of the perturbation: its
 * state (one value per user, {@code spending-by-period}, a {@code long[]} of periods and their
 * spending ({@link io.ogpm.flink.budget.PeriodSpending}), under the uid {@code budget-by-period},
 * and its processing-time timers) is in every savepoint of the perturb job and must keep restoring.
 * Its names and serializers (Flink's own: String keys, {@code long[]} values) do not change without
 * a state migration; the jobs' committed savepoint ({@code PerturbSavepointIT}) holds them.
 *
 * <p>Everything here is {@link org.apache.flink.annotation.Internal}: wired by {@code
 * LdpPerturbation}, free to change as far as the state allows.
 */
package io.ogpm.flink.budget;
