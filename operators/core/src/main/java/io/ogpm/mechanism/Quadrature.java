package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;
import java.util.function.DoubleUnaryOperator;
import org.hipparchus.analysis.integration.IterativeLegendreGaussIntegrator;

/**
 * Numerical quadrature for the expected errors of mechanisms whose densities are smooth but have no
 * convenient closed form (the Laplace-type baselines): Hipparchus's iterative Gauss-Legendre
 * integrator ({@value #POINTS} points per sub-interval, the sub-intervals multiplied until two
 * successive estimates differ by at most the tolerance). Callers split at every kink of the
 * integrand, so it is analytic on each call, where a Gauss-Legendre rule converges geometrically
 * and the error of the final estimate is far below the difference between the last two: the
 * tolerance bounds it. An interval of a few ulps (a cut next to a kink) is one midpoint: its
 * integral is below the tolerance anyway.
 */
@Internal
public final class Quadrature {
  static final int POINTS = 8;
  private static final double RELATIVE_ACCURACY = 1e-15;
  private static final int MAX_EVALUATIONS = 10_000_000;

  private Quadrature() {}

  /** An integral and a bound on its numerical error. */
  public record Result(double value, double errorBound) {}

  /** The integral of f over [a, b] to an absolute tolerance. */
  public static Result integrate(DoubleUnaryOperator f, double a, double b, double tolerance) {
    if (!(b > a)) {
      return new Result(0, 0);
    }
    if (b - a <= 1024 * Math.ulp(Math.max(Math.abs(a), Math.abs(b)))) {
      return new Result(f.applyAsDouble(0.5 * (a + b)) * (b - a), tolerance);
    }
    // A new integrator per call: Hipparchus integrators count evaluations in mutable state.
    IterativeLegendreGaussIntegrator integrator =
        new IterativeLegendreGaussIntegrator(POINTS, RELATIVE_ACCURACY, tolerance);
    double value = integrator.integrate(MAX_EVALUATIONS, f::applyAsDouble, a, b);
    return new Result(value, tolerance);
  }
}
