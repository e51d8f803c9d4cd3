package io.ogpm.budget;

import io.ogpm.annotation.Internal;
import io.ogpm.config.BudgetConfig;

/**
 * The calendar of budget periods, in epoch milliseconds: period {@code p} covers {@code [p len, (p
 * + 1) len)}. Given a budget's clock {@code now}, it says which periods take records and when a
 * period's spending may be forgotten:
 *
 * <ul>
 *   <li>a period is <em>closed</em> once {@code now >= end + maxLag}: no record is charged to it
 *       any more;
 *   <li>a period is <em>ahead</em> when it starts after the period following {@code now}'s (a
 *       broker clock far ahead of the job's);
 *   <li>its spending may be forgotten at {@link #forgetAt}, one period after it closed, so that a
 *       task manager clock behind by less than a period after a restore still sees the period
 *       closed before it could see it empty.
 * </ul>
 *
 * A user's spending therefore covers at most {@code ceil(maxLag / len) + 3} periods: those not yet
 * forgotten, from the one before the oldest open period to the one after the current one.
 *
 * <p>{@link BudgetRule} reads the first two; the budgets forget by the third (the DataStream
 * budget's timers, the SQL budget's state time-to-live).
 */
@Internal
public final class BudgetPeriods {
  private final long length;
  private final long maxLag;

  public BudgetPeriods(BudgetConfig budget) {
    this(budget.period(), budget.maxLag());
  }

  /**
   * Periods of {@code length} that take records until {@code maxLag} after their end; both at most
   * 36,500 days (as the configuration bounds them), so no sum below overflows for times of this
   * era.
   */
  public BudgetPeriods(java.time.Duration length, java.time.Duration maxLag) {
    this.length = length.toMillis();
    this.maxLag = maxLag.toMillis();
  }

  /** The period of a time. */
  public long of(long time) {
    return Math.floorDiv(time, length);
  }

  /** Whether a record of {@code period} is refused at {@code now} because the period closed. */
  public boolean closed(long period, long now) {
    return now >= end(period) + maxLag;
  }

  /** Whether {@code period} starts after the period following the one of {@code now}. */
  public boolean ahead(long period, long now) {
    return period > of(now) + 1;
  }

  /** When the spending of {@code period} may be dropped: one period after it closed. */
  public long forgetAt(long period) {
    return end(period) + maxLag + length;
  }

  /** When {@code period} starts. */
  public long start(long period) {
    return period * length;
  }

  private long end(long period) {
    return (period + 1) * length;
  }
}
