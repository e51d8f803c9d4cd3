package io.ogpm.config;

import io.ogpm.mechanism.Checks;
import java.io.Serializable;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How much privacy budget each user may spend: {@link #epsilon()} per {@link #period()}. Records
 * that would exceed it are not released, so that repeated reports of one user do not add up to an
 * unbounded privacy loss. Immutable and serializable.
 */
public final class BudgetConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  private static final Pattern SHORT = Pattern.compile("([0-9]{1,12})([dhms])");

  private final double epsilon;
  private final Duration period;

  private BudgetConfig(double epsilon, Duration period) {
    this.epsilon = epsilon;
    this.period = period;
  }

  /**
   * A budget of {@code epsilon} per {@code period}.
   *
   * @throws ConfigException if epsilon is not a finite positive number or the period not positive
   */
  public static BudgetConfig of(double epsilon, Duration period) {
    try {
      Checks.positive("epsilon", epsilon);
      Checks.notNull("period", period);
    } catch (IllegalArgumentException e) {
      throw ConfigException.at("budget", e);
    }
    if (period.isNegative() || period.isZero()) {
      throw new ConfigException("budget: period must be positive, got " + period);
    }
    return new BudgetConfig(epsilon, period);
  }

  /**
   * Parses an ISO-8601 duration ({@code P1D}, {@code PT12H}) or a whole number with a unit {@code
   * d}, {@code h}, {@code m} or {@code s} ({@code 1d}, {@code 12h}, {@code 30m}). The sign is not
   * checked here; {@link #of} requires a positive period.
   *
   * @throws ConfigException if the text is neither
   */
  public static Duration parsePeriod(String text) {
    if (text != null) {
      Matcher m = SHORT.matcher(text);
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        switch (m.group(2)) {
          case "d":
            return Duration.ofDays(n);
          case "h":
            return Duration.ofHours(n);
          case "m":
            return Duration.ofMinutes(n);
          default:
            return Duration.ofSeconds(n);
        }
      }
      try {
        return Duration.parse(text);
      } catch (DateTimeParseException e) {
        // reported below
      }
    }
    throw new ConfigException("budget: period must be an ISO-8601 duration (P1D, PT12H) or a whole"
        + " number with unit d, h, m or s (1d, 12h, 30m), got "
        + (text == null ? "nothing" : ConfigException.quote(text)));
  }

  /** The privacy budget one user may spend in one period. */
  public double epsilon() {
    return epsilon;
  }

  /** The length of a budget period. */
  public Duration period() {
    return period;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BudgetConfig b
        && Double.compare(b.epsilon, epsilon) == 0
        && b.period.equals(period);
  }

  @Override
  public int hashCode() {
    return Objects.hash(epsilon, period);
  }

  @Override
  public String toString() {
    return "budget{epsilon=" + epsilon + " per " + period + "}";
  }
}
