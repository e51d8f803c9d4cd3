package io.ogpm.config;

import io.ogpm.annotation.PublicEvolving;
import java.math.BigDecimal;
import java.time.Duration;

/**
 * What a configuration promises one user, beside what it promises one record: the epsilon a record
 * spends (the sum of its fields', sequential composition), and, with a budget, the most a user
 * spends in a period and, paced, by any time in it. Without a budget a user's records add up
 * without bound: the guarantee is per record only, and it says so. Stated where a job starts (its
 * log) and where the command line perturbs (its summary), so that a reviewer reads the per-user
 * figure next to the per-record one.
 */
@PublicEvolving
public final class UserGuarantee {
  private final double perRecord;
  private final boolean sampled;
  private final BudgetConfig budget;
  private final ContributionBound contribution;

  private UserGuarantee(
      double perRecord, boolean sampled, BudgetConfig budget, ContributionBound contribution) {
    this.perRecord = perRecord;
    this.sampled = sampled;
    this.budget = budget;
    this.contribution = contribution;
  }

  /** The guarantee of a configuration. */
  public static UserGuarantee of(PrivacyConfig config) {
    return new UserGuarantee(
        config.epsilonPerRecord(),
        config.samplesFields(),
        config.budget().orElse(null),
        config.contribution().orElse(null));
  }

  /** The most one user spends in a contribution window; infinite without a bound. */
  public double perWindow() {
    double window =
        contribution == null ? Double.POSITIVE_INFINITY : contribution.records() * perRecord;
    return Math.min(window, perPeriod());
  }

  /**
   * The most one user's records spend among those with a time in {@code [start, end)}: what one
   * event-time window of the aggregation holds of a person, its time being the perturbed record's,
   * the raw record's as the broker appended it. It is {@code records x epsilon per record} for each
   * contribution window the window meets, and the period's budget (paced: the slices begun by the
   * window's last millisecond) for each period it meets, whichever is less. Only bounds placed on
   * the broker's clock count: on {@code ingestion-time} the time that placed a record is not its
   * event time, so a producer's timestamps can gather any number of windows' records in one
   * aggregation window. Infinite where nothing bounds it.
   *
   * @throws IllegalArgumentException unless {@code start < end}
   */
  public double inWindow(long start, long end) {
    if (start >= end) {
      throw new IllegalArgumentException(
          "a window must end after it starts, got [" + start + ", " + end + ")");
    }
    double bound = Double.POSITIVE_INFINITY;
    if (contribution != null && contribution.clock() == BudgetClock.LOG_APPEND_TIME) {
      bound = met(start, end, contribution.window()) * contribution.records() * perRecord;
    }
    if (budget != null && budget.clock() == BudgetClock.LOG_APPEND_TIME) {
      long periods = met(start, end, budget.period());
      long period = budget.period().toMillis();
      double spent =
          periods == 1
              ? budget.allowance(end - 1 - Math.floorDiv(start, period) * period)
              : periods * budget.epsilon();
      bound = Math.min(bound, spent);
    }
    return bound;
  }

  /** How many of the calendar's intervals of {@code length} from the epoch meet [start, end). */
  private static long met(long start, long end, Duration length) {
    long l = length.toMillis();
    return Math.floorDiv(end - 1, l) - Math.floorDiv(start, l) + 1;
  }

  /** The most one record spends. */
  public double perRecord() {
    return perRecord;
  }

  /** The most one user spends in a budget period; infinite without a budget. */
  public double perPeriod() {
    return budget == null ? Double.POSITIVE_INFINITY : budget.epsilon();
  }

  /**
   * One line: for example {@code each user: at most 5.5 per record, 48 per 1d (paced: 2 each 1h, so
   * by any time at most the slices begun)}.
   */
  public String describe() {
    String record = "each user: at most " + epsilon(perRecord) + " per record";
    if (contribution != null) {
      record +=
          ", "
              + epsilon(contribution.records() * perRecord)
              + " per "
              + shown(contribution.window())
              + " window ("
              + contribution.records()
              + (contribution.records() == 1 ? " record)" : " records)");
    }
    if (budget == null) {
      return record
          + "; no budget, so a user's "
          + (contribution == null ? "records" : "windows")
          + " add up without bound (configure budget: to bound them per period)";
    }
    String line = record + ", " + number(budget.epsilon()) + " per " + shown(budget.period());
    return budget
        .pacing()
        .map(
            p ->
                line
                    + " (paced: "
                    + number(budget.firstSlice())
                    + " each "
                    + shown(p)
                    + ", so by any time at most the slices begun)")
        .orElse(
            line + " (first come, first served: a period's budget may go in its first records)");
  }

  /**
   * What records spend: a sampled record's epsilon, a hair below a round figure, as that figure.
   */
  private String epsilon(double e) {
    return sampled ? FieldSampling.rounded(e) : number(e);
  }

  /** The double's own shortest decimal (what was configured), without a trailing .0. */
  private static String number(double v) {
    return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
  }

  /** A duration as the configuration writes it: 1d, 12h, 30m, 10s, else ISO-8601. */
  static String shown(Duration d) {
    long s = d.toSeconds();
    if (d.getNano() != 0) {
      return d.toString();
    }
    if (s % 86_400 == 0) {
      return s / 86_400 + "d";
    }
    if (s % 3_600 == 0) {
      return s / 3_600 + "h";
    }
    if (s % 60 == 0) {
      return s / 60 + "m";
    }
    return s + "s";
  }

  @Override
  public String toString() {
    return describe();
  }
}
