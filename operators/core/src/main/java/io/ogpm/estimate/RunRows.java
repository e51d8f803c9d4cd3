package io.ogpm.estimate;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A non-negative matrix stored row by row as runs of equal entries, for the products {@code A x}
 * and {@code A^T w} in O(runs + rows + columns) instead of O(rows x columns).
 *
 * <p>Why: a piecewise mechanism's output density is two-level, low outside a window and high on it,
 * so row j of its transition matrix (output bin j against the input bins) is the low mass {@code
 * L_j} for every input bin whose windows miss bin j, the high mass for those whose windows cover
 * it, and something in between for the few bins at the window's edges: a handful of runs of exactly
 * equal doubles (the entries of a run are computed by the same operations on the same numbers). The
 * runs are found by comparing the entries exactly, never assumed from the mechanism, so a matrix
 * without the structure merely has many runs; {@link #of} declines it then, and the caller keeps
 * the dense products.
 *
 * <p>Each row is its background value {@code L_j} (its most frequent entry) plus, for every maximal
 * run {@code [a, b)} of entries {@code v != L_j}, the excess {@code e = v - L_j}. So
 *
 * <pre>
 *   (A x)_j   = L_j sum_i x_i + sum_runs e (P_b - P_a),    P the prefix sums of x,
 *   (A^T w)_i = sum_j L_j w_j + D_0 + ... + D_i,           D_a += e w_j, D_b -= e w_j per run.
 * </pre>
 *
 * <p>Rounding (u = 2^-53, x and w non-negative, R_j the runs of row j, N all runs, k columns, m
 * rows, {@code A_j = L_j + sum_runs |e|} for row j; Higham's bound for recursive summation, n - 1
 * times u times the sum of the terms' magnitudes): the prefix sums err by at most {@code k u sum
 * x}, their differences by {@code (2k + 1) u sum x}, the excesses and products by u relative, the
 * sum of row j's R_j + 1 terms by {@code R_j u} times their magnitudes, so {@code |fl(A x)_j - (A
 * x)_j| <= (2k + R_j + 5) u A_j sum x}. The 2N terms of D add up to at most {@code 2 sum_j A_j w_j}
 * in magnitude and their running sum errs by at most {@code 2N u} times that, the background sum by
 * {@code m u sum_j L_j w_j}, so {@code |fl(A^T w)_i - (A^T w)_i| <= (m + 4N + 4) u sum_j A_j w_j}
 * ({@link #applyBound}, {@link #transposedBound}). Relative to the products, these are the
 * coefficients times {@code kappa = max_j A_j / min_i A_ji}, since a product of a non-negative
 * vector is at least the smallest entry of its row (or column) times the vector's sum: for OGPM's
 * transition matrices at 50 bins kappa is 7.5 at eps 1, 290 at eps 4 and 2,700 at eps 8 (it grows
 * like e^eps), so the bounds are about 1e-13 ({@code A x}) and 6e-13 ({@code A^T w}) relative at
 * eps 1, 4e-12 and 3e-11 at eps 4, 3e-11 and 2e-10 at eps 8, where the dense products' are {@code
 * (k + 1) u = 6e-15}: rounding either way, far below what the estimates can resolve.
 */
final class RunRows {
  /**
   * A matrix is kept as runs only if it has at most this fraction of its entries' count in runs:
   * each run costs about two dense entries in the products.
   */
  static final double MAX_RUN_FRACTION = 0.25;

  private final int columns;
  private final double[] background;

  /** Runs of row j: indices {@code rowStart[j]} to {@code rowStart[j + 1] - 1}. */
  private final int[] rowStart;

  private final int[] from;
  private final int[] to;
  private final double[] excess;

  /** {@code A_j = L_j + sum |e|} over row j's runs, for the error bounds. */
  private final double[] magnitude;

  private RunRows(
      int columns,
      double[] background,
      int[] rowStart,
      int[] from,
      int[] to,
      double[] excess,
      double[] magnitude) {
    this.columns = columns;
    this.background = background;
    this.rowStart = rowStart;
    this.from = from;
    this.to = to;
    this.excess = excess;
    this.magnitude = magnitude;
  }

  /**
   * The runs of a matrix (rows of equal length), or null when it has more than {@value
   * #MAX_RUN_FRACTION} of its entries' count in runs (then dense products are as fast).
   */
  static RunRows of(double[][] a) {
    int m = a.length;
    int k = a[0].length;
    double[] background = new double[m];
    int[] rowStart = new int[m + 1];
    long limit = (long) (MAX_RUN_FRACTION * m * (double) k);
    // A few runs per row to start with (two-level rows have about four), grown when needed.
    int capacity = (int) Math.min(limit, 4L * m + 16);
    int[] from = new int[capacity];
    int[] to = new int[capacity];
    double[] excess = new double[capacity];
    double[] magnitude = new double[m];
    int n = 0;
    for (int j = 0; j < m; j++) {
      double[] row = a[j];
      double l = mostFrequent(row);
      background[j] = l;
      double sum = l;
      for (int i = 0; i < k; ) {
        int b = i + 1;
        while (b < k && row[b] == row[i]) {
          b++;
        }
        if (row[i] != l) {
          if (n == limit) {
            return null;
          }
          if (n == from.length) {
            int grown = (int) Math.min(limit, 2L * n);
            from = Arrays.copyOf(from, grown);
            to = Arrays.copyOf(to, grown);
            excess = Arrays.copyOf(excess, grown);
          }
          from[n] = i;
          to[n] = b;
          excess[n] = row[i] - l;
          sum += Math.abs(excess[n]);
          n++;
        }
        i = b;
      }
      magnitude[j] = sum;
      rowStart[j + 1] = n;
    }
    return new RunRows(
        k,
        background,
        rowStart,
        Arrays.copyOf(from, n),
        Arrays.copyOf(to, n),
        Arrays.copyOf(excess, n),
        magnitude);
  }

  /**
   * The most frequent entry of a row (of those tied, the first to reach the count), compared
   * exactly.
   */
  private static double mostFrequent(double[] row) {
    Map<Double, Integer> counts = new HashMap<>();
    double best = row[0];
    int bestCount = 0;
    for (double v : row) {
      int c = counts.merge(v, 1, Integer::sum);
      if (c > bestCount) {
        best = v;
        bestCount = c;
      }
    }
    return best;
  }

  /**
   * Number of runs (entries other than their row's background, merged where equal and adjacent).
   */
  int runs() {
    return excess.length;
  }

  /** Number of runs in row j. */
  int runsInRow(int j) {
    return rowStart[j + 1] - rowStart[j];
  }

  /** {@code A_j = L_j + sum |e|} over row j's runs: what the error bounds scale with. */
  double magnitude(int j) {
    return magnitude[j];
  }

  /** {@code A x}. */
  double[] apply(double[] x) {
    double[] out = new double[background.length];
    apply(x, out, new double[columns + 1]);
    return out;
  }

  /**
   * {@code A x} into {@code out}, with {@code prefix} (at least columns + 1 long) for the prefix
   * sums: the same numbers as {@link #apply(double[])}, without allocating (a reconstruction takes
   * thousands of products per emission).
   */
  void apply(double[] x, double[] out, double[] prefix) {
    prefixSums(x, prefix);
    applyPrefix(prefix, out);
  }

  /**
   * {@code A x} and {@code B x} for a matrix B of the same shape (the mean squares beside the
   * masses), equal to {@code apply(x)} and {@code b.apply(x)} bit for bit: the prefix sums are
   * shared, and when both have the same runs (as the two-level densities give: an entry and its
   * mean square are equal along the same input bins) one pass over the runs computes both rows.
   */
  double[][] applyWith(RunRows b, boolean sameRuns, double[] x) {
    double[][] both = {new double[background.length], new double[background.length]};
    applyWith(b, sameRuns, x, both[0], both[1], new double[columns + 1]);
    return both;
  }

  /**
   * {@link #applyWith(RunRows, boolean, double[])} into {@code out} and {@code outB}, prefix sums
   * in {@code prefix}.
   */
  void applyWith(
      RunRows b, boolean sameRuns, double[] x, double[] out, double[] outB, double[] prefix) {
    prefixSums(x, prefix);
    if (!sameRuns) {
      applyPrefix(prefix, out);
      b.applyPrefix(prefix, outB);
      return;
    }
    double total = prefix[columns];
    int m = background.length;
    for (int j = 0; j < m; j++) {
      double s = background[j] * total;
      double sb = b.background[j] * total;
      for (int r = rowStart[j]; r < rowStart[j + 1]; r++) {
        double range = prefix[to[r]] - prefix[from[r]];
        s += excess[r] * range;
        sb += b.excess[r] * range;
      }
      out[j] = s;
      outB[j] = sb;
    }
  }

  /** Whether b's rows have their runs where this one's have (the same boundaries, any values). */
  boolean sameRuns(RunRows b) {
    return Arrays.equals(rowStart, b.rowStart)
        && Arrays.equals(from, b.from)
        && Arrays.equals(to, b.to);
  }

  private void prefixSums(double[] x, double[] prefix) {
    prefix[0] = 0;
    for (int i = 0; i < columns; i++) {
      prefix[i + 1] = prefix[i] + x[i];
    }
  }

  private void applyPrefix(double[] prefix, double[] out) {
    double total = prefix[columns];
    int m = background.length;
    for (int j = 0; j < m; j++) {
      double s = background[j] * total;
      for (int r = rowStart[j]; r < rowStart[j + 1]; r++) {
        s += excess[r] * (prefix[to[r]] - prefix[from[r]]);
      }
      out[j] = s;
    }
  }

  /** {@code A^T w}. */
  double[] applyTransposed(double[] w) {
    double[] out = new double[columns];
    applyTransposed(w, out, new double[columns + 1]);
    return out;
  }

  /**
   * {@code A^T w} into {@code out}, with {@code steps} (at least columns + 1 long, any content) for
   * the run boundaries.
   */
  void applyTransposed(double[] w, double[] out, double[] steps) {
    Arrays.fill(steps, 0, columns + 1, 0.0);
    double base = 0;
    for (int j = 0; j < background.length; j++) {
      double wj = w[j];
      base += background[j] * wj;
      for (int r = rowStart[j]; r < rowStart[j + 1]; r++) {
        double d = excess[r] * wj;
        steps[from[r]] += d;
        steps[to[r]] -= d;
      }
    }
    double running = 0;
    for (int i = 0; i < columns; i++) {
      running += steps[i];
      out[i] = base + running;
    }
  }

  /** The bound above on {@code |fl(A x)_j - (A x)_j|}, for non-negative x. */
  double applyBound(int j, double[] x) {
    double total = 0;
    for (double v : x) {
      total += v;
    }
    return (2.0 * columns + runsInRow(j) + 5) * 0x1p-53 * magnitude[j] * total;
  }

  /**
   * The bound above on {@code |fl(A^T w)_i - (A^T w)_i|} (the same for every i), for non-negative
   * w.
   */
  double transposedBound(double[] w) {
    double s = 0;
    for (int j = 0; j < w.length; j++) {
      s += magnitude[j] * w[j];
    }
    return (background.length + 4.0 * runs() + 4) * 0x1p-53 * s;
  }
}
