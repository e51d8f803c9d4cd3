package io.ogpm.budget;

import io.ogpm.annotation.Internal;
import io.ogpm.budget.BudgetDecision.Refusal;
import io.ogpm.budget.BudgetDecision.Refused;
import io.ogpm.budget.BudgetDecision.Released;
import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;

/**
 * The per-user budget's rule, the one both budgets apply (the DataStream operator's and {@code
 * LDP_BUDGET}'s): a record is released only if its user's spending in its period plus its cost
 * stays within the budget ({@link BudgetConfig#allows}), and, for a paced budget, within what the
 * period has released by the record's time ({@link BudgetConfig#allowance}). Each budget keeps the
 * spending and its clock in its own state and reports refusals its own way; what a record gets is
 * decided here only.
 *
 * <p>The record's period comes from a clock the producer does not control ({@link BudgetClock}):
 * the task's clock ({@code ingestion-time}), or the record's Kafka timestamp when the broker set it
 * on append ({@code log-append-time}; any other timestamp type is refused, {@code untrusted-time}).
 * A period more than one ahead of the task's clock is refused too (a broker clock far off), and so
 * is a closed one, {@code max-lag} after its end ({@link BudgetPeriods}): its spending may be
 * forgotten. So no period's spending ever exceeds the budget while it can still be charged.
 *
 * <p>A function of its arguments: the spending lookup is only read, and nothing is kept between
 * records. Immutable.
 */
@Internal
public final class BudgetRule {
  private static final Refused TIME_SET_BY_PRODUCER = new Refused(Refusal.TIME_SET_BY_PRODUCER, 0);
  private static final Refused TIME_AHEAD = new Refused(Refusal.TIME_AHEAD, 0);

  /** A user's spending by period, as a budget keeps it. */
  @FunctionalInterface
  public interface Spent {
    /** The user's spending in {@code period}; 0 when none is kept. */
    double in(long period) throws Exception;
  }

  private final BudgetConfig budget;
  private final BudgetPeriods periods;

  public BudgetRule(BudgetConfig budget) {
    this.budget = budget;
    this.periods = new BudgetPeriods(budget);
  }

  public BudgetConfig budget() {
    return budget;
  }

  /** What {@link #trustedTime} returns for a time the producer set. */
  static final long UNTRUSTED = Long.MIN_VALUE;

  /**
   * A record's time on {@code clock}: the task's clock {@code now} ({@code ingestion-time}), or its
   * Kafka timestamp when the broker set it on append ({@code log-append-time}); {@link #UNTRUSTED}
   * when the producer set it.
   */
  static long trustedTime(BudgetClock clock, long now, long time, String timestampType) {
    if (clock == BudgetClock.INGESTION_TIME) {
      return now;
    }
    return BudgetClock.LOG_APPEND_TIME_VALUE.equals(timestampType) ? time : UNTRUSTED;
  }

  /** The calendar the rule places records on. */
  public BudgetPeriods periods() {
    return periods;
  }

  /**
   * What a record gets.
   *
   * @param now the budget's clock (epoch ms), never earlier than for the user's earlier records
   *     ({@link TaskClock})
   * @param time the record's Kafka timestamp (epoch ms; read on the log-append-time clock only)
   * @param timestampType the name of its Kafka timestamp type ({@code LogAppendTime}, {@code
   *     CreateTime}, {@code NoTimestampType}), or null when it has none
   * @param spent the user's spending by period
   * @param cost the record's privacy cost
   */
  public BudgetDecision decide(long now, long time, String timestampType, Spent spent, double cost)
      throws Exception {
    long at = trustedTime(budget.clock(), now, time, timestampType);
    if (at == UNTRUSTED) {
      return TIME_SET_BY_PRODUCER;
    }
    long period = periods.of(at);
    if (periods.ahead(period, now)) {
      return TIME_AHEAD;
    }
    if (periods.closed(period, now)) {
      return new Refused(Refusal.PERIOD_CLOSED, at);
    }
    double after = spent.in(period) + cost;
    if (!budget.allows(after)) {
      return new Refused(Refusal.BUDGET_EXHAUSTED, at);
    }
    if (!budget.allows(after, budget.allowance(at - periods.start(period)))) {
      return new Refused(Refusal.ALLOWANCE_SPENT, at);
    }
    return new Released(period, after);
  }
}
