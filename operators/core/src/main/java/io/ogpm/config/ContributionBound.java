package io.ogpm.config;

import io.ogpm.annotation.PublicEvolving;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * At most {@link #records()} of a user's records in each {@link #window()} reach the perturbed
 * topic, chosen uniformly at random among that user's records in the window; the others are
 * dead-lettered ({@code contribution-bound}). So a user spends at most {@code records} times a
 * record's epsilon in any window, however many readings their device sends. Windows are {@code
 * floor(t / window)} of a clock the producer does not control ({@link BudgetClock}, as the
 * budget's), aligned with the aggregation's tumbling windows of the same size from the epoch; a
 * window's chosen records leave when it closes, {@link #maxLag()} after its end by the job's clock.
 * Immutable and serializable.
 */
@PublicEvolving
public final class ContributionBound implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int records;
  private final Duration window;
  private final BudgetClock clock;
  private final Duration maxLag;

  private ContributionBound(int records, Duration window, BudgetClock clock, Duration maxLag) {
    this.records = records;
    this.window = window;
    this.clock = clock;
    this.maxLag = maxLag;
  }

  /**
   * At most {@code records} of a user's records per {@code window} of {@code clock}.
   *
   * @param maxLag how long after its end a window still takes records (and holds its chosen ones),
   *     or null for the default: a tenth of the window on {@link BudgetClock#LOG_APPEND_TIME} (the
   *     broker's time reaches the job a little late), none on {@link BudgetClock#INGESTION_TIME}
   * @throws ConfigException naming the key and the bad value
   */
  public static ContributionBound of(
      int records, Duration window, BudgetClock clock, Duration maxLag) {
    if (records < 1) {
      throw new ConfigException("contribution: records must be >= 1, got " + records);
    }
    if (window == null || window.isNegative() || window.isZero()) {
      throw new ConfigException("contribution: window must be positive, got " + window);
    }
    ConfigDurations.checkMillis("contribution", "window", window);
    if (clock == null) {
      throw new ConfigException("contribution: clock must not be null");
    }
    if (clock == BudgetClock.INGESTION_TIME && maxLag != null) {
      throw new ConfigException(
          "contribution: max-lag applies to clock log-append-time only;"
              + " with ingestion-time no record is late");
    }
    Duration lag =
        maxLag != null
            ? maxLag
            : clock == BudgetClock.LOG_APPEND_TIME ? window.dividedBy(10) : Duration.ZERO;
    if (lag.isNegative()) {
      throw new ConfigException("contribution: max-lag must not be negative, got " + lag);
    }
    ConfigDurations.checkMillis("contribution", "max-lag", lag);
    return new ContributionBound(records, window, clock, lag);
  }

  /** Parses {@code contribution: key}'s duration ({@code 10s}, {@code 1m}, {@code PT10S}). */
  static Duration parseDuration(String key, String text) {
    return ConfigDurations.parse("contribution", key, text);
  }

  /** The most records of one user released per window. */
  public int records() {
    return records;
  }

  /** The window's length. */
  public Duration window() {
    return window;
  }

  /** The clock that places records in windows. */
  public BudgetClock clock() {
    return clock;
  }

  /** How long after its end a window still takes records; its chosen ones leave then. */
  public Duration maxLag() {
    return maxLag;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ContributionBound c
        && c.records == records
        && c.window.equals(window)
        && c.clock == clock
        && c.maxLag.equals(maxLag);
  }

  @Override
  public int hashCode() {
    return Objects.hash(records, window, clock, maxLag);
  }

  @Override
  public String toString() {
    return "contribution{at most "
        + records
        + (records == 1 ? " record" : " records")
        + " per user per "
        + window
        + " of "
        + clock.id()
        + ", max-lag "
        + maxLag
        + "}";
  }
}
