package io.ogpm.estimate;

import io.ogpm.mechanism.Mechanism;

/**
 * Where a classical mechanism's mean function {@code g(x) = E[M(x)]} is affine: the line through
 * its values at 3/8 and 5/8 of the domain, and the run of inputs around them where g follows that
 * line. OGPM's central piece is clamped at the ends of the domain, so its g is affine in the middle
 * and flat in the first and last {@code s/2}; ogpm-u, pm and sw are affine everywhere; t-laplace
 * and b-laplace bend between 3/8 and 5/8 and are affine nowhere ({@link #exists} false).
 *
 * @param slope b, or NaN when g is affine nowhere
 * @param intercept a, with {@code g(x) = a + b x} on the run
 * @param from lower end of the run (NaN without one)
 * @param to upper end of the run (NaN without one)
 */
record AffinePart(double slope, double intercept, double from, double to) {
  /** Grid steps over the domain on which g is compared with the line. */
  static final int POINTS = 256;

  static AffinePart of(Mechanism mechanism) {
    double lo = mechanism.domain().lo();
    double hi = mechanism.domain().hi();
    double w = mechanism.domain().width();
    double x1 = lo + 0.375 * w;
    double x2 = lo + 0.625 * w;
    double g1 = mechanism.outputMean(x1);
    double g2 = mechanism.outputMean(x2);
    double b = (g2 - g1) / (x2 - x1);
    double a = g1 - b * x1;
    boolean[] onLine = new boolean[POINTS + 1];
    for (int i = 0; i <= POINTS; i++) {
      double x = Math.min(lo + w * i / POINTS, hi);
      onLine[i] = Math.abs(mechanism.outputMean(x) - (a + b * x)) <= 1e-9 * w;
    }
    // Every grid point from 3/8 to 5/8 must be on the line: the two it was drawn through always
    // are, so a mean function that bends between them is affine nowhere.
    int first = 3 * POINTS / 8;
    int last = 5 * POINTS / 8;
    boolean affine = b > 1e-9;
    for (int i = first; i <= last; i++) {
      affine &= onLine[i];
    }
    if (!affine) {
      return new AffinePart(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }
    while (first > 0 && onLine[first - 1]) {
      first--;
    }
    while (last < POINTS && onLine[last + 1]) {
      last++;
    }
    return new AffinePart(b, a, lo + w * first / POINTS, Math.min(lo + w * last / POINTS, hi));
  }

  /** Whether g is affine anywhere. */
  boolean exists() {
    return !Double.isNaN(slope);
  }

  /** The input whose line value is y: {@code (y - a) / b} (NaN without an affine part). */
  double inverse(double y) {
    return (y - intercept) / slope;
  }
}
