package io.ogpm.mechanism;

import java.util.function.DoubleUnaryOperator;
import org.hipparchus.optim.MaxEval;
import org.hipparchus.optim.nonlinear.scalar.GoalType;
import org.hipparchus.optim.univariate.BrentOptimizer;
import org.hipparchus.optim.univariate.SearchInterval;
import org.hipparchus.optim.univariate.UnivariateObjectiveFunction;
import org.hipparchus.optim.univariate.UnivariatePointValuePair;

/** One-dimensional numerical optimisation on a closed interval. */
final class Optimize {
  /** Brent's relative tolerance on the argument (Hipparchus requires at least 2 ulp(1)). */
  private static final double RELATIVE_TOLERANCE = 1e-13;

  private Optimize() {}

  /**
   * The argument of the maximum of f on [lo, hi]: a scan of {@code scan + 1} equally spaced points
   * (both ends included), then Brent's method (Hipparchus {@link BrentOptimizer}: golden section
   * with parabolic steps) between the neighbours of the best point, to 1e-13 of the interval. Exact
   * when the maximum is at an end; for a smooth interior maximum the argument is found to ~1e-13
   * and the value to ~1e-16 relative. The scan guards against a local optimum that is not the
   * global one.
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
    // A new optimizer per call: Hipparchus optimizers count evaluations in mutable state.
    BrentOptimizer brent = new BrentOptimizer(RELATIVE_TOLERANCE, 1e-13 * (hi - lo));
    UnivariatePointValuePair found =
        brent.optimize(
            new MaxEval(10_000),
            new UnivariateObjectiveFunction(f::applyAsDouble),
            GoalType.MINIMIZE,
            new SearchInterval(a, b, bestArg));
    return found.getValue() < bestValue ? found.getPoint() : bestArg;
  }
}
