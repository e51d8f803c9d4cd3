package io.ogpm.estimate;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.PiecewiseDistribution;
import java.util.Arrays;

/**
 * {@code T[j][i] = P(output in output bin j | input uniform in input bin i)}, computed from the
 * mechanism's exact pieces and atoms: the mass of each output bin is exact for a given input
 * ({@link PiecewiseDistribution#mass}); the average over the input bin uses {@value #POINTS}
 * midpoints. The mass is a piecewise-linear function of the input with at most a few kinks per bin,
 * so the midpoint rule errs only near a kink, by less than {@code 1/(8 POINTS^2)} of the mass's
 * change across one sub-interval. Columns sum to 1 (the output bins cover the output domain; tails
 * of unbounded outputs fall in the end bins; on a circle, outputs beyond [lo, hi) count where they
 * fall on the circle, as the accumulator counts them).
 *
 * <p>The products the reconstruction needs at every EMS step ({@code T theta}, {@code T^T r} and
 * {@code S theta} with S the {@link #meanSquare} matrix) use the rows' runs of equal entries
 * ({@link RunRows}) when the matrix has them, as the piecewise mechanisms' two-level densities
 * give: O(runs) per product instead of O(rows x columns). They then differ from the dense products
 * only by rounding, within the bounds {@link RunRows} derives. {@link #dense()} is the same matrix
 * with the dense products, the reference for tests and benchmarks.
 */
@Internal
public final class TransitionMatrix {
  static final int POINTS = 32;

  private final double[][] t;
  private final double[][] meanSquare;
  private final boolean circular;

  /** T and S as runs, or null for the dense products (no run structure, or {@link #dense()}). */
  private final RunRows runs;

  private final RunRows squareRuns;

  /** Whether {@link #runs} and {@link #squareRuns} have the same runs (one pass computes both). */
  private final boolean pairedRuns;

  private TransitionMatrix(
      double[][] t, double[][] meanSquare, boolean circular, RunRows runs, RunRows squareRuns) {
    this.t = t;
    this.meanSquare = meanSquare;
    this.circular = circular;
    // Both or neither: a matrix whose mean squares lack the runs its masses have is taken dense.
    boolean structured = runs != null && squareRuns != null;
    this.runs = structured ? runs : null;
    this.squareRuns = structured ? squareRuns : null;
    this.pairedRuns = structured && runs.sameRuns(squareRuns);
  }

  /**
   * A matrix of the given entries ({@code t[j][i] = P(output bin j | input bin i)} and the mean
   * squares), with run-structured products where the entries have the structure: what {@link
   * #of(Mechanism, FieldBinning)} builds, and tests of matrices no mechanism gives.
   */
  static TransitionMatrix of(double[][] t, double[][] meanSquare, boolean circular) {
    return new TransitionMatrix(t, meanSquare, circular, RunRows.of(t), RunRows.of(meanSquare));
  }

  /**
   * The same matrix with the dense O(rows x columns) products: the reference the runs are checked
   * against.
   */
  public TransitionMatrix dense() {
    return new TransitionMatrix(t, meanSquare, circular, null, null);
  }

  /** Whether the products use the rows' runs of equal entries ({@link RunRows}). */
  public boolean structured() {
    return runs != null;
  }

  /** The runs, for tests of the bounds; null when {@link #structured()} is false. */
  RunRows runs() {
    return runs;
  }

  /**
   * The runs of the mean squares, for tests of the bounds; null when {@link #structured()} is
   * false.
   */
  RunRows squareRuns() {
    return squareRuns;
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
    BinnedKernel kernel = new BinnedKernel(mechanism, binning);
    for (int i = 0; i < k; i++) {
      for (int p = 0; p < POINTS; p++) {
        double x = Math.min(binning.lo() + (i + (p + 0.5) / POINTS) * h, hi);
        double[] masses = kernel.probabilities(x);
        for (int j = 0; j < m; j++) {
          double mass = masses[j];
          t[j][i] += mass / POINTS;
          meanSquare[j][i] += mass * mass / POINTS;
        }
      }
    }
    return of(t, meanSquare, binning.circular());
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
   * The mean over input bin i of {@code P(output in bin j | x)^2} (at least {@code get(j, i)^2}):
   * how much the records of one input bin agree on output bin j, for the variance of the counts.
   */
  public double meanSquare(int j, int i) {
    return meanSquare[j][i];
  }

  /** The output-bin probabilities for an input-bin distribution theta: {@code T theta}. */
  public double[] apply(double[] theta) {
    return product(runs, t, theta, new double[rows()], scratch());
  }

  /**
   * {@code T theta} into {@code out}, {@code scratch} ({@link #scratch()}) for the products'
   * working space: the same numbers as {@link #apply(double[])}. The reconstruction's products take
   * no allocation this way; the scratch is the caller's, so one matrix serves any number of
   * threads.
   */
  void apply(double[] theta, double[] out, double[] scratch) {
    product(runs, t, theta, out, scratch);
  }

  /** {@code S theta}: {@code sum_i theta_i meanSquare(j, i)} for every output bin j. */
  public double[] applyMeanSquare(double[] theta) {
    return product(squareRuns, meanSquare, theta, new double[rows()], scratch());
  }

  /** {@code S theta} into {@code out}, like {@link #apply(double[], double[], double[])}. */
  void applyMeanSquare(double[] theta, double[] out, double[] scratch) {
    product(squareRuns, meanSquare, theta, out, scratch);
  }

  /**
   * A matrix times {@code x} into {@code out}, returned: over its runs where it has them ({@link
   * RunRows}), else over its dense rows ({@code runs} null).
   */
  private static double[] product(
      RunRows runs, double[][] dense, double[] x, double[] out, double[] scratch) {
    if (runs != null) {
      runs.apply(x, out, scratch);
    } else {
      denseApply(dense, x, out);
    }
    return out;
  }

  /**
   * {@code T theta} and {@code S theta} together, equal to {@link #apply} and {@link
   * #applyMeanSquare} bit for bit (one pass over the runs where they share them).
   */
  public double[][] applyWithMeanSquare(double[] theta) {
    double[][] both = {new double[rows()], new double[rows()]};
    applyWithMeanSquare(theta, both[0], both[1], scratch());
    return both;
  }

  /**
   * {@code T theta} into {@code out} and {@code S theta} into {@code square}, like {@link
   * #apply(double[], double[], double[])}.
   */
  void applyWithMeanSquare(double[] theta, double[] out, double[] square, double[] scratch) {
    if (runs != null) {
      runs.applyWith(squareRuns, pairedRuns, theta, out, square, scratch);
    } else {
      denseApply(t, theta, out);
      denseApply(meanSquare, theta, square);
    }
  }

  /**
   * {@code T^T r}: {@code sum_j get(j, i) r_j} for every input bin i, r non-negative (the EM step's
   * back-projection of the ratios of observed to fitted counts).
   */
  public double[] applyTransposed(double[] r) {
    double[] out = new double[columns()];
    applyTransposed(r, out, scratch());
    return out;
  }

  /** {@code T^T r} into {@code out}, like {@link #apply(double[], double[], double[])}. */
  void applyTransposed(double[] r, double[] out, double[] scratch) {
    if (runs != null) {
      runs.applyTransposed(r, out, scratch);
      return;
    }
    // Row by row, skipping zero weights (adding 0 * t changes no sum): today's order of additions.
    Arrays.fill(out, 0, columns(), 0.0);
    for (int j = 0; j < t.length; j++) {
      double w = r[j];
      if (w == 0) {
        continue;
      }
      double[] row = t[j];
      for (int i = 0; i < row.length; i++) {
        out[i] += row[i] * w;
      }
    }
  }

  /** Working space for the products that take one ({@code columns() + 1} long). */
  double[] scratch() {
    return new double[columns() + 1];
  }

  private static void denseApply(double[][] a, double[] x, double[] out) {
    for (int j = 0; j < a.length; j++) {
      double s = 0;
      double[] row = a[j];
      for (int i = 0; i < x.length; i++) {
        s += row[i] * x[i];
      }
      out[j] = s;
    }
  }
}
