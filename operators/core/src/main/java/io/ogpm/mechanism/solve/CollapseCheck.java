package io.ogpm.mechanism.solve;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.ClassicalOgpm;
import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.OgpmShape;
import io.ogpm.mechanism.PiecewiseDistribution.Piece;
import java.util.ArrayList;
import java.util.List;
import org.hipparchus.random.SobolSequenceGenerator;

/**
 * The paper's Monte Carlo validation of the optimal piece number (Solution 2, Lemma 2): for pairs
 * (eps, x) the optimal m-GPM at x, merged, is the optimal three-piece mechanism. The reference is
 * computed independently of the solver: the three-piece optimum at x is a one-dimensional problem
 * in the high density ({@link OgpmShape#optimalAt}, a scan and Brent's method), whose central piece
 * is centred on x and clamped. The pairs are the points of a two-dimensional Sobol sequence (eps in
 * [{@value #EPS_LO}, {@value #EPS_HI}), the paper's "generally meaningful" range, and x in [0, 1)):
 * deterministic, and spread more evenly than independent draws.
 */
@Internal
public final class CollapseCheck {
  static final double EPS_LO = 0.1;
  static final double EPS_HI = 10;

  /**
   * Relative difference allowed between the solved and the reference error: both are exact errors
   * of valid three-piece mechanisms whose high densities differ by the searches' resolution (about
   * 1e-8 relative), and the error is flat at the optimum, so they agree to about 1e-15; 1e-10
   * leaves room for rounding and still sees any different mechanism.
   */
  public static final double ERROR_TOLERANCE = 1e-10;

  private final GpmSolver solver;

  private CollapseCheck(GpmSolver solver) {
    this.solver = solver;
  }

  public static CollapseCheck with(GpmSolver solver) {
    return new CollapseCheck(Checks.notNull("solver", solver));
  }

  /** One comparison: the merged m-piece optimum at x against the three-piece optimum. */
  public record Outcome(
      double epsilon,
      double x,
      int pieces,
      ErrorMetric metric,
      boolean threePiece,
      double error,
      double referenceError,
      double boundaryGap,
      String failure) {
    /** Whether the m-piece optimum is the three-piece optimum: same pieces and same error. */
    public boolean collapsed() {
      return threePiece
          && boundaryGap <= SolvedGpm.BOUNDARY_TOLERANCE
          && Math.abs(error - referenceError) <= ERROR_TOLERANCE * referenceError;
    }
  }

  /** The first n pairs (eps, x) of the check's Sobol sequence. */
  public static List<double[]> pairs(int n) {
    SobolSequenceGenerator sobol = new SobolSequenceGenerator(2);
    sobol.nextVector(); // the origin
    List<double[]> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      double[] v = sobol.nextVector();
      out.add(new double[] {EPS_LO + (EPS_HI - EPS_LO) * v[0], v[1]});
    }
    return out;
  }

  /** Compares the m-piece optimum at x on [0, 1) with the three-piece optimum. */
  public Outcome check(double epsilon, double x, int pieces, ErrorMetric metric) {
    OgpmShape reference = OgpmShape.optimalAt(epsilon, x, metric);
    ClassicalOgpm referenceMechanism = ClassicalOgpm.withShape(reference);
    double referenceError = referenceMechanism.expectedError(x, metric, Distance.LINEAR);
    List<Piece> expected =
        SolvedGpm.mergeEqualDensities(
            referenceMechanism.distribution(x).pieces(),
            SolvedGpm.LOG_DENSITY_TOLERANCE * Math.max(1, epsilon));
    SolvedGpm solved;
    try {
      solved = solver.solve(GpmProblem.at(0, 1, epsilon, pieces, metric, x));
    } catch (IllegalStateException notThreePiece) {
      return new Outcome(
          epsilon,
          x,
          pieces,
          metric,
          false,
          Double.NaN,
          referenceError,
          Double.NaN,
          notThreePiece.getMessage());
    }
    List<Piece> found = solved.searchPieces();
    double gap = Double.POSITIVE_INFINITY;
    if (found.size() == expected.size()) {
      gap = 0;
      for (int i = 0; i < found.size(); i++) {
        gap = Math.max(gap, Math.abs(found.get(i).from() - expected.get(i).from()));
        gap = Math.max(gap, Math.abs(found.get(i).to() - expected.get(i).to()));
      }
    }
    return new Outcome(epsilon, x, pieces, metric, true, solved.error(), referenceError, gap, null);
  }
}
