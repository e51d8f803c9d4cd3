package io.ogpm.estimate;

/**
 * The best vertex of {@code {A w <= b, sum w = 1, w >= 0}} by brute force, for testing {@link
 * LinearProgram}: every choice of n - 1 tight inequalities (rows of A or {@code w_j >= 0}) with the
 * equality, solved by Gaussian elimination, kept where feasible. A bounded non-empty polytope has
 * its maximum at a vertex.
 */
final class VertexEnumeration {
  private VertexEnumeration() {}

  /** The largest {@code c.w} over the vertices; NaN when there are none (infeasible). */
  static double best(double[] c, double[][] a, double[] b) {
    int n = c.length;
    int m = b.length;
    double best = Double.NaN;
    int total = m + n;
    int[] chosen = new int[n - 1];
    for (long mask = 0; mask < 1L << total; mask++) {
      if (Long.bitCount(mask) != n - 1) {
        continue;
      }
      int k = 0;
      for (int i = 0; i < total; i++) {
        if ((mask >> i & 1) == 1) {
          chosen[k++] = i;
        }
      }
      double[] w = vertex(chosen, a, b, n);
      if (w != null && feasible(w, a, b)) {
        double v = 0;
        for (int j = 0; j < n; j++) {
          v += c[j] * w[j];
        }
        best = Double.isNaN(best) ? v : Math.max(best, v);
      }
    }
    return best;
  }

  private static double[] vertex(int[] tight, double[][] a, double[] b, int n) {
    double[][] system = new double[n][n + 1];
    java.util.Arrays.fill(system[0], 0, n, 1);
    system[0][n] = 1;
    for (int r = 0; r < tight.length; r++) {
      int i = tight[r];
      if (i < b.length) {
        System.arraycopy(a[i], 0, system[r + 1], 0, n);
        system[r + 1][n] = b[i];
      } else {
        system[r + 1][i - b.length] = 1;
      }
    }
    for (int col = 0; col < n; col++) {
      int pivot = col;
      for (int r = col + 1; r < n; r++) {
        if (Math.abs(system[r][col]) > Math.abs(system[pivot][col])) {
          pivot = r;
        }
      }
      if (Math.abs(system[pivot][col]) < 1e-10) {
        return null;
      }
      double[] swap = system[col];
      system[col] = system[pivot];
      system[pivot] = swap;
      for (int r = 0; r < n; r++) {
        if (r != col) {
          double f = system[r][col] / system[col][col];
          for (int k = col; k <= n; k++) {
            system[r][k] -= f * system[col][k];
          }
        }
      }
    }
    double[] w = new double[n];
    for (int j = 0; j < n; j++) {
      w[j] = system[j][n] / system[j][j];
    }
    return w;
  }

  private static boolean feasible(double[] w, double[][] a, double[] b) {
    for (double v : w) {
      if (v < -1e-9) {
        return false;
      }
    }
    for (int i = 0; i < b.length; i++) {
      double lhs = 0;
      for (int j = 0; j < w.length; j++) {
        lhs += a[i][j] * w[j];
      }
      if (lhs > b[i] + 1e-9) {
        return false;
      }
    }
    return true;
  }
}
