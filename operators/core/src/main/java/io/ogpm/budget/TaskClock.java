package io.ogpm.budget;

import io.ogpm.annotation.Internal;

/**
 * The clock of one budget instance: the latest time it has read, from the task's wall clock or its
 * timers. Never earlier, so that a wall clock stepped back (NTP) cannot reopen a period that
 * closed, whose spending may already be forgotten. Kept in memory only: a restored instance starts
 * again from its first reading, and a clock behind by less than a period then still sees every
 * forgotten period closed ({@link BudgetPeriods#forgetAt}). Not thread-safe: one per budget
 * instance.
 */
@Internal
public final class TaskClock {
  private long latest = Long.MIN_VALUE;

  /** The clock now, given a reading of the task's clock: the latest reading so far. */
  public long now(long reading) {
    latest = Math.max(latest, reading);
    return latest;
  }
}
