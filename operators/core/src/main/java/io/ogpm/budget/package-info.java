/**
 * The per-user privacy budget's rule in plain Java, shared by the DataStream budget ({@code
 * io.ogpm.flink.budget}) and the SQL budget ({@code LDP_BUDGET}): {@link io.ogpm.budget.BudgetRule}
 * decides what a record gets ({@link io.ogpm.budget.BudgetDecision}) on the calendar of {@link
 * io.ogpm.budget.BudgetPeriods}, at the time of a {@link io.ogpm.budget.TaskClock}. The budgets
 * keep only their state and their reports.
 *
 * <p>A package of its own because a decision names a dead letter's {@link
 * io.ogpm.record.ReasonCode} and the record package reads the configuration: here, above both, no
 * cycle forms.
 */
package io.ogpm.budget;
