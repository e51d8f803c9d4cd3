package io.ogpm.estimate;

import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.UnitMechanism;
import org.hipparchus.exception.MathIllegalArgumentException;
import org.hipparchus.linear.MatrixUtils;
import org.hipparchus.linear.QRDecomposition;
import org.hipparchus.linear.RealMatrix;

/**
 * The variance of a window's mean output given its inputs, estimated from the window's own sums:
 * what the output mean's interval is studentised by ({@link LinearMeanBounds}).
 *
 * <p><b>What is estimated.</b> Given the inputs {@code x_1..x_n}, the mean output has variance
 * {@code V / n} with {@code V = (1/n) sum v(x_i)}, v the mechanism's output variance at an input.
 * The outputs' sample variance estimates more than V: it also holds the spread of the inputs' mean
 * outputs {@code g(x_i)}, which for readings clamped to both ends is ten times V at high epsilon.
 * So V is estimated instead through the model {@code v(x) <= a + b g(x) + d m(x)}, {@code m(x) =
 * E[(M(x) - c)^2]} the mean square about the domain's centre c: the window's mean output and mean
 * square have expectations {@code (1/n) sum g(x_i)} and {@code (1/n) sum m(x_i)}, so {@code a + b
 * ybar + d s} (s the window's mean square about c) is unbiased for a bound of V, whatever the
 * inputs. For mechanisms whose g is affine and v and m quadratic in x (pm, sw, staircase, hm above
 * eps 0.61) the model is exact: v is a combination of 1, g and m. For the others a, b and d are the
 * least-squares fit over {@value NormalApproximation#INPUTS} + 1 equally spaced inputs with a
 * raised until the fit lies above v on a grid {@value #RAISE_STEPS} times finer: close for ogpm
 * (its flat ends), loose where m says nothing g does not (hm below eps 0.61 is Duchi's two outputs,
 * of one mean square whatever x). An estimate is clamped to the range of v over those inputs and
 * the mechanism's largest variance, which holds V.
 *
 * <p>The same model serves any statistic of one output whose mean and mean square given the input
 * are known at every input ({@link #fit}): the tail statistics of {@link BinStatistic}, fitted on
 * their identification grid.
 *
 * <p><b>Its Edgeworth term.</b> With {@code T = sqrt n (ybar - mu) / sqrt(Vhat)}, the one-sided
 * miss of the normal quantile z is, to order {@code 1/sqrt n} (the delta method on the cumulants of
 * T: its mean {@code -rho / (2 sqrt n)}, its third cumulant {@code (gamma - 3 rho) / sqrt n}),
 * {@code phi(z) (rho / 2 + (3 rho - gamma) (z^2 - 1) / 6) / sqrt n} for the upper bound and {@code
 * phi(z) (-rho / 2 + (gamma - 3 rho) (z^2 - 1) / 6) / sqrt n} for the lower, gamma the skewness of
 * one output and {@code rho = Cov(M, b M + d (M - c)^2) / sigma^3 = d gamma + (2 d (mu - c) + b) /
 * sigma}, the variance estimate's covariance with one output over {@code sigma^3}. With the sample
 * variance (d = 1, b = -2 (mu - c)) this is Hall's {@code gamma (2 z^2 + 1) / 6} ("The Bootstrap
 * and Edgeworth Expansion", 1992, section 2.6); with a known variance (b = d = 0) the standardised
 * mean's {@code -gamma (z^2 - 1) / 6}. The largest of each over the inputs (a criterion, as {@link
 * NormalApproximation} takes its moments) widens a side's quantile by that much over {@code sqrt n}
 * (Cornish-Fisher), which removes the term for every input.
 */
final class WindowVariance {
  /** The relative size below which a column of the fit counts as no column (QR's threshold). */
  private static final double SINGULAR = 1e-9;

  /** How many times finer than the fit's the grid is on which the fit is raised above v. */
  static final int RAISE_STEPS = 8;

  private final double a;
  private final double b;
  private final double d;
  private final double centre;
  private final double smallest;
  private final double largest;
  private final double[] rho;
  private final double[] gamma;

  private WindowVariance(
      double[] coefficients,
      double centre,
      double smallest,
      double largest,
      double[] rho,
      double[] gamma) {
    this.a = coefficients[0];
    this.b = coefficients[1];
    this.d = coefficients[2];
    this.centre = centre;
    this.smallest = smallest;
    this.largest = largest;
    this.rho = rho;
    this.gamma = gamma;
  }

  /** The model of a classical mechanism's output variance. */
  static WindowVariance of(Mechanism mechanism) {
    int inputs = NormalApproximation.INPUTS;
    int fine = inputs * RAISE_STEPS;
    double lo = mechanism.domain().lo();
    double w = mechanism.domain().width();
    double[] g = new double[fine + 1];
    double[] v = new double[fine + 1];
    for (int j = 0; j <= fine; j++) {
      double x = lo + w * j / fine;
      g[j] = mechanism.outputMean(x);
      v[j] = mechanism.outputVariance(x);
    }
    UnitMechanism unit = mechanism.unit();
    double[] gamma = new double[inputs + 1];
    for (int i = 0; i <= inputs; i++) {
      double[] central = NormalApproximation.centralMoments(unit, (double) i / inputs);
      gamma[i] = central[1] / Math.pow(central[0], 1.5);
    }
    return fit(lo + w / 2, w, g, v, gamma, mechanism.maxOutputVariance());
  }

  /**
   * The model of a statistic's variance from its mean g and variance v at {@code k m + 1} equally
   * spaced inputs from lo to hi, m = {@value NormalApproximation#INPUTS}: fitted at every k-th,
   * raised above v at all of them.
   *
   * @param centre the centre its mean squares are taken about (the middle of its values)
   * @param scale the size of its values' range, which scales the fit's columns to order 1
   * @param gamma its skewness at the m + 1 fitted inputs
   * @param largest a bound on v at every input: the estimate's ceiling
   */
  static WindowVariance fit(
      double centre, double scale, double[] g, double[] v, double[] gamma, double largest) {
    int inputs = NormalApproximation.INPUTS;
    int steps = (g.length - 1) / inputs;
    if (g.length != v.length || steps * inputs + 1 != g.length || gamma.length != inputs + 1) {
      throw new IllegalArgumentException(
          "a fit needs means and variances at k "
              + inputs
              + " + 1 inputs and skewnesses at "
              + (inputs + 1)
              + ", not "
              + g.length
              + ", "
              + v.length
              + " and "
              + gamma.length);
    }
    double c = centre;
    double w = scale;
    double[] m = new double[g.length];
    double meanSquare = 0;
    for (int j = 0; j < g.length; j++) {
      m[j] = v[j] + (g[j] - c) * (g[j] - c);
      if (j % steps == 0) {
        meanSquare += m[j] / (inputs + 1);
      }
    }
    // Columns 1, (g - c) / w and (m - its average) / w^2, each of order 1, so that a column
    // without spread of its own (Duchi's two outputs have one mean square whatever x) is found
    // singular instead of fitted with huge cancelling coefficients; then the fit goes without it.
    double[] scaled = {1, 0, 0};
    double[] fitted = new double[inputs + 1];
    for (int i = 0; i <= inputs; i++) {
      fitted[i] = v[i * steps];
    }
    for (int columns = 3; columns >= 1; columns--) {
      RealMatrix basis = MatrixUtils.createRealMatrix(inputs + 1, columns);
      for (int i = 0; i <= inputs; i++) {
        basis.setEntry(i, 0, 1);
        if (columns > 1) {
          basis.setEntry(i, 1, (g[i * steps] - c) / w);
        }
        if (columns > 2) {
          basis.setEntry(i, 2, (m[i * steps] - meanSquare) / (w * w));
        }
      }
      try {
        double[] solved =
            new QRDecomposition(basis, SINGULAR)
                .getSolver()
                .solve(MatrixUtils.createRealVector(fitted))
                .toArray();
        scaled = new double[] {solved[0], 0, 0};
        System.arraycopy(solved, 0, scaled, 0, columns);
        break;
      } catch (MathIllegalArgumentException singular) {
        // fewer columns
      }
    }
    // Back to v = fit[0] + fit[1] (g - c) + fit[2] m.
    double[] fit = {
      scaled[0] - scaled[2] * meanSquare / (w * w), scaled[1] / w, scaled[2] / (w * w)
    };
    double smallest = largest;
    // Raised above v on the grid k times finer than the fit's: between its points a smooth v can
    // bulge above the fit by the curvature over a step, which the finer grid shrinks.
    double below = 0;
    for (int j = 0; j < g.length; j++) {
      below = Math.max(below, v[j] - (fit[0] + fit[1] * (g[j] - c) + fit[2] * m[j]));
      smallest = Math.min(smallest, v[j]);
    }
    // Raised above v at every input, with a margin for the fit's rounding.
    double[] coefficients = {
      fit[0] - fit[1] * c + below + FieldEstimator.NUMERICAL * largest, fit[1], fit[2]
    };
    double[] rho = new double[inputs + 1];
    for (int i = 0; i <= inputs; i++) {
      double sigma = Math.sqrt(v[i * steps]);
      rho[i] = fit[2] * gamma[i] + (2 * fit[2] * (g[i * steps] - c) + fit[1]) / sigma;
    }
    return new WindowVariance(coefficients, c, smallest, largest, rho, gamma.clone());
  }

  /**
   * The estimate of V for a window with this mean output and mean square about the centre, clamped
   * to the range of v.
   */
  double estimate(double mean, double meanSquare) {
    double estimate = a + b * mean + d * meanSquare;
    return Math.min(largest, Math.max(smallest, estimate));
  }

  /**
   * The expected mean square about the centre for one output of an input whose output has this mean
   * and variance: what a reference mix's expected estimate is made of.
   */
  double meanSquare(double mean, double variance) {
    return variance + (mean - centre) * (mean - centre);
  }

  /**
   * The Edgeworth term of the upper (or lower) side at quantile z, times {@code sqrt n}: the
   * largest over the inputs, at least 0. The side's quantile is {@code z + term / sqrt n}.
   */
  double term(double z, boolean upperSide) {
    double h = (z * z - 1) / 6;
    double largestTerm = 0;
    for (int i = 0; i < rho.length; i++) {
      double t =
          upperSide
              ? rho[i] / 2 + (3 * rho[i] - gamma[i]) * h
              : -rho[i] / 2 + (gamma[i] - 3 * rho[i]) * h;
      if (Double.isNaN(t)) {
        return Double.POSITIVE_INFINITY;
      }
      largestTerm = Math.max(largestTerm, t);
    }
    return largestTerm;
  }
}
