package io.ogpm.budget;

import io.ogpm.annotation.Internal;
import io.ogpm.record.ReasonCode;

/** What {@link BudgetRule} decides for one record: released, or refused and why. */
@Internal
public sealed interface BudgetDecision {
  /**
   * The record is released.
   *
   * @param period the record's budget period
   * @param spent the user's spending in that period with the record's cost, to be kept
   */
  record Released(long period, double spent) implements BudgetDecision {}

  /**
   * The record is refused.
   *
   * @param time the record's time on the budget's clock, for its dead letter; 0 when that time is
   *     not trusted, so that a dead letter never carries a time the producer chose
   */
  record Refused(Refusal refusal, long time) implements BudgetDecision {
    /** The reason code of the record's dead letter or refusal metric. */
    public ReasonCode reason() {
      return refusal.reason;
    }
  }

  /** Why a record is refused; two causes share the reason code {@code untrusted-time}. */
  enum Refusal {
    /**
     * The budget's clock is the broker's log-append time, and the record's Kafka timestamp was not
     * set by the broker (CreateTime, none, or missing).
     */
    TIME_SET_BY_PRODUCER(ReasonCode.UNTRUSTED_TIME),
    /** The record's period starts after the one following the period of the budget's clock. */
    TIME_AHEAD(ReasonCode.UNTRUSTED_TIME),
    /** The record's period closed: it ended more than the budget's max-lag ago. */
    PERIOD_CLOSED(ReasonCode.BUDGET_PERIOD_CLOSED),
    /** The user's spending in the record's period plus its cost would exceed the budget. */
    BUDGET_EXHAUSTED(ReasonCode.BUDGET_EXHAUSTED),
    /**
     * A paced budget: the user's spending plus the record's cost would exceed what the period has
     * released by the record's time; later slices release more.
     */
    ALLOWANCE_SPENT(ReasonCode.BUDGET_EXHAUSTED);

    private final ReasonCode reason;

    Refusal(ReasonCode reason) {
      this.reason = reason;
    }
  }
}
