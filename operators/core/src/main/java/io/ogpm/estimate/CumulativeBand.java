package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;

/**
 * A simultaneous 95 % band for the cumulative distribution of a window's inputs: in at least 95 %
 * of windows, whatever the inputs, the share {@code F(t)} of the window's actual inputs at or below
 * {@code points[k]} (on a circle: in the arc from the domain's start to it) lies in {@code
 * [lower[k], upper[k]]} for every k at once. Both ends never decrease along the points and reach 1
 * at the domain's end. Quantiles and exceedance shares read off it ({@link #quantile}, {@link
 * #exceedance}) hold jointly with it. {@link CumulativeBands} says how it is found.
 *
 * @param points where the band is given, from the domain's start to its end
 * @param lower the least share of the inputs at or below each point
 * @param upper the most share of the inputs at or below each point
 */
@PublicEvolving
public record CumulativeBand(double[] points, double[] lower, double[] upper) {
  public CumulativeBand {
    if (points.length < 2 || lower.length != points.length || upper.length != points.length) {
      throw new IllegalArgumentException(
          "a band needs at least 2 points and bounds at each: got "
              + points.length
              + " points, "
              + lower.length
              + " lower and "
              + upper.length
              + " upper bounds");
    }
    points = points.clone();
    lower = lower.clone();
    upper = upper.clone();
  }

  @Override
  public double[] points() {
    return points.clone();
  }

  @Override
  public double[] lower() {
    return lower.clone();
  }

  @Override
  public double[] upper() {
    return upper.clone();
  }

  /**
   * An interval for the p-quantile {@code inf {t : F(t) >= p}} of the window's inputs, with the
   * estimate moved into it. Where the band's upper end is below p at a point, so is F there and
   * everywhere before it: the quantile lies beyond that point. Where the lower end reaches p, so
   * does F: the quantile lies at or before it.
   *
   * @param p in (0, 1)
   * @param estimate a point estimate (for instance from the reconstruction), or NaN for the
   *     interval's middle
   */
  public Interval quantile(double p, double estimate) {
    if (!(p > 0 && p < 1)) {
      throw new IllegalArgumentException("a quantile's probability must be in (0, 1), got " + p);
    }
    int below = lastBelow(upper, p);
    int reaching = firstReaching(lower, p);
    double from = points[Math.max(below, 0)];
    double to = points[reaching < 0 ? points.length - 1 : reaching];
    return Interval.within(Double.isNaN(estimate) ? (from + to) / 2 : estimate, from, to);
  }

  /**
   * An interval for the share of the window's inputs above a threshold, {@code 1 - F(threshold)},
   * from the band at the points on either side of it (F never decreases), with the estimate moved
   * into it.
   *
   * @param estimate a point estimate, or NaN for the interval's middle
   */
  public Interval exceedance(double threshold, double estimate) {
    double least = 1 - mostAtOrBelow(threshold);
    double most = 1 - leastAtOrBelow(threshold);
    return Interval.within(Double.isNaN(estimate) ? (least + most) / 2 : estimate, least, most);
  }

  /**
   * An interval for the share of the window's inputs in {@code (from, to]}, {@code F(to) -
   * F(from)}: the histogram's uncertainty at any resolution, as wide as the band is there (a bin
   * narrower than the mechanism resolves gets a wide interval, a run of bins a narrow one).
   *
   * @param estimate a point estimate, or NaN for the interval's middle
   * @throws IllegalArgumentException if from is above to
   */
  public Interval share(double from, double to, double estimate) {
    if (!(from <= to)) {
      throw new IllegalArgumentException(
          "a share needs from at or below to, got from " + from + " and to " + to);
    }
    double least = Math.max(0, leastAtOrBelow(to) - mostAtOrBelow(from));
    double most = Math.min(1, mostAtOrBelow(to) - leastAtOrBelow(from));
    return Interval.within(Double.isNaN(estimate) ? (least + most) / 2 : estimate, least, most);
  }

  /** The most F(t) can be: the upper end at the first point at or beyond t (F never decreases). */
  private double mostAtOrBelow(double t) {
    if (t < points[0]) {
      return 0;
    }
    int k = firstAtOrBeyond(points, t);
    return k < points.length ? upper[k] : 1;
  }

  /**
   * The last point whose upper end is below p, or -1: a p-quantile lies beyond it ({@link
   * #quantile}).
   */
  static int lastBelow(double[] upper, double p) {
    int last = -1;
    for (int k = 0; k < upper.length; k++) {
      if (upper[k] < p) {
        last = k;
      }
    }
    return last;
  }

  /**
   * The first point whose lower end reaches p, or -1: a p-quantile lies at or before it ({@link
   * #quantile}).
   */
  static int firstReaching(double[] lower, double p) {
    for (int k = 0; k < lower.length; k++) {
      if (lower[k] >= p) {
        return k;
      }
    }
    return -1;
  }

  /** The first point at or beyond t, or the number of points: where F(t) is read from above. */
  static int firstAtOrBeyond(double[] points, double t) {
    int k = 0;
    while (k < points.length && !(points[k] >= t)) {
      k++;
    }
    return k;
  }

  /** The least F(t) can be: the lower end at the last point at or before t. */
  private double leastAtOrBelow(double t) {
    if (t >= points[points.length - 1]) {
      return 1;
    }
    double least = 0;
    for (int k = 0; k < points.length && points[k] <= t; k++) {
      least = lower[k];
    }
    return least;
  }
}
