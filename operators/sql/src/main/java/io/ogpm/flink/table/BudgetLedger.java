package io.ogpm.flink.table;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.budget.BudgetPeriods;
import io.ogpm.record.ReasonCode;
import java.time.Duration;
import java.time.Instant;
import org.apache.flink.table.api.dataview.MapView;

/**
 * The decision of {@link LdpBudget} for one record of one user, the rule of the DataStream budget
 * ({@code io.ogpm.flink.budget.PerUserBudget}) on the same calendar ({@link BudgetPeriods}): a
 * record is released only if its user's spending in its period plus its cost stays within the
 * budget ({@code spent + cost <= budget (1 + 1e-12)}, the same rounding slack). Its period comes
 * from a clock the producer does not control: the broker's log-append time, read from the record's
 * Kafka timestamp and timestamp type (a record whose type is not {@code LogAppendTime} is refused,
 * {@code untrusted-time}, as is one stamped more than a period ahead of the task's clock), or the
 * task's processing time ({@code ingestion-time}). A period closes {@code max-lag} after its end by
 * the task's clock, which never runs backwards here; records for a closed period are refused
 * ({@code budget-period-closed}).
 *
 * <p>The spending is kept per user and period in the function's state, each entry with a
 * time-to-live of {@link #timeToLive} from its last write (Flink's state TTL, processing time, per
 * map entry) instead of the DataStream budget's timers: an entry is written at a clock {@code now
 * >= start - len} (a record more than a period ahead is refused), so it lives until at least {@code
 * start + 2 len + lag = end + lag + len}, one period after its period closed, as the DataStream
 * budget keeps it; and at most {@code 3 len + lag} after its last write.
 *
 * <p>Not thread-safe: one per function instance.
 */
final class BudgetLedger {
  /** The Kafka timestamp type that the log-append-time clock trusts. */
  static final String LOG_APPEND_TIME = BudgetClock.LOG_APPEND_TIME_VALUE;

  private final BudgetConfig budget;
  private final BudgetPeriods periods;
  private final double limit;
  private long latest = Long.MIN_VALUE;
  private double spentAfter;

  BudgetLedger(BudgetConfig budget) {
    this.budget = budget;
    this.periods = new BudgetPeriods(budget);
    this.limit = budget.epsilon() * (1 + 1e-12);
  }

  /** How long a period's spending is kept after its last write (see the class comment). */
  static Duration timeToLive(BudgetConfig budget) {
    return budget.period().multipliedBy(3).plus(budget.maxLag());
  }

  BudgetConfig budget() {
    return budget;
  }

  /**
   * Charges a record to its user's spending if it fits.
   *
   * @param spentByPeriod the user's spending by period (the function's state)
   * @param clock the task's clock now (epoch ms)
   * @param time the record's Kafka timestamp (log-append-time clock only), or null
   * @param timestampType the record's Kafka timestamp type (log-append-time clock only), or null
   * @param cost the record's privacy cost
   * @return null when the record is released ({@link #spentAfter()} is then its period's spending
   *     with it), else why it is refused
   */
  ReasonCode charge(
      MapView<Long, Double> spentByPeriod,
      long clock,
      Instant time,
      String timestampType,
      double cost)
      throws Exception {
    latest = Math.max(latest, clock);
    long now = latest;
    long at;
    if (budget.clock() == BudgetClock.INGESTION_TIME) {
      at = now;
    } else if (time == null || !LOG_APPEND_TIME.equals(timestampType)) {
      return ReasonCode.UNTRUSTED_TIME;
    } else {
      at = time.toEpochMilli();
    }
    long period = periods.of(at);
    if (periods.ahead(period, now)) {
      return ReasonCode.UNTRUSTED_TIME;
    }
    if (periods.closed(period, now)) {
      return ReasonCode.BUDGET_PERIOD_CLOSED;
    }
    Double before = spentByPeriod.get(period);
    double spent = (before == null ? 0 : before) + cost;
    if (!(spent <= limit)) {
      return ReasonCode.BUDGET_EXHAUSTED;
    }
    spentByPeriod.put(period, spent);
    spentAfter = spent;
    return null;
  }

  /** The spending of the last released record's period, that record included. */
  double spentAfter() {
    return spentAfter;
  }
}
