package io.ogpm.flink.table;

import io.ogpm.config.BudgetConfig;
import org.apache.flink.table.types.inference.CallContext;

/**
 * An {@code LDP_BUDGET} call as the planner sees it: where each scalar argument is, and the literal
 * it holds. Both checks made at planning time read it ({@link BudgetArgumentCheck}, {@link
 * BudgetStateTimeToLive}).
 */
final class BudgetCall {
  /** Positions of the scalar arguments in a call (the input table is at 0). */
  static final int COST = 1;

  static final int BUDGET = 2;
  static final int PERIOD = 3;
  static final int CLOCK = 4;
  static final int MAX_LAG = 5;
  static final int TIME_COLUMN = 6;
  static final int TIME_TYPE_COLUMN = 7;
  static final int PACING = 8;

  /** An argument that is not a literal (or not one the planner can read). */
  static final Object NOT_LITERAL = new Object();

  private BudgetCall() {}

  /**
   * A call's argument value: null when the call leaves it out or passes NULL; {@link #NOT_LITERAL}
   * when the planner cannot say (it validates a call again after casting its literals: {@code
   * CAST(1.0 AS DOUBLE)} is no literal).
   */
  static Object literal(CallContext call, int position) {
    if (position >= call.getArgumentDataTypes().size() || call.isArgumentNull(position)) {
      return null;
    }
    if (!call.isArgumentLiteral(position)) {
      return NOT_LITERAL;
    }
    Object v =
        call.getArgumentValue(
                position, call.getArgumentDataTypes().get(position).getConversionClass())
            .orElse(null);
    return v == null ? null : v.toString();
  }

  /** The budget of a call's literal arguments, or null when one of them is not a literal. */
  static BudgetConfig config(CallContext call) {
    Object budget = literal(call, BUDGET);
    Object period = literal(call, PERIOD);
    Object clock = literal(call, CLOCK);
    Object lag = literal(call, MAX_LAG);
    Object pacing = literal(call, PACING);
    if (budget == NOT_LITERAL
        || period == NOT_LITERAL
        || clock == NOT_LITERAL
        || lag == NOT_LITERAL
        || pacing == NOT_LITERAL) {
      return null;
    }
    return BudgetArguments.config(
        BudgetArguments.number("budget", (String) budget),
        (String) period,
        (String) clock,
        (String) lag,
        (String) pacing);
  }

  /** The column of the Kafka timestamp: the one the call names, or the default. */
  static String timeColumn(String named) {
    return named == null ? LdpBudget.DEFAULT_TIME_COLUMN : named;
  }

  /** The column of the Kafka timestamp type: the one the call names, or the default. */
  static String timeTypeColumn(String named) {
    return named == null ? LdpBudget.DEFAULT_TIME_TYPE_COLUMN : named;
  }
}
