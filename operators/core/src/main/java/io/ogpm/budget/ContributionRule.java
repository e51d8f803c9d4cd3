package io.ogpm.budget;

import io.ogpm.annotation.Internal;
import io.ogpm.config.BudgetClock;
import io.ogpm.config.ContributionBound;
import io.ogpm.record.ReasonCode;
import java.util.function.LongUnaryOperator;

/**
 * The contribution bound's rule: which window a record belongs to, on a clock the producer does not
 * control (as the budget's, {@link BudgetRule#trustedTime}), and whether it is kept among the at
 * most {@code c} of its user's records the window releases. The choice is reservoir sampling
 * (Vitter's Algorithm R): the window's first {@code c} records are kept; the n-th after them
 * replaces a uniformly chosen kept one with probability {@code c / n}. So whatever the order and
 * however many records arrive, every set of {@code c} of the window's records is equally likely to
 * be the one released, and a producer cannot favour its first or last records. Immutable.
 */
@Internal
public final class ContributionRule {
  /** Where a record goes. */
  public sealed interface Placement {}

  /** In window {@code window}. */
  public record Placed(long window) implements Placement {}

  /**
   * Refused, with its dead letter's reason and the record's trusted time (0 when none is trusted).
   */
  public record Refused(ReasonCode reason, long time) implements Placement {}

  private final ContributionBound bound;
  private final BudgetPeriods windows;

  public ContributionRule(ContributionBound bound) {
    this.bound = bound;
    this.windows = new BudgetPeriods(bound.window(), bound.maxLag());
  }

  /** When a window's chosen records leave: {@code max-lag} after its end. */
  public long releaseAt(long window) {
    return windows.forgetAt(window) - bound.window().toMillis();
  }

  /**
   * Whether windows close by event time (the broker's time, through watermarks) rather than by the
   * job's clock. On {@code log-append-time} a record's window is fixed by the broker; were it
   * closed by the job's clock, a backlog read after a restore or an outage (broker times long past)
   * would find every window closed and be refused whole. On {@code ingestion-time} the job's clock
   * places records, so it closes windows too, and no record is ever late.
   */
  public boolean closesByWatermark() {
    return bound.clock() == BudgetClock.LOG_APPEND_TIME;
  }

  /**
   * The window of a record, or why it has none.
   *
   * @param now the job's clock (epoch ms), never earlier than for the user's earlier records
   * @param watermark the event time the job's input has reached (read where {@link
   *     #closesByWatermark()})
   * @param time the record's Kafka timestamp (read on the log-append-time clock only)
   * @param timestampType the name of its Kafka timestamp type, or null
   */
  public Placement place(long now, long watermark, long time, String timestampType) {
    long at = BudgetRule.trustedTime(bound.clock(), now, time, timestampType);
    if (at == BudgetRule.UNTRUSTED) {
      return new Refused(ReasonCode.UNTRUSTED_TIME, 0);
    }
    long window = windows.of(at);
    if (windows.ahead(window, now)) {
      return new Refused(ReasonCode.UNTRUSTED_TIME, 0);
    }
    if (windows.closed(window, closesByWatermark() ? watermark : now)) {
      return new Refused(ReasonCode.CONTRIBUTION_WINDOW_CLOSED, at);
    }
    return new Placed(window);
  }

  /**
   * Algorithm R: where the {@code n}-th record of a window (n from 1) goes among {@code capacity}
   * slots: its slot (replacing what was there), or -1 when it is not kept.
   *
   * @param uniformBelow a uniform draw from {@code [0, bound)} for a positive bound (secure
   *     randomness)
   */
  public static int slotFor(long n, int capacity, LongUnaryOperator uniformBelow) {
    if (n < 1 || capacity < 1) {
      throw new IllegalArgumentException(
          "a record's number and the capacity must be >= 1, got " + n + " and " + capacity);
    }
    if (n <= capacity) {
      return (int) (n - 1);
    }
    long j = uniformBelow.applyAsLong(n);
    return j < capacity ? (int) j : -1;
  }
}
