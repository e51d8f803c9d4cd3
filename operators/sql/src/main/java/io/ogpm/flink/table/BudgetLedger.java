package io.ogpm.flink.table;

import io.ogpm.budget.BudgetDecision;
import io.ogpm.budget.BudgetPeriods;
import io.ogpm.budget.BudgetRule;
import io.ogpm.budget.TaskClock;
import io.ogpm.config.BudgetConfig;
import io.ogpm.record.ReasonCode;
import java.time.Duration;
import java.time.Instant;
import org.apache.flink.table.api.dataview.MapView;

/**
 * The spending of {@link LdpBudget} for one function instance: it applies the rule of the
 * DataStream budget ({@link BudgetRule}) to the user's spending by period in the function's state,
 * on the task's clock, which never runs backwards here ({@link TaskClock}), and keeps the spending
 * of the records it releases.
 *
 * <p>The spending is kept per user and period in the function's state, each entry with a
 * time-to-live of {@link #timeToLive} from its last write (Flink's state TTL, processing time, per
 * map entry) instead of the DataStream budget's timers: an entry is written at a clock {@code now
 * >= start - len} (a record more than a period ahead is refused), so it lives until at least {@code
 * start + 2 len + lag = end + lag + len}, one period after its period closed, as the DataStream
 * budget keeps it ({@link BudgetPeriods#forgetAt}); and at most {@code 3 len + lag} after its last
 * write.
 *
 * <p>Not thread-safe: one per function instance.
 */
final class BudgetLedger {
  private final BudgetRule rule;
  private final TaskClock clock = new TaskClock();
  private double spentAfter;

  BudgetLedger(BudgetConfig budget) {
    this.rule = new BudgetRule(budget);
  }

  /** How long a period's spending is kept after its last write (see the class comment). */
  static Duration timeToLive(BudgetConfig budget) {
    return budget.period().multipliedBy(3).plus(budget.maxLag());
  }

  BudgetConfig budget() {
    return rule.budget();
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
    // A row without a Kafka timestamp has no timestamp type the broker set.
    BudgetDecision decision =
        rule.decide(
            this.clock.now(clock),
            time == null ? 0 : time.toEpochMilli(),
            time == null ? null : timestampType,
            period -> {
              Double spent = spentByPeriod.get(period);
              return spent == null ? 0 : spent;
            },
            cost);
    if (decision instanceof BudgetDecision.Refused refusal) {
      return refusal.reason();
    }
    BudgetDecision.Released release = (BudgetDecision.Released) decision;
    spentByPeriod.put(release.period(), release.spent());
    spentAfter = release.spent();
    return null;
  }

  /** The spending of the last released record's period, that record included. */
  double spentAfter() {
    return spentAfter;
  }
}
