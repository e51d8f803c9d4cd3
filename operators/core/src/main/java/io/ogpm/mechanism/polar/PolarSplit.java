package io.ogpm.mechanism.polar;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.CircularOgpm;
import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.OgpmShape;
import java.util.ArrayList;
import java.util.List;
import org.hipparchus.optim.MaxEval;
import org.hipparchus.optim.nonlinear.scalar.GoalType;
import org.hipparchus.optim.univariate.BrentOptimizer;
import org.hipparchus.optim.univariate.SearchInterval;
import org.hipparchus.optim.univariate.UnivariateObjectiveFunction;
import org.hipparchus.optim.univariate.UnivariatePointValuePair;

/**
 * The split of one budget eps between the radius and the angle of a polar coordinate (paper "An
 * Extension: 2D Polar Coordinates" and its appendix "Optimal Assignment of Privacy Parameter"): the
 * radius on the classical domain [0, R) with the classical OGPM at eps1, the angle on the circle
 * [0, 2 pi) with the circular OGPM at eps2 = eps - eps1 (sequential composition: the pair is
 * eps-LDP), and eps1 chosen to minimise the total worst-case error
 *
 * <pre>Err(eps1) = Err_radius,worst(eps1) + Err_angle,worst(eps - eps1)</pre>
 *
 * under the loss {@code |y1 - x1|^k + d(y2, x2)^k} (d the circular distance). Each term is exact:
 * the radius's worst case is at an endpoint (Lemma 1, {@link OgpmShape#worstCaseError}) scaled by
 * R^k, the angle's is the same at every input (rotation invariance) scaled by (2 pi)^k; a share of
 * zero is the uniform output (error R/2 or R^2/3; pi/2 or pi^2/3). The minimum is found by a scan
 * of {@value #SCAN} splits and Brent's method (Hipparchus) between the neighbours of the best, to a
 * relative 1e-10 of eps; the total is flat near it (docs/mechanisms.md, "The polar split"), so the
 * split matters less than the curve, which {@link #curve} gives.
 */
@Internal
public final class PolarSplit {
  static final int SCAN = 400;

  private final double epsilon;
  private final double radiusMax;
  private final ErrorMetric metric;
  private final Objective objective;

  private PolarSplit(double epsilon, double radiusMax, ErrorMetric metric, Objective objective) {
    this.epsilon = epsilon;
    this.radiusMax = radiusMax;
    this.metric = metric;
    this.objective = objective;
  }

  /**
   * The split problem for a total eps, a radius domain [0, radiusMax), the loss metric and the
   * objective the two mechanisms are optimal for.
   */
  public static PolarSplit of(
      double epsilon, double radiusMax, ErrorMetric metric, Objective objective) {
    Checks.epsilon("epsilon", epsilon);
    Checks.positive("radius-max", radiusMax);
    return new PolarSplit(
        epsilon,
        radiusMax,
        Checks.notNull("metric", metric),
        Checks.notNull("objective", objective));
  }

  /** One split and its errors. */
  public record Point(double epsRadius, double epsAngle, double errorRadius, double errorAngle) {
    /** The total worst-case error. */
    public double error() {
      return errorRadius + errorAngle;
    }
  }

  /** The errors at a given eps1 in [0, eps]. */
  public Point at(double epsRadius) {
    if (!(epsRadius >= 0 && epsRadius <= epsilon)) {
      throw new IllegalArgumentException(
          "epsRadius must be in [0, " + epsilon + "], got " + epsRadius);
    }
    double epsAngle = epsilon - epsRadius;
    return new Point(epsRadius, epsAngle, radiusError(epsRadius), angleError(epsAngle));
  }

  /** The split with the least total worst-case error. */
  public Point optimum() {
    double step = epsilon / SCAN;
    int best = 0;
    double bestError = Double.POSITIVE_INFINITY;
    for (int i = 0; i <= SCAN; i++) {
      double e = total(i == SCAN ? epsilon : i * step);
      if (e < bestError) {
        bestError = e;
        best = i;
      }
    }
    double lo = Math.max(0, (best - 1) * step);
    double hi = Math.min(epsilon, (best + 1) * step);
    BrentOptimizer brent = new BrentOptimizer(1e-10, 1e-10 * epsilon);
    UnivariatePointValuePair found =
        brent.optimize(
            new MaxEval(10_000),
            new UnivariateObjectiveFunction(this::total),
            GoalType.MINIMIZE,
            new SearchInterval(lo, hi, Math.min(Math.max(best * step, lo), hi)));
    double split =
        found.getValue() <= bestError ? found.getPoint() : Math.min(best * step, epsilon);
    return at(split);
  }

  /** The total error at n + 1 evenly spaced splits, from eps1 = 0 to eps1 = eps. */
  public List<Point> curve(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("curve points must be >= 1, got " + n);
    }
    List<Point> out = new ArrayList<>(n + 1);
    for (int i = 0; i <= n; i++) {
      out.add(at(i == n ? epsilon : epsilon * i / n));
    }
    return out;
  }

  private double total(double epsRadius) {
    return radiusError(epsRadius) + angleError(epsilon - epsRadius);
  }

  private double radiusError(double eps) {
    int k = metric.exponent();
    double unit =
        eps > 0
            ? OgpmShape.optimal(eps, objective).worstCaseError(metric)
            : 1.0 / (k + 1); // uniform output: E|y - 0|^k on [0, 1)
    return unit * Math.pow(radiusMax, k);
  }

  private double angleError(double eps) {
    int k = metric.exponent();
    double unit =
        eps > 0
            ? CircularOgpm.optimal(eps, objective).worstCaseError(metric, Distance.CIRCULAR)
            : Math.pow(0.5, k) / (k + 1); // uniform: the circular distance is uniform on [0, 1/2]
    return unit * Math.pow(2 * Math.PI, k);
  }

  public double epsilon() {
    return epsilon;
  }

  public double radiusMax() {
    return radiusMax;
  }

  public ErrorMetric metric() {
    return metric;
  }

  public Objective objective() {
    return objective;
  }
}
