package io.ogpm.flink.table;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import io.ogpm.config.ConfigException;
import java.time.Duration;

/**
 * The arguments of an {@code LDP_BUDGET} call that define its budget ({@code budget}, {@code
 * budget_period}, {@code clock}, {@code max_lag}, {@code pacing}), read as the configuration file
 * reads its {@code budget:} keys, so that both give the same {@link BudgetConfig}; its messages
 * name the SQL arguments.
 */
final class BudgetArguments {
  private BudgetArguments() {}

  /**
   * A number written as a string ({@code cost => '3.0'}), or null for NULL.
   *
   * <p>Strings, not DOUBLE: Flink 2.2 inserts a cast for a DECIMAL or INT literal passed to a
   * DOUBLE argument of a process table function, then generates code that casts the literal's value
   * ({@code DecimalData}) to {@code Double} without converting it, and fails to compile; and the
   * cast hides the literal from the state's time-to-live. Strings are passed as they are.
   *
   * @throws IllegalArgumentException naming the argument when it is not a number
   */
  static Double number(String name, String value) {
    if (value == null) {
      return null;
    }
    try {
      return Double.parseDouble(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          name + " must be a number written as a string, for example '1.5', got '" + value + "'");
    }
  }

  /**
   * The budget the arguments define.
   *
   * @throws IllegalArgumentException naming the argument and its value
   */
  static BudgetConfig config(
      Double budget, String period, String clock, String maxLag, String pacing) {
    if (budget == null) {
      throw new IllegalArgumentException("budget must not be NULL");
    }
    if (period == null) {
      throw new IllegalArgumentException("budget_period must not be NULL");
    }
    try {
      BudgetClock c = clock == null ? BudgetClock.LOG_APPEND_TIME : BudgetClock.parse(clock);
      Duration lag = maxLag == null ? null : BudgetConfig.parseDuration("max-lag", maxLag);
      BudgetConfig config = BudgetConfig.of(budget, BudgetConfig.parsePeriod(period), c, lag);
      return pacing == null
          ? config
          : config.withPacing(BudgetConfig.parseDuration("pacing", pacing));
    } catch (ConfigException e) {
      throw new IllegalArgumentException(argumentNames(e.getMessage()), e);
    }
  }

  /**
   * A budget configuration's message with the SQL arguments' names ({@code budget: period} is
   * {@code budget_period}).
   */
  static String argumentNames(String message) {
    String m = message.startsWith("budget: ") ? message.substring("budget: ".length()) : message;
    if (m.startsWith("period")) {
      return "budget_period" + m.substring("period".length());
    }
    if (m.startsWith("max-lag")) {
      return "max_lag" + m.substring("max-lag".length());
    }
    if (m.startsWith("epsilon")) {
      return "budget" + m.substring("epsilon".length());
    }
    return m;
  }
}
