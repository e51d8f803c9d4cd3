package io.ogpm.flink.table;

import static io.ogpm.flink.table.BudgetCall.CLOCK;
import static io.ogpm.flink.table.BudgetCall.MAX_LAG;
import static io.ogpm.flink.table.BudgetCall.NOT_LITERAL;
import static io.ogpm.flink.table.BudgetCall.PERIOD;
import static io.ogpm.flink.table.BudgetCall.literal;

import io.ogpm.config.BudgetConfig;
import java.time.Duration;
import java.util.Optional;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.inference.CallContext;
import org.apache.flink.table.types.inference.StateTypeStrategy;

/**
 * The type Flink extracted for {@code LDP_BUDGET}'s state, with each entry's time-to-live from the
 * call's budget ({@link BudgetLedger#timeToLive}): long enough that a period's spending outlives
 * the period's close by a period.
 */
final class BudgetStateTimeToLive implements StateTypeStrategy {
  private final StateTypeStrategy extracted;

  BudgetStateTimeToLive(StateTypeStrategy extracted) {
    this.extracted = extracted;
  }

  @Override
  public Optional<DataType> inferType(CallContext call) {
    return extracted.inferType(call);
  }

  @Override
  public Optional<Duration> getTimeToLive(CallContext call) {
    // Only the calendar matters here: budget_period, clock and max_lag, strings the planner passes
    // as they are. (Numbers it casts to DOUBLE: no longer literals when the state is derived.)
    Object period = literal(call, PERIOD);
    Object clock = literal(call, CLOCK);
    Object lag = literal(call, MAX_LAG);
    if (period == NOT_LITERAL || clock == NOT_LITERAL || lag == NOT_LITERAL) {
      throw call.newValidationError(
          "LDP_BUDGET: budget_period, clock and max_lag must be literals");
    }
    BudgetConfig calendar =
        BudgetArguments.config(1.0, (String) period, (String) clock, (String) lag, null);
    return Optional.of(BudgetLedger.timeToLive(calendar));
  }
}
