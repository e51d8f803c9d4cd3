package io.ogpm.budget;

import io.ogpm.record.ReasonCode;
import java.util.Objects;

/**
 * What a record got from a budget, as far as the budget shows it: released (with the spending of
 * its period, when the budget shows it) or refused (with its dead letter's time, when the budget
 * writes dead letters).
 *
 * @param refusal why it was refused; null: released
 * @param time the dead letter's time; null when not shown
 * @param spent the spending of the record's period with it; null when not shown
 */
public record BudgetOutcome(ReasonCode refusal, Long time, Double spent) {
  public static BudgetOutcome released(Double spent) {
    return new BudgetOutcome(null, null, spent);
  }

  public static BudgetOutcome refused(ReasonCode reason, Long time) {
    return new BudgetOutcome(Objects.requireNonNull(reason, "reason"), time, null);
  }

  /**
   * Whether a budget's outcome is this one (the model's) as far as the budget shows it: the same
   * decision, and the same time or spending (to the bit) where shown.
   */
  public boolean admits(BudgetOutcome shown) {
    return refusal == shown.refusal
        && (shown.time == null || shown.time.equals(time))
        && (shown.spent == null || shown.spent.equals(spent));
  }

  /** The outcome's name in a tally: {@code released} or the reason code. */
  public String name() {
    return refusal == null ? "released" : refusal.code();
  }
}
