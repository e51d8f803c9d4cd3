package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;

/**
 * An estimate with a 95 % confidence interval, or with none ({@link #pointOnly}: NaN ends) where no
 * valid interval exists. On a circle the ends are wrapped into the domain, so {@code lower} may be
 * above {@code upper} when the interval crosses the seam; the whole circle is {@code [lo, lo +
 * period]}.
 */
@PublicEvolving
public record Interval(double estimate, double lower, double upper) {
  /** The two-sided 95 % normal quantile. */
  public static final double Z95 = 1.959963984540054;

  /**
   * An estimate moved into [lower, upper] (left alone when the ends are NaN). Moving an estimate
   * into an interval never takes it further from any value the interval holds.
   */
  public static Interval within(double estimate, double lower, double upper) {
    if (Double.isNaN(lower) || Double.isNaN(upper)) {
      return new Interval(estimate, Double.NaN, Double.NaN);
    }
    return new Interval(Math.min(Math.max(estimate, lower), upper), lower, upper);
  }

  /** An estimate without a valid interval. */
  public static Interval pointOnly(double estimate) {
    return new Interval(estimate, Double.NaN, Double.NaN);
  }

  /** Whether there is an interval (false for {@link #pointOnly}). */
  public boolean hasBounds() {
    return !Double.isNaN(lower) && !Double.isNaN(upper);
  }

  /**
   * Whether a value lies in the interval (for a wrapped circular interval, use {@link
   * #containsOnCircle}).
   */
  public boolean contains(double value) {
    return value >= lower && value <= upper;
  }

  /** Whether a value lies in a wrapped interval on the circle [lo, lo + period). */
  public boolean containsOnCircle(double value, double lo, double period) {
    if (upper - lower >= period) {
      return true;
    }
    double v = (((value - lo) % period) + period) % period;
    double a = (((lower - lo) % period) + period) % period;
    double b = (((upper - lo) % period) + period) % period;
    return a <= b ? v >= a && v <= b : v >= a || v <= b;
  }
}
