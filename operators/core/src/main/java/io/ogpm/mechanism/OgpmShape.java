package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;

/**
 * The shape of an optimal three-piece mechanism on a domain of unit width: a central piece of
 * length {@code s} at high density {@code p}, the rest of the domain at low density {@code q = p /
 * e^eps}. Normalisation ties the three: {@code p s + q (1 - s) = 1}, so {@code s = (1 - q) / (p -
 * q)}.
 *
 * <p>The worst-case error on the classical domain [0, 1) is at an endpoint (Lemma 1), where the
 * central piece is [0, s) and (docs/mechanisms.md, "The square-error optimum")
 *
 * <pre>E_k(p) = (p - q) s^(k+1) / (k+1) + q / (k+1),   k = 1 absolute, k = 2 square error.</pre>
 *
 * <ul>
 *   <li>k = 1: the minimiser is {@code p = e^(eps/2)}, the closed form of Theorems 3 and 4.
 *   <li>k = 2: the minimiser solves the cubic {@code (t - p)^2 (2t + p) = p^3 (t - 1)^2} with
 *       {@code t = e^eps}; the paper's closed form is not the square-error optimum.
 * </ul>
 *
 * <p>The shape is computed with the ratio {@code q/p = e^-eps} exact and {@code 1 - q} kept to full
 * relative precision (through {@code expm1}), so that it stays accurate from eps = 1e-3, where the
 * mechanism is nearly uniform, to eps in the hundreds, where the low density underflows gently.
 */
@Internal
public final class OgpmShape {
  /** Largest epsilon accepted: above it e^eps overflows a double. */
  public static final double MAX_EPSILON = 700;

  private final double epsilon;
  private final double high;
  private final double low;
  private final double central;

  private OgpmShape(double epsilon, double high, double low, double central) {
    this.epsilon = epsilon;
    this.high = high;
    this.low = low;
    this.central = central;
  }

  /** The shape that minimises the worst-case error of the given objective (Theorem 3, note 1). */
  public static OgpmShape optimal(double epsilon, Objective objective) {
    Checks.notNull("objective", objective);
    return objective == Objective.L1 ? absoluteErrorOptimal(epsilon) : squareErrorOptimal(epsilon);
  }

  /** Theorem 3: {@code p = e^(eps/2)}, {@code s = 2C = 1 / (1 + e^(eps/2))}. */
  public static OgpmShape absoluteErrorOptimal(double epsilon) {
    Checks.epsilon("epsilon", epsilon);
    double p = Math.exp(epsilon / 2);
    double q = Math.exp(-epsilon / 2);
    double s = 1 / (1 + p);
    return new OgpmShape(epsilon, p, q, s);
  }

  /**
   * The square-error optimum (docs/mechanisms.md, "The square-error optimum"). With {@code q = p /
   * t} the cubic reads {@code (1 - q)^2 (2 + q) = q^3 (t - 1)^2}; its left side decreases and its
   * right side increases in q, so it has one root in (0, 1), found by bisection on log-space
   * residuals (no overflow for any eps up to {@link #MAX_EPSILON}). Near q = 1 (small eps) the
   * bisection runs on {@code w = 1 - q} instead, so that w keeps full relative precision.
   */
  public static OgpmShape squareErrorOptimal(double epsilon) {
    Checks.epsilon("epsilon", epsilon);
    // log(t - 1), accurate for small and large eps.
    double logTm1 =
        epsilon > 30 ? epsilon + Math.log1p(-Math.exp(-epsilon)) : Math.log(Math.expm1(epsilon));
    double q;
    double w;
    if (cubicResidualInQ(0.5, logTm1) > 0) {
      // Root in (0.5, 1): solve for w = 1 - q in (0, 0.5); residual increasing in w.
      w = bisect(0, 0.5, v -> -cubicResidualInW(v, logTm1));
      q = 1 - w;
    } else {
      q = bisect(0, 0.5, v -> cubicResidualInQ(v, logTm1));
      w = 1 - q;
    }
    return fromLowDensity(epsilon, q, w);
  }

  /**
   * The three-piece shape that minimises the error at one input {@code x0} in [0, 1] rather than
   * the worst case (paper section "Minimize Error at a Specific x"). The central piece is centred
   * on x0 and clamped inside the domain; the high density is found by Brent's method ({@code
   * Optimize}, Hipparchus) on {@code log p} over (0, eps) after a coarse scan (the error is smooth
   * in p; the scan guards against a non-unimodal corner).
   */
  public static OgpmShape optimalAt(double epsilon, double x0, ErrorMetric metric) {
    Checks.epsilon("epsilon", epsilon);
    if (!(x0 >= 0 && x0 <= 1)) {
      throw new IllegalArgumentException("x0 must be in [0, 1], got " + x0);
    }
    Checks.notNull("metric", metric);
    java.util.function.DoubleUnaryOperator errorAtLogP =
        logP -> shapeForLogHigh(epsilon, logP).errorAt(x0, metric);
    double best = Optimize.minimize(errorAtLogP, 0, epsilon, 256);
    return shapeForLogHigh(epsilon, best);
  }

  /**
   * The three-piece shape with high density p in [1, e^eps] on a unit domain; normalisation fixes
   * the rest. Any such shape is eps-LDP; only the optimal ones minimise an error.
   */
  public static OgpmShape withHighDensity(double epsilon, double p) {
    Checks.epsilon("epsilon", epsilon);
    Checks.positive("p", p);
    double logP = Math.log(p);
    if (!(logP >= 0 && logP <= epsilon)) {
      throw new IllegalArgumentException("p must be in [1, e^epsilon], got " + p);
    }
    return shapeForLogHigh(epsilon, logP);
  }

  private static OgpmShape shapeForLogHigh(double epsilon, double logP) {
    // q = p e^-eps; 1 - q = -expm1(logP - eps).
    double q = Math.exp(logP - epsilon);
    double w = -Math.expm1(logP - epsilon);
    return fromLowDensity(epsilon, q, w);
  }

  private static OgpmShape fromLowDensity(double epsilon, double q, double w) {
    double p = q * Math.exp(epsilon);
    // s = (1 - q) / (p - q) = w / (q (t - 1)).
    double s = w / (q * Math.expm1(epsilon));
    if (!(s >= 0 && s <= 1.0000000001) || !(p >= 0.9999999999) || !(q > 0 && q <= 1)) {
      throw new ArithmeticException(
          "degenerate shape at epsilon=" + epsilon + ": p=" + p + ", q=" + q + ", s=" + s);
    }
    return new OgpmShape(epsilon, p, q, Math.min(s, 1));
  }

  private static double cubicResidualInQ(double q, double logTm1) {
    return 2 * Math.log1p(-q) + Math.log(2 + q) - 3 * Math.log(q) - 2 * logTm1;
  }

  private static double cubicResidualInW(double w, double logTm1) {
    return 2 * Math.log(w) + Math.log(3 - w) - 3 * Math.log1p(-w) - 2 * logTm1;
  }

  /**
   * Bisection for the root of a decreasing function on (lo, hi), to adjacent doubles. Kept by hand
   * rather than a Hipparchus solver: this root defines the shipped square-error mechanism to the
   * last bit, and with it every keyed (replay-safe) output of an {@code l2} field; a solver that
   * stops at a tolerance could move it by an ulp between versions and change those outputs. Plain
   * bisection to adjacent doubles is exact in that sense and runs once per mechanism.
   */
  private static double bisect(double lo, double hi, java.util.function.DoubleUnaryOperator f) {
    for (int i = 0; i < 2000; i++) {
      double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) {
        break;
      }
      if (f.applyAsDouble(mid) > 0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return 0.5 * (lo + hi);
  }

  public double epsilon() {
    return epsilon;
  }

  /** High density p on a unit-width domain. */
  public double high() {
    return high;
  }

  /** Low density q = p / e^eps on a unit-width domain. */
  public double low() {
    return low;
  }

  /** Length s of the central (high-density) piece on a unit-width domain. */
  public double central() {
    return central;
  }

  /** Left end of the central piece for input z in [0, 1]: centred on z, clamped into [0, 1 - s]. */
  public double centralStart(double z) {
    return Math.min(Math.max(z - 0.5 * central, 0), 1 - central);
  }

  /**
   * The worst-case error on the classical unit domain, at an endpoint (Lemma 1; docs/mechanisms.md,
   * "The square-error optimum"): {@code (p - q) s^(k+1) / (k+1) + q / (k+1)}.
   */
  public double worstCaseError(ErrorMetric metric) {
    int k = metric.exponent();
    return ((high - low) * Math.pow(central, k + 1) + low) / (k + 1);
  }

  /** The error at z in [0, 1] on the classical unit domain, by exact integration of the pieces. */
  double errorAt(double z, ErrorMetric metric) {
    int k = metric.exponent();
    double l = centralStart(z);
    double r = l + central;
    return low * (LossIntegrals.linear(0, l, z, k) + LossIntegrals.linear(r, 1, z, k))
        + high * LossIntegrals.linear(l, r, z, k);
  }

  @Override
  public String toString() {
    return "OgpmShape{epsilon=" + epsilon + ", p=" + high + ", q=" + low + ", s=" + central + "}";
  }
}
