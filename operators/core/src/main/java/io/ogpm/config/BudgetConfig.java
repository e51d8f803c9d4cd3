package io.ogpm.config;

import io.ogpm.annotation.PublicEvolving;
import io.ogpm.mechanism.Checks;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How much privacy budget each user may spend: {@link #epsilon()} per {@link #period()}, periods
 * being read from a {@link #clock()} the producer does not control. Records that would exceed it
 * are not released, so that repeated reports of one user do not add up to an unbounded privacy
 * loss. A period stays open for records for {@link #maxLag()} after it ends (a job catching up on a
 * backlog); later records for it are refused. Immutable and serializable.
 */
@PublicEvolving
public final class BudgetConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * The relative slack of every comparison of spending with a budget: rounding makes sums of costs
   * inexact (0.1 + 0.1 + 0.1 > 0.3 in doubles), and without it a budget that is an exact multiple
   * of a record's cost could not be used to the end.
   */
  static final double SLACK = 1e-12;

  private final double epsilon;
  private final Duration period;
  private final BudgetClock clock;
  private final Duration maxLag;
  private final Duration pacing;

  private BudgetConfig(
      double epsilon, Duration period, BudgetClock clock, Duration maxLag, Duration pacing) {
    this.epsilon = epsilon;
    this.period = period;
    this.clock = clock;
    this.maxLag = maxLag;
    this.pacing = pacing;
  }

  /**
   * A budget of {@code epsilon} per {@code period} on the broker's log-append time, lag one period.
   */
  public static BudgetConfig of(double epsilon, Duration period) {
    return of(epsilon, period, BudgetClock.LOG_APPEND_TIME, null);
  }

  /**
   * A budget of {@code epsilon} per {@code period} of {@code clock}.
   *
   * @param maxLag how long after its end a period still takes records, or null for the default: one
   *     period on {@link BudgetClock#LOG_APPEND_TIME}; must be null on {@link
   *     BudgetClock#INGESTION_TIME}, whose records are never late
   * @throws ConfigException if epsilon is not a finite positive number, the period not a positive
   *     whole number of milliseconds of at most 36,500 days, or the lag negative or longer
   */
  public static BudgetConfig of(
      double epsilon, Duration period, BudgetClock clock, Duration maxLag) {
    try {
      Checks.positive("epsilon", epsilon);
      Checks.notNull("period", period);
      Checks.notNull("clock", clock);
    } catch (IllegalArgumentException e) {
      throw ConfigException.at("budget", e);
    }
    if (period.isNegative() || period.isZero()) {
      throw new ConfigException("budget: period must be positive, got " + period);
    }
    checkMillis("period", period);
    if (clock == BudgetClock.INGESTION_TIME && maxLag != null) {
      throw new ConfigException(
          "budget: max-lag applies to clock log-append-time only;"
              + " with ingestion-time no record is late");
    }
    Duration lag =
        maxLag != null ? maxLag : clock == BudgetClock.LOG_APPEND_TIME ? period : Duration.ZERO;
    if (lag.isNegative()) {
      throw new ConfigException("budget: max-lag must not be negative, got " + lag);
    }
    checkMillis("max-lag", lag);
    return new BudgetConfig(epsilon, period, clock, lag, null);
  }

  /**
   * This budget paced: a period's budget is released in equal slices, one at the start of each
   * {@code pacing} of the period, and a user may have spent by any time only the slices released so
   * far. Unspent slices carry over to the period's later slices, never to the next period. So a
   * user active all period spends at most the budget's share of the time gone by, and stays in
   * every later slice instead of spending the period's budget in its first minutes; a user who was
   * away may spend what accumulated at once (a burst up to what the period has released so far).
   *
   * @throws ConfigException if pacing is not positive, not a whole number of milliseconds, or
   *     longer than the period
   */
  public BudgetConfig withPacing(Duration pacing) {
    Checks.notNull("pacing", pacing);
    if (pacing.isNegative() || pacing.isZero() || pacing.compareTo(period) > 0) {
      throw new ConfigException(
          "budget: pacing must be positive and at most the period " + period + ", got " + pacing);
    }
    checkMillis("pacing", pacing);
    return new BudgetConfig(epsilon, period, clock, maxLag, pacing);
  }

  /** The slice length of a paced budget ({@link #withPacing}); empty: first come, first served. */
  public Optional<Duration> pacing() {
    return Optional.ofNullable(pacing);
  }

  /**
   * What a user may have spent by {@code sinceStart} milliseconds into a period: the whole budget
   * without pacing; with it, the slices released by then, {@code epsilon * min(1, k pacing /
   * period)} where {@code k = floor(sinceStart / pacing) + 1} slices have begun.
   */
  public double allowance(long sinceStart) {
    if (pacing == null) {
      return epsilon;
    }
    long slice = pacing.toMillis();
    long begun = Math.floorDiv(Math.max(0, sinceStart), slice) + 1;
    return epsilon * Math.min(1.0, (double) begun * slice / period.toMillis());
  }

  /** The budget released with a paced budget's first slice: all of it without pacing. */
  public double firstSlice() {
    return allowance(0);
  }

  /**
   * Refuses a pacing whose slices release less than one record's {@code cost}: a user's first
   * record would wait for slices to accumulate, and the pacing would mean less than it says.
   *
   * @param what what the cost is, for the message ({@code epsilon per record})
   * @throws ConfigException naming the pacing, its slice, the cost and the least pacing that fits
   */
  public void checkSliceHolds(double cost, String what) {
    if (firstSlice() >= cost * (1 - SLACK)) {
      return;
    }
    long least = (long) Math.ceil(cost / epsilon * period.toMillis());
    throw new ConfigException(
        "budget: pacing "
            + pacing
            + " releases "
            + firstSlice()
            + " a slice, less than the "
            + what
            + " "
            + cost
            + "; use a pacing of at least "
            + Duration.ofMillis(least));
  }

  private static void checkMillis(String key, Duration d) {
    ConfigDurations.checkMillis("budget", key, d);
  }

  /**
   * Parses an ISO-8601 duration ({@code P1D}, {@code PT12H}) or a whole number with a unit {@code
   * d}, {@code h}, {@code m} or {@code s} ({@code 1d}, {@code 12h}, {@code 30m}). The sign is not
   * checked here; {@link #of} requires a positive period.
   *
   * @throws ConfigException if the text is neither
   */
  public static Duration parsePeriod(String text) {
    return parseDuration("period", text);
  }

  /**
   * Parses the duration of the budget key {@code key} in the forms of {@link #parsePeriod}.
   *
   * @throws ConfigException naming the key if the text is neither form
   */
  public static Duration parseDuration(String key, String text) {
    return ConfigDurations.parse("budget", key, text);
  }

  /** The privacy budget one user may spend in one period. */
  public double epsilon() {
    return epsilon;
  }

  /**
   * Whether a user may have spent {@code spent} in one period: at most {@link #epsilon()}, with a
   * relative slack of {@code 1e-12} for rounding, so that a budget that is an exact multiple of a
   * record's cost is usable to the end. False for NaN.
   */
  public boolean allows(double spent) {
    return allows(spent, epsilon);
  }

  /**
   * Whether {@code spent} is within {@code allowance} ({@link #allowance}), with the same slack.
   */
  public boolean allows(double spent, double allowance) {
    return spent <= allowance * (1 + SLACK);
  }

  /** The length of a budget period. */
  public Duration period() {
    return period;
  }

  /**
   * The clock that assigns records to periods. With {@link BudgetClock#LOG_APPEND_TIME} the raw
   * topic must have {@code message.timestamp.type=LogAppendTime}: the budget operator refuses
   * records stamped by their producer ({@code untrusted-time}).
   */
  public BudgetClock clock() {
    return clock;
  }

  /**
   * How long after its end a period still takes records; older records are refused. Zero with
   * {@link BudgetClock#INGESTION_TIME}, where a record's period is always the current one.
   */
  public Duration maxLag() {
    return maxLag;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BudgetConfig b
        && Double.compare(b.epsilon, epsilon) == 0
        && b.period.equals(period)
        && b.clock == clock
        && b.maxLag.equals(maxLag)
        && Objects.equals(b.pacing, pacing);
  }

  @Override
  public int hashCode() {
    return Objects.hash(epsilon, period, clock, maxLag, pacing);
  }

  @Override
  public String toString() {
    return "budget{epsilon="
        + epsilon
        + " per "
        + period
        + " of "
        + clock.id()
        + (clock == BudgetClock.LOG_APPEND_TIME ? ", max-lag " + maxLag : "")
        + (pacing == null ? "" : ", paced every " + pacing)
        + "}";
  }
}
