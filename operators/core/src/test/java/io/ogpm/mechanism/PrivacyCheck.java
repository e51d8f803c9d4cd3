package io.ogpm.mechanism;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The exact LDP check for piecewise mechanisms. For a set of inputs it collects every piece
 * boundary and atom position of every output distribution; between two consecutive boundaries each
 * density is constant, so evaluating the densities at the midpoints of all the gaps (and the atom
 * masses at the atoms) covers every output. The result is the largest ratio, over outputs, of the
 * largest to the smallest density (or atom mass) across the inputs: the mechanism is eps-LDP on
 * those inputs exactly when it is at most e^eps.
 *
 * <p>A positive density at an output for one input and zero for another gives an infinite ratio; so
 * does an atom present for one input and absent for another.
 */
public final class PrivacyCheck {
  private PrivacyCheck() {}

  /** Result of a check: the worst ratio and where it occurs. */
  public record Result(double worstRatio, double output, double inputHigh, double inputLow) {
    /** {@code ln(worstRatio)}: the epsilon the checked inputs really spend. */
    public double epsilonSpent() {
      return Math.log(worstRatio);
    }
  }

  /** The worst density ratio of a unit mechanism over the given inputs in [0, 1]. */
  public static Result worstRatio(PiecewiseUnitMechanism mechanism, double[] inputs) {
    return worstRatio(mechanism, inputs, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
  }

  /**
   * The worst ratio over outputs in [windowLo, windowHi] only: for mechanisms with unbounded
   * outputs, whose represented pieces end at different places for different inputs.
   */
  public static Result worstRatio(
      PiecewiseUnitMechanism mechanism, double[] inputs, double windowLo, double windowHi) {
    List<PiecewiseDistribution> dists = new ArrayList<>(inputs.length);
    TreeSet<Double> boundaries = new TreeSet<>();
    TreeSet<Double> atoms = new TreeSet<>();
    boundaries.add(Math.max(mechanism.outputLo(), windowLo));
    boundaries.add(Math.min(mechanism.outputHi(), windowHi));
    for (double z : inputs) {
      PiecewiseDistribution d = mechanism.distribution(z);
      dists.add(d);
      for (PiecewiseDistribution.Piece p : d.pieces()) {
        if (p.from() >= windowLo && p.from() <= windowHi) {
          boundaries.add(p.from());
        }
        if (p.to() >= windowLo && p.to() <= windowHi) {
          boundaries.add(p.to());
        }
      }
      for (PiecewiseDistribution.Atom a : d.atoms()) {
        atoms.add(a.at());
      }
    }
    Result worst = new Result(1, Double.NaN, Double.NaN, Double.NaN);
    Double previous = null;
    for (double b : boundaries) {
      if (previous != null && b > previous) {
        double y = previous + 0.5 * (b - previous);
        worst = worse(worst, y, dists, inputs, false);
      }
      previous = b;
    }
    for (double a : atoms) {
      worst = worse(worst, a, dists, inputs, true);
    }
    return worst;
  }

  /** Inputs for a check: both ends and {@code n} evenly spaced inputs between them. */
  public static double[] evenInputs(int n) {
    double[] z = new double[n + 2];
    for (int i = 0; i < n; i++) {
      z[i] = (i + 0.5) / n;
    }
    z[n] = 0;
    z[n + 1] = 1;
    return z;
  }

  private static Result worse(
      Result worst, double y, List<PiecewiseDistribution> dists, double[] inputs, boolean atom) {
    double max = Double.NEGATIVE_INFINITY;
    double min = Double.POSITIVE_INFINITY;
    int argMax = 0;
    int argMin = 0;
    for (int i = 0; i < dists.size(); i++) {
      double v = atom ? dists.get(i).atomMassAt(y) : dists.get(i).pdf(y);
      if (v > max) {
        max = v;
        argMax = i;
      }
      if (v < min) {
        min = v;
        argMin = i;
      }
    }
    if (max == 0) {
      return worst;
    }
    double ratio = min == 0 ? Double.POSITIVE_INFINITY : max / min;
    return ratio > worst.worstRatio()
        ? new Result(ratio, y, inputs[argMax], inputs[argMin])
        : worst;
  }
}
