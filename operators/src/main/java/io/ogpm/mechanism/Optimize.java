package io.ogpm.mechanism;

import java.util.function.DoubleUnaryOperator;

/** One-dimensional numerical optimisation on a closed interval. */
final class Optimize {
  private static final double INV_PHI = (Math.sqrt(5) - 1) / 2;

  private Optimize() {}

  /**
   * The argument of the maximum of f on [lo, hi]: a scan of {@code scan + 1} equally spaced points
   * (both ends included), then golden-section refinement between the neighbours of the best point,
   * until the bracket is below 1e-13 of the interval. Exact when the maximum is at an end; for a
   * smooth interior maximum the argument is found to ~1e-13 and the value to ~1e-16 relative.
   */
  static double maximize(DoubleUnaryOperator f, double lo, double hi, int scan) {
    return minimize(v -> -f.applyAsDouble(v), lo, hi, scan);
  }

  /** The argument of the minimum of f on [lo, hi]; see {@link #maximize}. */
  static double minimize(DoubleUnaryOperator f, double lo, double hi, int scan) {
    int best = 0;
    double bestValue = Double.POSITIVE_INFINITY;
    double step = (hi - lo) / scan;
    for (int i = 0; i <= scan; i++) {
      double v = f.applyAsDouble(i == scan ? hi : lo + i * step);
      if (v < bestValue) {
        bestValue = v;
        best = i;
      }
    }
    double a = best == 0 ? lo : lo + (best - 1) * step;
    double b = best == scan ? hi : lo + (best + 1) * step;
    double bestArg = best == scan ? hi : lo + best * step;
    double c = b - INV_PHI * (b - a);
    double d = a + INV_PHI * (b - a);
    double fc = f.applyAsDouble(c);
    double fd = f.applyAsDouble(d);
    double tol = 1e-13 * (hi - lo);
    for (int iter = 0; iter < 300 && b - a > tol; iter++) {
      if (fc < fd) {
        b = d;
        d = c;
        fd = fc;
        c = b - INV_PHI * (b - a);
        fc = f.applyAsDouble(c);
      } else {
        a = c;
        c = d;
        fc = fd;
        d = a + INV_PHI * (b - a);
        fd = f.applyAsDouble(d);
      }
    }
    double refined = 0.5 * (a + b);
    return f.applyAsDouble(refined) < bestValue ? refined : bestArg;
  }
}
