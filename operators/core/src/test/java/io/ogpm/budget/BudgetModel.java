package io.ogpm.budget;

import io.ogpm.budget.BudgetScenario.Offer;
import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import io.ogpm.record.ReasonCode;
import java.util.HashMap;
import java.util.Map;

/**
 * The per-user budget as its documentation states it, written from that statement alone (no code of
 * the budgets): what each record must get. A record is placed in the period {@code floor(t / len)}
 * of its time {@code t}: the broker's log-append time on the log-append-time clock (any other
 * timestamp type is refused, {@code untrusted-time}, as is a period beyond the one after the
 * clock's), else the clock. A period closes {@code max-lag} after its end ({@code
 * budget-period-closed}). A record fits while the user's spending in its period plus its cost is at
 * most {@code epsilon (1 + 1e-12)}, and, paced every {@code pacing}, at most {@code epsilon min(1,
 * k pacing / len) (1 + 1e-12)} where {@code k = floor((t - period len) / pacing) + 1} slices of the
 * period have begun by t; else {@code budget-exhausted}. The clock is the latest reading since the
 * last restore; the spending survives restores and is never forgotten (a budget forgets only
 * periods that closed, which the scenarios' clocks never reopen).
 */
public final class BudgetModel {
  private final double epsilon;
  private final long length;
  private final long maxLag;
  private final boolean logAppendTime;
  private final long pacing;
  private final Map<String, Map<Long, Double>> spent = new HashMap<>();
  private long latest = Long.MIN_VALUE;

  public BudgetModel(BudgetConfig budget) {
    this.epsilon = budget.epsilon();
    this.length = budget.period().toMillis();
    this.maxLag = budget.maxLag().toMillis();
    this.logAppendTime = budget.clock() == BudgetClock.LOG_APPEND_TIME;
    this.pacing = budget.pacing().map(java.time.Duration::toMillis).orElse(length);
  }

  /** What the record must get; it is charged if it is released. */
  public BudgetOutcome offer(Offer o) {
    latest = Math.max(latest, o.clock());
    long now = latest;
    long time;
    if (!logAppendTime) {
      time = now;
    } else if ("LogAppendTime".equals(o.timestampType())) {
      time = o.time();
    } else {
      return BudgetOutcome.refused(ReasonCode.UNTRUSTED_TIME, 0L);
    }
    long period = Math.floorDiv(time, length);
    if (period > Math.floorDiv(now, length) + 1) {
      return BudgetOutcome.refused(ReasonCode.UNTRUSTED_TIME, 0L);
    }
    if (now >= (period + 1) * length + maxLag) {
      return BudgetOutcome.refused(ReasonCode.BUDGET_PERIOD_CLOSED, time);
    }
    Map<Long, Double> user = spent.computeIfAbsent(o.user(), u -> new HashMap<>());
    double after = user.getOrDefault(period, 0.0) + o.cost();
    long begun = (time - period * length) / pacing + 1;
    double allowance = epsilon * Math.min(1.0, (double) begun * pacing / length);
    if (after > allowance * (1 + 1e-12)) {
      return BudgetOutcome.refused(ReasonCode.BUDGET_EXHAUSTED, time);
    }
    user.put(period, after);
    return BudgetOutcome.released(after);
  }

  /** A restore: the spending is kept, the clock starts again. */
  public void restore() {
    latest = Long.MIN_VALUE;
  }
}
