package io.ogpm.estimate;

import io.ogpm.mechanism.Mechanism;

/**
 * Which means of a window's inputs are consistent with a range of expected output means, for a
 * mechanism on a classical domain with mean function {@code g(x) = E[M(x)]}.
 *
 * <p>Why: the inputs {@code x_1..x_n} have mean {@code mu}; their outputs have expected mean {@code
 * gbar = (1/n) sum g(x_i) = E_P[g]}, P the inputs' empirical distribution. A mean mu is consistent
 * with {@code gbar} in [L, U] iff some distribution P on the domain has {@code E_P[x] = mu} and
 * {@code E_P[g]} in [L, U]. The points {@code (E_P[x], E_P[g])} fill the convex hull of g's graph,
 * whose lower and upper edges are g's convex minorant {@code g_} and concave majorant {@code g^};
 * so mu is consistent iff {@code g_(mu) <= U} and {@code g^(mu) >= L}. Every mechanism here has a
 * non-decreasing g (its output is stochastically non-decreasing in the input: a bump or noise that
 * moves right with x, clamped or truncated), so both envelopes are non-decreasing and the
 * consistent means are the interval {@code [inf{mu : g^(mu) >= L}, sup{mu : g_(mu) <= U}]}: the
 * narrowest interval that holds for every input distribution given only the output mean. Where g is
 * the identity (unbiased mechanisms) it is [L, U]; where g is flat (OGPM's central piece is clamped
 * at the ends, so inputs in the first {@code s/2} of the domain give the same outputs) it is as
 * wide as the flat part, whatever n.
 *
 * <p>How: g at {@value #POINTS} + 1 equally spaced inputs. As g is non-decreasing, {@code g(x_j) <=
 * g(x) <= g(x_{j+1})} on each step; the lower convex hull of the lower step function's corners is
 * convex and below g, hence below {@code g_}, and the upper concave hull of the upper step function
 * is above {@code g^}: the interval computed from them contains the exact one, and exceeds it by at
 * most one step ({@code 1/}{@value #POINTS} of the domain) at each end (every vertex of the lower
 * hull is a point of g's graph shifted right by at most one step; likewise left for the upper). If
 * g decreases anywhere on the grid by more than rounding, there is no interval ({@link #of} returns
 * null) rather than a wrong one.
 */
final class MeanIdentification {
  /** Steps of the grid over the domain. */
  static final int POINTS = 1 << 14;

  private final double lo;
  private final double hi;
  private final double minMean;
  private final double maxMean;
  // Vertices of the lower (convex) and upper (concave) hulls, by increasing x.
  private final double[] lowerX;
  private final double[] lowerG;
  private final double[] upperX;
  private final double[] upperG;

  private MeanIdentification(double lo, double hi, double[] x, double[] g) {
    this.lo = lo;
    this.hi = hi;
    this.minMean = g[0];
    this.maxMean = g[g.length - 1];
    int n = x.length - 1;
    // Lower step function: g(x_j) on [x_j, x_{j+1}); its corners (x_0, g_0) and (x_j, g_{j-1}).
    double[] cx = new double[n + 1];
    double[] cg = new double[n + 1];
    cx[0] = x[0];
    cg[0] = g[0];
    for (int j = 1; j <= n; j++) {
      cx[j] = x[j];
      cg[j] = g[j - 1];
    }
    double[][] lower = hull(cx, cg, true);
    // Upper step function: g(x_{j+1}) on (x_j, x_{j+1}]; its corners (x_j, g_{j+1}) and (x_n, g_n).
    double[] ux = new double[n + 1];
    double[] ug = new double[n + 1];
    for (int j = 0; j < n; j++) {
      ux[j] = x[j];
      ug[j] = g[j + 1];
    }
    ux[n] = x[n];
    ug[n] = g[n];
    double[][] upper = hull(ux, ug, false);
    this.lowerX = lower[0];
    this.lowerG = lower[1];
    this.upperX = upper[0];
    this.upperG = upper[1];
  }

  /**
   * The identification for a mechanism on a classical domain, or null when its mean function is not
   * non-decreasing (then no interval is valid from the output mean alone).
   */
  static MeanIdentification of(Mechanism mechanism) {
    double lo = mechanism.domain().lo();
    double hi = mechanism.domain().hi();
    return of(lo, hi, grid(lo, hi, mechanism::outputMean), ROUNDING * (hi - lo));
  }

  /**
   * The identification for any expectation {@code g(x) = E[psi(M(x))]} of a statistic of one
   * output, given at the {@value #POINTS} + 1 points of {@link #grid}; null when g is not finite or
   * decreases anywhere by more than {@code rounding} (which the caller's slack must cover). The
   * step-function argument above needs g to be non-decreasing between the grid points too: true for
   * every non-decreasing statistic psi of an output that is stochastically non-decreasing in the
   * input, as every mechanism here is.
   */
  static MeanIdentification of(double lo, double hi, double[] g, double rounding) {
    if (g.length != POINTS + 1) {
      throw new IllegalArgumentException("expected " + (POINTS + 1) + " values, got " + g.length);
    }
    for (int j = 0; j <= POINTS; j++) {
      if (!Double.isFinite(g[j]) || (j > 0 && g[j] < g[j - 1] - rounding)) {
        return null;
      }
    }
    double[] x = new double[POINTS + 1];
    for (int j = 0; j <= POINTS; j++) {
      x[j] = inputAt(lo, hi, j);
    }
    return new MeanIdentification(lo, hi, x, g);
  }

  /** Grid point j of [lo, hi]: {@code lo + (hi - lo) j / POINTS}, hi exactly at the end. */
  static double inputAt(double lo, double hi, int j) {
    return j == POINTS ? hi : lo + (hi - lo) * j / POINTS;
  }

  /** A function at the {@value #POINTS} + 1 grid points of [lo, hi]. */
  static double[] grid(double lo, double hi, java.util.function.DoubleUnaryOperator f) {
    double[] g = new double[POINTS + 1];
    for (int j = 0; j <= POINTS; j++) {
      g[j] = f.applyAsDouble(inputAt(lo, hi, j));
    }
    return g;
  }

  /**
   * Decreases of g below this fraction of the domain's width (of the statistic's scale, for {@link
   * BinStatistic}) are rounding (covered by the callers' slack).
   */
  static final double ROUNDING = 1e-12;

  /** The smallest expected output mean, g(lo). */
  double minMean() {
    return minMean;
  }

  /** The largest expected output mean, g(hi). */
  double maxMean() {
    return maxMean;
  }

  /**
   * The input means consistent with an expected output mean in [lower, upper]: {@code {inf, sup}}.
   * The range is first clipped to [g(lo), g(hi)], the means any inputs can have (if it misses that
   * range entirely, which only happens when it misses the truth too, the nearest end is used).
   */
  double[] inputMeans(double lower, double upper) {
    double l = Math.min(Math.max(lower, minMean), maxMean);
    double u = Math.min(Math.max(upper, minMean), maxMean);
    return new double[] {firstReaching(l), lastNotAbove(u)};
  }

  /**
   * {@code inf{x : upperHull(x) >= l}} for l in [g(lo), g(hi)]: the upper hull is concave and
   * non-decreasing, and its last vertex is (hi, g(hi)), so the search ends on an edge. Binary
   * search over the vertices (a curved expectation has thousands).
   */
  private double firstReaching(double l) {
    if (upperG[0] >= l) {
      return lo;
    }
    // The first vertex with g >= l: upperG[i - 1] < l <= upperG[i].
    int below = 0;
    int above = upperG.length - 1;
    while (above - below > 1) {
      int mid = (below + above) >>> 1;
      if (upperG[mid] >= l) {
        above = mid;
      } else {
        below = mid;
      }
    }
    int i = above;
    double t = (l - upperG[i - 1]) / (upperG[i] - upperG[i - 1]);
    return Math.min(upperX[i], upperX[i - 1] + t * (upperX[i] - upperX[i - 1]));
  }

  /**
   * {@code sup{x : lowerHull(x) <= u}} for u in [g(lo), g(hi)]: the lower hull is convex and
   * non-decreasing, and its first vertex is (lo, g(lo)), so the search ends on an edge. Binary
   * search over the vertices.
   */
  private double lastNotAbove(double u) {
    int last = lowerX.length - 1;
    if (lowerG[last] <= u) {
      return hi;
    }
    // The last vertex with g <= u: lowerG[i] <= u < lowerG[i + 1].
    int below = 0;
    int above = last;
    while (above - below > 1) {
      int mid = (below + above) >>> 1;
      if (lowerG[mid] > u) {
        above = mid;
      } else {
        below = mid;
      }
    }
    int i = below;
    double t = (u - lowerG[i]) / (lowerG[i + 1] - lowerG[i]);
    return Math.max(lowerX[i], lowerX[i] + t * (lowerX[i + 1] - lowerX[i]));
  }

  /**
   * The lower convex (or upper concave) hull of points with strictly increasing x (Andrew's
   * monotone chain; the grid's points are distinct).
   */
  private static double[][] hull(double[] x, double[] g, boolean lower) {
    double sign = lower ? 1 : -1;
    double[] hx = new double[x.length];
    double[] hg = new double[x.length];
    int size = 0;
    for (int i = 0; i < x.length; i++) {
      double px = x[i];
      double pg = sign * g[i];
      // Pop while the last two vertices and p do not turn left (counter-clockwise).
      while (size >= 2
          && cross(hx[size - 2], hg[size - 2], hx[size - 1], hg[size - 1], px, pg) <= 0) {
        size--;
      }
      hx[size] = px;
      hg[size] = pg;
      size++;
    }
    double[] outX = java.util.Arrays.copyOf(hx, size);
    double[] outG = java.util.Arrays.copyOf(hg, size);
    for (int i = 0; i < size; i++) {
      outG[i] *= sign;
    }
    return new double[][] {outX, outG};
  }

  private static double cross(double ax, double ag, double bx, double bg, double cx, double cg) {
    return (bx - ax) * (cg - ag) - (bg - ag) * (cx - ax);
  }
}
