package io.ogpm.estimate;

/**
 * An estimate with a 95 % confidence interval. On a circle the ends are wrapped into the domain,
 * so {@code lower} may be above {@code upper} when the interval crosses the seam.
 */
public record Interval(double estimate, double lower, double upper) {
  /** The two-sided 95 % normal quantile. */
  public static final double Z95 = 1.959963984540054;

  /** {@code estimate +- halfWidth}. */
  public static Interval around(double estimate, double halfWidth) {
    return new Interval(estimate, estimate - halfWidth, estimate + halfWidth);
  }

  /** Whether a value lies in the interval (for a wrapped circular interval, use {@link #containsOnCircle}). */
  public boolean contains(double value) {
    return value >= lower && value <= upper;
  }

  /** Whether a value lies in a wrapped interval on the circle [lo, lo + period). */
  public boolean containsOnCircle(double value, double lo, double period) {
    double v = (((value - lo) % period) + period) % period;
    double a = (((lower - lo) % period) + period) % period;
    double b = (((upper - lo) % period) + period) % period;
    return a <= b ? v >= a && v <= b : v >= a || v <= b;
  }
}
