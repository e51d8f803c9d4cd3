package io.ogpm.estimate;

import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.PiecewiseDistribution;

/**
 * {@code T[j][i] = P(output in output bin j | input uniform in input bin i)}, computed from the
 * mechanism's exact pieces and atoms: the mass of each output bin is exact for a given input
 * ({@link PiecewiseDistribution#mass}); the average over the input bin uses {@value #POINTS}
 * midpoints. The mass is a piecewise-linear function of the input with at most a few kinks per bin,
 * so the midpoint rule errs only near a kink, by less than {@code 1/(8 POINTS^2)} of the mass's
 * change across one sub-interval. Columns sum to 1 (the output bins cover the output domain; tails
 * of unbounded outputs fall in the end bins; on a circle, outputs beyond [lo, hi) count where they
 * fall on the circle, as the accumulator counts them).
 */
public final class TransitionMatrix {
  static final int POINTS = 32;

  private final double[][] t;
  private final double[][] meanSquare;
  private final boolean circular;

  private TransitionMatrix(double[][] t, double[][] meanSquare, boolean circular) {
    this.t = t;
    this.meanSquare = meanSquare;
    this.circular = circular;
  }

  /** The transition matrix of a piecewise mechanism on a binning. */
  public static TransitionMatrix of(Mechanism mechanism, FieldBinning binning) {
    if (!mechanism.isPiecewise()) {
      throw new IllegalArgumentException(
          "reconstruction needs a piecewise mechanism, not " + mechanism.spec().type().id());
    }
    int k = binning.bins();
    int m = binning.outputBins();
    double[][] t = new double[m][k];
    double[][] meanSquare = new double[m][k];
    double h = binning.binWidth();
    double hi = mechanism.domain().hi();
    double outLo = mechanism.outputLo();
    double outHi = mechanism.outputHi();
    for (int i = 0; i < k; i++) {
      for (int p = 0; p < POINTS; p++) {
        double x = Math.min(binning.lo() + (i + (p + 0.5) / POINTS) * h, hi);
        PiecewiseDistribution d = mechanism.distribution(x);
        for (int j = 0; j < m; j++) {
          double mass = binMass(d, binning, j, outLo, outHi);
          t[j][i] += mass / POINTS;
          meanSquare[j][i] += mass * mass / POINTS;
        }
      }
    }
    return new TransitionMatrix(t, meanSquare, binning.circular());
  }

  /**
   * {@code P(output counted in bin j)} for one input's distribution, binned as {@link
   * FieldBinning#outputBin} bins outputs. On an interval the end bins take the tails beyond the
   * binned range. On a circle an output counts at its place on the circle: every image {@code [a +
   * k w, b + k w)} of the bin within the output domain [outLo, outHi) (more than one for pm and sw,
   * whose enlarged outputs reach beyond [lo, hi)). An atom at outHi (t-pm, t-sw: truncated onto
   * [lo, hi]) is reported just below it, so the image reaching outHi takes it.
   */
  private static double binMass(PiecewiseDistribution d, FieldBinning binning, int j, double outLo, double outHi) {
    int m = binning.outputBins();
    double a = binning.outputBinLo(j);
    double b = binning.outputBinHi(j);
    if (!binning.circular()) {
      return d.mass(j == 0 ? Double.NEGATIVE_INFINITY : a, j == m - 1 ? Double.POSITIVE_INFINITY : b);
    }
    double w = binning.width();
    double mass = 0;
    for (double shift = Math.floor((outLo - a) / w) * w; a + shift < outHi; shift += w) {
      mass += d.mass(a + shift, b + shift >= outHi ? Double.POSITIVE_INFINITY : b + shift);
    }
    return mass;
  }

  /** Whether the input bins lie on a circle (bin 0 neighbours bin k - 1). */
  public boolean circular() {
    return circular;
  }

  /** Number of output bins (rows). */
  public int rows() {
    return t.length;
  }

  /** Number of input bins (columns). */
  public int columns() {
    return t[0].length;
  }

  /** {@code P(output bin j | input bin i)}. */
  public double get(int j, int i) {
    return t[j][i];
  }

  /**
   * The mean over input bin i of {@code P(output in bin j | x)^2} (at least {@code get(j, i)^2}): how
   * much the records of one input bin agree on output bin j, for the variance of the counts.
   */
  public double meanSquare(int j, int i) {
    return meanSquare[j][i];
  }

  /** The output-bin probabilities for an input-bin distribution theta: {@code T theta}. */
  public double[] apply(double[] theta) {
    double[] out = new double[t.length];
    for (int j = 0; j < t.length; j++) {
      double s = 0;
      double[] row = t[j];
      for (int i = 0; i < theta.length; i++) {
        s += row[i] * theta[i];
      }
      out[j] = s;
    }
    return out;
  }
}
