package io.ogpm.mechanism;

import java.util.function.DoubleUnaryOperator;

/**
 * Adaptive Gauss-Kronrod (7-15 point) quadrature, for the expected errors of mechanisms whose
 * densities are smooth but have no convenient closed form on a circle. The integral is split until
 * each part's Kronrod-minus-Gauss difference (a conservative estimate of its error for smooth
 * integrands) is below its share of the tolerance; {@link Result#errorBound()} is the sum of those
 * estimates. Callers split at every kink of the integrand, so the integrand is analytic on each
 * call.
 */
public final class Quadrature {
  private static final double[] XK = {
    0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
    0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
    0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
    0.207784955007898467600689403773245, 0.000000000000000000000000000000000
  };
  private static final double[] WK = {
    0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
    0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
    0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
    0.204432940075298892414161999234649, 0.209482141084727828012999174891714
  };
  private static final double[] WG = {
    0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
    0.381830050505118944950369775488975, 0.417959183673469387755102040816327
  };

  private Quadrature() {}

  /** An integral and a bound on its numerical error. */
  public record Result(double value, double errorBound) {}

  /** The integral of f over [a, b] to an absolute tolerance. */
  public static Result integrate(DoubleUnaryOperator f, double a, double b, double tolerance) {
    if (!(b > a)) {
      return new Result(0, 0);
    }
    return adaptive(f, a, b, tolerance, 0);
  }

  private static Result adaptive(DoubleUnaryOperator f, double a, double b, double tolerance, int depth) {
    double[] gk = gaussKronrod(f, a, b);
    double error = Math.abs(gk[0] - gk[1]);
    if (error <= tolerance || depth >= 40 || b - a <= Math.ulp(Math.max(Math.abs(a), Math.abs(b))) * 64) {
      return new Result(gk[0], error);
    }
    double mid = 0.5 * (a + b);
    Result left = adaptive(f, a, mid, tolerance / 2, depth + 1);
    Result right = adaptive(f, mid, b, tolerance / 2, depth + 1);
    return new Result(left.value() + right.value(), left.errorBound() + right.errorBound());
  }

  /** {Kronrod 15-point estimate, Gauss 7-point estimate}. */
  private static double[] gaussKronrod(DoubleUnaryOperator f, double a, double b) {
    double centre = 0.5 * (a + b);
    double half = 0.5 * (b - a);
    double fc = f.applyAsDouble(centre);
    double kronrod = fc * WK[7];
    double gauss = fc * WG[3];
    for (int j = 0; j < 7; j++) {
      double dx = half * XK[j];
      double sum = f.applyAsDouble(centre - dx) + f.applyAsDouble(centre + dx);
      kronrod += WK[j] * sum;
      if (j % 2 == 1) {
        gauss += WG[j / 2] * sum;
      }
    }
    return new double[] {kronrod * half, gauss * half};
  }
}
