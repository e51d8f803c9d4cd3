package io.ogpm.mechanism.audit;

import io.ogpm.annotation.Internal;
import org.hipparchus.analysis.solvers.AllowedSolution;
import org.hipparchus.analysis.solvers.BracketingNthOrderBrentSolver;
import org.hipparchus.special.Beta;

/**
 * Exact (Clopper-Pearson) one-sided confidence bounds for a binomial proportion, from quantiles of
 * the beta distribution: Hipparchus's regularised incomplete beta function ({@link
 * Beta#regularizedBeta(double, double, double)}, a continued fraction) inverted by a bracketing
 * Brent solver to a relative 1e-15, on the conservative side (a lower bound is never above the
 * exact quantile, an upper bound never below it, up to the accuracy of the beta function). Public
 * for the coverage tests of the estimators' intervals.
 */
@Internal
public final class ClopperPearson {
  private static final double RELATIVE_ACCURACY = 1e-15;
  private static final int MAX_EVALUATIONS = 10_000;

  private ClopperPearson() {}

  /** A value below p with probability at least 1 - alpha: {@code Beta(alpha; k, n - k + 1)}. */
  public static double lower(long k, long n, double alpha) {
    if (k == 0) {
      return 0;
    }
    return betaQuantile(alpha, k, n - k + 1.0, AllowedSolution.BELOW_SIDE);
  }

  /** A value above p with probability at least 1 - alpha: {@code Beta(1 - alpha; k + 1, n - k)}. */
  public static double upper(long k, long n, double alpha) {
    if (k == n) {
      return 1;
    }
    return betaQuantile(1 - alpha, k + 1.0, n - k, AllowedSolution.ABOVE_SIDE);
  }

  /** The q-quantile of Beta(a, b), from the given side. */
  static double betaQuantile(double q, double a, double b, AllowedSolution side) {
    // A solver per call: Hipparchus solvers count evaluations in mutable state.
    BracketingNthOrderBrentSolver solver =
        new BracketingNthOrderBrentSolver(RELATIVE_ACCURACY, Double.MIN_NORMAL, 0, 5);
    return solver.solve(MAX_EVALUATIONS, x -> Beta.regularizedBeta(x, a, b) - q, 0, 1, side);
  }
}
