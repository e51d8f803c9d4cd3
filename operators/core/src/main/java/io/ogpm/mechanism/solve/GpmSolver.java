package io.ogpm.mechanism.solve;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.LossIntegrals;
import io.ogpm.mechanism.PiecewiseDistribution;
import java.util.ArrayList;
import java.util.List;
import org.hipparchus.exception.MathIllegalStateException;
import org.hipparchus.optim.InitialGuess;
import org.hipparchus.optim.MaxEval;
import org.hipparchus.optim.PointValuePair;
import org.hipparchus.optim.SimpleBounds;
import org.hipparchus.optim.nonlinear.scalar.GoalType;
import org.hipparchus.optim.nonlinear.scalar.ObjectiveFunction;
import org.hipparchus.optim.nonlinear.scalar.noderiv.BOBYQAOptimizer;
import org.hipparchus.random.SobolSequenceGenerator;

/**
 * Numerical solver for the optimal m-piece GPM (paper sections "Framework for Deriving the Optimal
 * GPM" and "Detailed Solutions"), by multi-start BOBYQA (Hipparchus) on a parametrisation in which
 * every point of the search box is a valid eps-LDP m-GPM, so that the search needs no penalty and
 * cannot leave the feasible set:
 *
 * <ul>
 *   <li>densities {@code p_i = c e^(eps u_i)} with {@code u_i in [0, 1]}: any two differ by a
 *       factor of at most {@code e^eps} (Definition "m-GPM");
 *   <li>piece lengths {@code w_i = v_i / sum v} with {@code v_i in [0, 1]} (a piece may vanish),
 *       laid left to right so that the pieces tile the unit output domain (continuity);
 *   <li>c fixed by normalisation, {@code c = 1 / sum e^(eps u_i) w_i}.
 * </ul>
 *
 * The objective is the exact error at one unit input z, {@code sum_i p_i integral over piece i of
 * |y - z|^k dy} ({@link LossIntegrals}, closed form): 2m variables, as in the paper's "Encoding
 * details". The domain is the unit interval; [lo, hi) follows by the affine map of Theorem
 * "Transformation invariants" (errors scale by {@code (hi - lo)^k}).
 *
 * <p><b>Worst case from one endpoint.</b> By Lemma 1 the worst case of Formulation "min-max" is
 * {@code max(E(0), E(1))}, which is at least {@code E(0)}, so {@code min over m-GPMs of E(0)} is a
 * lower bound on the worst-case optimum. For m >= 3 it is attained: the optimum at 0 is (as the
 * solver finds) a high piece at the left end followed by low density; an m-GPM whose pieces read
 * low, high, low (the first of zero length at 0) realises that at 0 and its mirror image at 1, with
 * the same densities, so its worst case equals the bound. Solving the single endpoint problem
 * therefore solves the min-max problem exactly, and {@link SolvedGpm} checks the attained worst
 * case on the mechanism it builds.
 *
 * <p><b>Multi-start.</b> The problem is not convex (paper: "Solving difficulty"). BOBYQA is run
 * from {@code starts} points of a Sobol sequence in the 2m-dimensional box (deterministic: the same
 * problem gives the same answer on every machine; the starts are not privacy randomness) and the
 * best local optimum is kept. Each run stops at a trust region radius of {@value #STOPPING_RADIUS},
 * which bounds the error of the optimum's value by a few {@code 1e-14} (the objective is smooth
 * near the optimum, so its value errs by the square of the step) while piece boundaries and
 * densities are only resolved to about {@code 1e-6}: the optimum is flat in them.
 */
@Internal
public final class GpmSolver {
  /** Default number of BOBYQA starts. */
  public static final int DEFAULT_STARTS = 24;

  static final double INITIAL_RADIUS = 0.2;
  static final double STOPPING_RADIUS = 1e-9;
  static final int MAX_EVALUATIONS = 200_000;

  private final int starts;

  private GpmSolver(int starts) {
    this.starts = starts;
  }

  /** A solver with {@link #DEFAULT_STARTS} starts. */
  public static GpmSolver create() {
    return new GpmSolver(DEFAULT_STARTS);
  }

  /** A solver with the given number of BOBYQA starts, at least 1. */
  public static GpmSolver withStarts(int starts) {
    if (starts < 1) {
      throw new IllegalArgumentException("starts must be >= 1, got " + starts);
    }
    return new GpmSolver(starts);
  }

  /** Solves a problem; the result is held to the exact LDP check (see {@link SolvedGpm}). */
  public SolvedGpm solve(GpmProblem problem) {
    Objective objective =
        new Objective(
            problem.epsilon(), problem.pieces(), problem.unitInput(), problem.metric().exponent());
    PointValuePair best = search(objective);
    List<PiecewiseDistribution.Piece> raw = objective.pieces(best.getPoint());
    return SolvedGpm.of(problem, raw, best.getValue());
  }

  private PointValuePair search(Objective objective) {
    int n = 2 * objective.m;
    double[] lower = new double[n];
    double[] upper = new double[n];
    java.util.Arrays.fill(upper, 1);
    SobolSequenceGenerator sobol = new SobolSequenceGenerator(n);
    sobol.nextVector(); // the first Sobol point is the origin: every piece of length zero
    PointValuePair best = null;
    for (int s = 0; s < starts; s++) {
      double[] start = sobol.nextVector();
      BOBYQAOptimizer bobyqa = new BOBYQAOptimizer(2 * n + 1, INITIAL_RADIUS, STOPPING_RADIUS);
      BestSeen seen = new BestSeen(objective);
      PointValuePair found;
      try {
        found =
            bobyqa.optimize(
                new MaxEval(MAX_EVALUATIONS),
                new ObjectiveFunction(seen::error),
                GoalType.MINIMIZE,
                new InitialGuess(start),
                new SimpleBounds(lower, upper));
      } catch (MathIllegalStateException stalled) {
        // BOBYQA gives up when a trust region step fails to reduce its model ("trust region step
        // has failed to reduce Q"), typically once it is at the optimum to rounding: the best
        // point it evaluated is still a valid m-GPM and a candidate like any other.
        found = seen.best();
      }
      if (best == null || found.getValue() < best.getValue()) {
        best = found;
      }
    }
    return best;
  }

  /** Remembers the best point a run evaluated. */
  private static final class BestSeen {
    private final Objective objective;
    private double[] point;
    private double value = Double.POSITIVE_INFINITY;

    BestSeen(Objective objective) {
      this.objective = objective;
    }

    double error(double[] x) {
      double e = objective.error(x);
      if (e < value) {
        value = e;
        point = x.clone();
      }
      return e;
    }

    PointValuePair best() {
      return new PointValuePair(point, value);
    }
  }

  /** The exact error at z of the m-GPM a point of the search box describes. */
  static final class Objective {
    final double epsilon;
    final int m;
    final double z;
    final int k;

    Objective(double epsilon, int m, double z, int k) {
      this.epsilon = epsilon;
      this.m = m;
      this.z = z;
      this.k = k;
    }

    double error(double[] x) {
      List<PiecewiseDistribution.Piece> pieces = pieces(x);
      if (pieces.isEmpty()) {
        return 2; // every piece of length zero: no distribution; worse than any (errors are <= 1)
      }
      double total = 0;
      for (PiecewiseDistribution.Piece p : pieces) {
        total += p.density() * LossIntegrals.linear(p.from(), p.to(), z, k);
      }
      return total;
    }

    /** The pieces (zero-length ones left out), densities normalised; empty if no length at all. */
    List<PiecewiseDistribution.Piece> pieces(double[] x) {
      double lengthSum = 0;
      for (int i = 0; i < m; i++) {
        lengthSum += x[m + i];
      }
      List<PiecewiseDistribution.Piece> out = new ArrayList<>(m);
      if (!(lengthSum > 0)) {
        return out;
      }
      // e^(eps (u - 1)) in (e^-eps, 1]: no overflow up to eps = 700.
      double[] relative = new double[m];
      double mass = 0;
      for (int i = 0; i < m; i++) {
        relative[i] = Math.exp(epsilon * (x[i] - 1));
        mass += relative[i] * x[m + i] / lengthSum;
      }
      double from = 0;
      double cumulative = 0;
      for (int i = 0; i < m; i++) {
        cumulative += x[m + i];
        double to = i == m - 1 ? 1 : Math.min(1, cumulative / lengthSum);
        if (to > from) {
          out.add(new PiecewiseDistribution.Piece(from, to, relative[i] / mass));
        }
        from = Math.max(from, to);
      }
      return out;
    }
  }
}
