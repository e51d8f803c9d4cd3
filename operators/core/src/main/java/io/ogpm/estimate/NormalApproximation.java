package io.ogpm.estimate;

import io.ogpm.mechanism.ContinuousUnitMechanism;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.PiecewiseDistribution;
import io.ogpm.mechanism.PiecewiseUnitMechanism;
import io.ogpm.mechanism.UnitMechanism;
import java.util.function.DoubleUnaryOperator;

/**
 * When a window's mean output is close enough to normal for a 95 % normal interval, and the
 * finite-sample interval used when it is not.
 *
 * <p>The normal interval's coverage errs, to leading order, by {@code phi(z) |g1| (z^2 - 1) / (6
 * sqrt n)} on each side (the skewness term of the Edgeworth expansion of a mean of independent
 * variables; Hall, "The Bootstrap and Edgeworth Expansion", 1992, section 2.2) and by {@code 2
 * phi(z) (|g2| He3(z) / 24 + g1^2 |He5(z)| / 72) / n} in total (the kurtosis term), with {@code g1}
 * and {@code g2} the largest skewness and excess kurtosis of one output over the inputs. Mechanisms
 * at high eps put a small mass far from a sharp bump, so that error falls slowly: at eps 8 a normal
 * interval over a few tens of records covers less than 95 %. The normal interval is used only where
 * this leading error is at most {@value #MAX_ERROR} ({@link #minimumCount}). Below, a normal
 * interval with its quantile widened until the leading-order miss is what the regime accepts at its
 * edge ({@link #widenedQuantile}), while that error is at most {@value #MAX_WIDENED_ERROR}; and
 * Bernstein's inequality, which holds for any n, where it is narrower or the widened one is not
 * used (the choice depends on n alone, never on the data). The largest skewness and kurtosis are
 * taken over {@value #INPUTS} + 1 equally spaced inputs (a criterion, not a bound: they vary
 * smoothly with the input).
 */
final class NormalApproximation {
  /** The largest leading-order coverage error accepted from the normal approximation. */
  static final double MAX_ERROR = 0.01;

  private static final double Z = Interval.Z95;

  /** Steps of the grid of inputs (or directions) over which skewness and kurtosis are maximised. */
  static final int INPUTS = 64;

  private NormalApproximation() {}

  /** The leading-order coverage error of the 95 % normal interval for a mean of n outputs. */
  static double error(long n, double skewness, double excessKurtosis) {
    return error(n, skewness, excessKurtosis, Z);
  }

  /**
   * The same error for the normal interval of quantile z (one side's error, plus the kurtosis term
   * of both sides): the terms above with z in place of 1.96.
   */
  static double error(long n, double skewness, double excessKurtosis, double z) {
    double perSide = density(z) * Math.abs(skewness) * (z * z - 1) / (6 * Math.sqrt(n));
    return perSide + kurtosisError(n, skewness, excessKurtosis, z);
  }

  /**
   * The largest {@code 1/n} term (both sides together, so about a point per side) left by a
   * studentised bound whose Edgeworth term is removed ({@link #studentisedHolds}). A criterion, as
   * the term is the standardised mean's: the coverage grid checks the counts it admits at the ends
   * and at high epsilon, where the kurtosis is largest.
   */
  static final double MAX_REMAINDER = 0.02;

  /** The standard normal density. */
  private static double density(double z) {
    return Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI);
  }

  /** The kurtosis term alone (both sides): the part of {@link #error} of order {@code 1/n}. */
  static double kurtosisError(long n, double skewness, double excessKurtosis, double z) {
    double he3 = z * z * z - 3 * z;
    double he5 = Math.pow(z, 5) - 10 * z * z * z + 15 * z;
    return 2
        * density(z)
        * (Math.abs(excessKurtosis) * Math.abs(he3) / 24 + skewness * skewness * Math.abs(he5) / 72)
        / n;
  }

  /**
   * Whether a side's studentised normal bound at quantile z, widened by its Edgeworth term {@code
   * term / sqrt n} ({@link WindowVariance}), is used at n: the term it removes is at most {@code
   * maxTermError} ({@code phi(z) term / sqrt n}, beyond which the expansion is not trusted to
   * correct it) and the {@code 1/n} term it leaves at most {@code maxError}.
   */
  static boolean studentisedHolds(
      long n,
      double term,
      double skewness,
      double excessKurtosis,
      double z,
      double maxTermError,
      double maxError) {
    if (n < 2 || !Double.isFinite(term)) {
      return false;
    }
    return density(z) * term / Math.sqrt(n) <= maxTermError
        && kurtosisError(n, skewness, excessKurtosis, z) <= maxError;
  }

  /**
   * The smallest count whose leading error is at most {@link #MAX_ERROR} (the error falls with n);
   * never (the largest long) for infinite or NaN moments, or when that count does not fit in a
   * long.
   */
  static long minimumCount(double skewness, double excessKurtosis) {
    return minimumCountAt(skewness, excessKurtosis, Z, MAX_ERROR);
  }

  /** The smallest count whose leading error at quantile z is at most {@code maxError}. */
  static long minimumCountAt(double skewness, double excessKurtosis, double z, double maxError) {
    if (!Double.isFinite(skewness) || !Double.isFinite(excessKurtosis)) {
      return Long.MAX_VALUE;
    }
    // Bisection over all counts (63 steps): error(lo) > maxError (or lo = 0), error(hi) <=
    // maxError. A count beyond the largest long is never.
    if (error(Long.MAX_VALUE, skewness, excessKurtosis, z) > maxError) {
      return Long.MAX_VALUE;
    }
    long lo = 0;
    long hi = Long.MAX_VALUE;
    while (lo + 1 < hi) {
      long mid = (lo + hi) >>> 1;
      if (error(mid, skewness, excessKurtosis, z) > maxError) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  /**
   * Half-width t such that a mean of n independent variables, each within {@code range} of its
   * expectation and with average variance at most {@code variance}, is within t of its expected
   * value with probability at least {@code 1 - alpha}: Bernstein's inequality {@code P(|mean - E|
   * >= t) <= 2 exp(-n t^2 / (2 variance + 2 range t / 3))}, solved for t.
   */
  static double bernsteinHalfWidth(long n, double variance, double range, double alpha) {
    double l = Math.log(2 / alpha);
    double b = range * l / 3;
    return (b + Math.sqrt(b * b + 2 * n * l * variance)) / n;
  }

  /**
   * The largest leading error at a side's own quantile below which a normal interval with a widened
   * quantile is still used ({@link #widenedQuantile}): beyond it the normal shape is off by as much
   * as a side's whole error level, and the expansion is not trusted to correct it.
   */
  static final double MAX_WIDENED_ERROR = 0.025;

  /** The step of the quantiles {@link #widenedQuantile} tries. */
  private static final double QUANTILE_STEP = 1e-3;

  /**
   * The quantile of the normal interval for a mean of n outputs below the normal regime, where the
   * leading error at the side's quantile z0 exceeds {@code maxError}: the smallest z at least z0
   * (on a grid of {@value #QUANTILE_STEP}) whose one-sided leading-order miss, {@code 1 - Phi(z) +
   * error(n, z)}, is at most what the regime accepts at its edge, {@code 1 - Phi(z0) + maxError}.
   * So the interval widens continuously as n falls below the regime, instead of jumping to
   * Bernstein's, under the same standard. z0 itself in the regime; NaN when the leading error at z0
   * exceeds {@value #MAX_WIDENED_ERROR}, the moments are not finite, or no z up to z0 + 4 does.
   */
  static double widenedQuantile(
      long n, double skewness, double excessKurtosis, double z0, double maxError) {
    if (!Double.isFinite(skewness) || !Double.isFinite(excessKurtosis) || n < 1) {
      return Double.NaN;
    }
    double at = error(n, skewness, excessKurtosis, z0);
    if (at <= maxError) {
      return z0;
    }
    if (at > MAX_WIDENED_ERROR) {
      return Double.NaN;
    }
    double accepted = upperTail(z0) + maxError;
    for (int k = 1; k <= 4 / QUANTILE_STEP; k++) {
      double z = z0 + k * QUANTILE_STEP;
      if (upperTail(z) + error(n, skewness, excessKurtosis, z) <= accepted) {
        return z;
      }
    }
    return Double.NaN;
  }

  /** {@code 1 - Phi(z)}, the standard normal's upper tail. */
  static double upperTail(double z) {
    return 0.5 * org.hipparchus.special.Erf.erfc(z / Math.sqrt(2));
  }

  /**
   * The smallest count for the normal interval of a classical mechanism's mean output, from the
   * largest skewness and excess kurtosis of one output over the inputs; never (the largest long)
   * when they are not finite (an output without variance makes them infinite or NaN).
   */
  static long minimumCount(Mechanism mechanism) {
    double[] shape = largestShape(mechanism);
    return minimumCount(shape[0], shape[1]);
  }

  /**
   * {@code {skewness, excess kurtosis}}: the largest absolute skewness and excess kurtosis of one
   * output of a classical mechanism over {@value #INPUTS} + 1 equally spaced inputs.
   */
  static double[] largestShape(Mechanism mechanism) {
    UnitMechanism unit = mechanism.unit();
    double skewness = 0;
    double kurtosis = 0;
    for (int i = 0; i <= INPUTS; i++) {
      double z = (double) i / INPUTS;
      double[] m = centralMoments(unit, z);
      skewness = Math.max(skewness, Math.abs(m[1]) / Math.pow(m[0], 1.5));
      kurtosis = Math.max(kurtosis, Math.abs(m[2] / (m[0] * m[0]) - 3));
    }
    return new double[] {skewness, kurtosis};
  }

  /**
   * Central moments 2, 3 and 4 of the output for unit input z, exactly (pieces) or by quadrature.
   */
  static double[] centralMoments(UnitMechanism unit, double z) {
    double mean = unit.outputMean(z);
    if (unit instanceof PiecewiseUnitMechanism piecewise) {
      PiecewiseDistribution d = piecewise.distribution(z);
      double[] m = new double[3];
      for (PiecewiseDistribution.Piece p : d.pieces()) {
        for (int k = 2; k <= 4; k++) {
          m[k - 2] +=
              p.density()
                  * (Math.pow(p.to() - mean, k + 1) - Math.pow(p.from() - mean, k + 1))
                  / (k + 1);
        }
      }
      for (PiecewiseDistribution.Atom a : d.atoms()) {
        for (int k = 2; k <= 4; k++) {
          m[k - 2] += a.mass() * Math.pow(a.at() - mean, k);
        }
      }
      return m;
    }
    if (unit instanceof ContinuousUnitMechanism continuous) {
      double[] m = new double[3];
      for (int k = 2; k <= 4; k++) {
        int power = k;
        DoubleUnaryOperator f = y -> Math.pow(y - mean, power);
        m[k - 2] = continuous.expectation(z, f);
      }
      return m;
    }
    throw new IllegalArgumentException(
        "no output moments for "
            + unit.getClass().getSimpleName()
            + ": neither piecewise nor continuous");
  }

  /**
   * The smallest count for the normal disk of a rotation-invariant mechanism's mean resultant
   * vector, from the largest skewness and kurtosis of one output's component {@code cos(t + noise)}
   * along any direction t from its input. With symmetric noise, {@code E cos(m (t + noise)) = rho_m
   * cos(m t)}, so the component's first four moments follow from the trigonometric moments {@code
   * rho1..rho4}.
   */
  static long minimumCount(double rho1, double rho2, double rho3, double rho4) {
    double skewness = 0;
    double kurtosis = 0;
    for (int i = 0; i <= INPUTS; i++) {
      double t = Math.PI * i / INPUTS;
      double m1 = rho1 * Math.cos(t);
      double e2 = (1 + rho2 * Math.cos(2 * t)) / 2;
      double e3 = (3 * rho1 * Math.cos(t) + rho3 * Math.cos(3 * t)) / 4;
      double e4 = (3 + 4 * rho2 * Math.cos(2 * t) + rho4 * Math.cos(4 * t)) / 8;
      double c2 = e2 - m1 * m1;
      double c3 = e3 - 3 * m1 * e2 + 2 * m1 * m1 * m1;
      double c4 = e4 - 4 * m1 * e3 + 6 * m1 * m1 * e2 - 3 * m1 * m1 * m1 * m1;
      // A component without variance (c2 <= 0: no noise) makes these infinite or NaN: never.
      skewness = Math.max(skewness, Math.abs(c3) / Math.pow(c2, 1.5));
      kurtosis = Math.max(kurtosis, Math.abs(c4 / (c2 * c2) - 3));
    }
    return minimumCount(skewness, kurtosis);
  }
}
