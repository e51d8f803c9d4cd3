package io.ogpm.estimate;

/**
 * A small dense linear program over the mixtures of n columns: maximize {@code c.w} subject to
 * {@code A w <= b}, {@code sum w = 1}, {@code w >= 0}, solved by a tableau simplex, with its dual.
 * For construction-time work ({@link CdfCertificates}): some hundred rows and a few hundred
 * columns.
 *
 * <p><b>Dual.</b> The dual program is: minimize {@code b.y + nu} subject to {@code A^T y + nu >=
 * c}, {@code y >= 0}, nu free. Weak duality: for any feasible w and any dual-feasible (y, nu),
 * {@code c.w <= (A^T y + nu).w = y.(A w) + nu <= y.b + nu} (w is non-negative and sums to 1, y is
 * non-negative). The solver returns both, and at an optimum the two values agree up to rounding.
 *
 * <p><b>Not trusted.</b> The solver works in floating point with fixed tolerances and stops after a
 * bounded number of pivots; its dual may be slightly infeasible or not quite optimal. Callers that
 * need a valid bound re-certify the dual's constant against the exact constraints ({@link
 * CdfCertificates} recomputes nu over every input), so the solver's errors can only cost sharpness,
 * never validity.
 *
 * <p><b>How.</b> The start is the single column whose worst excess {@code max_i (A_ij - b_i)} is
 * least (a caller that knows a feasible mixture appends it as a column, and then starts feasible).
 * Where that column violates some rows, one artificial variable r enters all of them with
 * coefficient -1, pivots in at the worst row (all slacks then non-negative), and phase 1 minimizes
 * r. Phase 2 maximizes c. Pricing is Dantzig's (the largest reduced cost); after {@value
 * #STALL_LIMIT} degenerate pivots in a row it switches to Bland's rule (the lowest index, which
 * cannot cycle) until a pivot makes progress. The ratio test prefers the largest pivot among
 * near-ties, for stability.
 */
final class LinearProgram {
  /** Reduced costs above this improve the objective. */
  static final double OPTIMALITY_TOLERANCE = 1e-9;

  /** Pivots smaller than this are never taken. */
  static final double PIVOT_TOLERANCE = 1e-9;

  /** Infeasibility (phase 1's r) at or below this counts as feasible. */
  static final double FEASIBILITY_TOLERANCE = 1e-9;

  /** Degenerate pivots in a row before Bland's rule takes over. */
  static final int STALL_LIMIT = 20;

  /** How the solve ended. */
  enum Status {
    OPTIMAL,
    INFEASIBLE,
    /** Pivot limit reached: the solution is feasible but maybe not optimal. */
    ITERATION_LIMIT
  }

  /**
   * A solution: the mixture w, its value {@code c.w}, and the dual point (y for the rows of A, nu
   * for {@code sum w = 1}); w is null when infeasible.
   */
  record Solution(Status status, double value, double[] primal, double[] rowDuals, double nu) {
    /** The dual's value {@code b.y + nu} for these right-hand sides. */
    double dualValue(double[] b) {
      double v = nu;
      for (int i = 0; i < b.length; i++) {
        v += rowDuals[i] * b[i];
      }
      return v;
    }
  }

  private final int m;
  private final int n;

  /** Columns: n structural, m slacks, the equality's artificial, phase 1's r, the right side. */
  private final int eqArtificial;

  private final int artificial;
  private final int rhs;

  /** Rows: m inequalities, the equality, the objective (reduced costs, and -value at rhs). */
  private final double[][] tableau;

  private final int[] basis;
  private final boolean[] banned;

  private LinearProgram(double[][] a, double[] b) {
    this.m = b.length;
    this.n = m == 0 ? 0 : a[0].length;
    this.eqArtificial = n + m;
    this.artificial = n + m + 1;
    this.rhs = n + m + 2;
    this.tableau = new double[m + 2][rhs + 1];
    this.basis = new int[m + 1];
    this.banned = new boolean[rhs];
    for (int i = 0; i < m; i++) {
      System.arraycopy(a[i], 0, tableau[i], 0, n);
      tableau[i][n + i] = 1;
      tableau[i][rhs] = b[i];
      basis[i] = n + i;
    }
    java.util.Arrays.fill(tableau[m], 0, n, 1);
    tableau[m][eqArtificial] = 1;
    tableau[m][rhs] = 1;
    basis[m] = eqArtificial;
  }

  /**
   * Maximizes {@code objective.w} subject to {@code a w <= b}, {@code sum w = 1}, {@code w >= 0};
   * {@code a} has b.length rows of objective.length columns.
   */
  static Solution maximize(double[] objective, double[][] a, double[] b) {
    int n = objective.length;
    if (n == 0) {
      throw new IllegalArgumentException("no columns");
    }
    for (double[] row : a) {
      if (row.length != n) {
        throw new IllegalArgumentException("a row has " + row.length + " columns, not " + n);
      }
    }
    if (a.length != b.length) {
      throw new IllegalArgumentException(a.length + " rows but " + b.length + " right sides");
    }
    return new LinearProgram(a, b).solve(objective, a, b);
  }

  private Solution solve(double[] objective, double[][] a, double[] b) {
    int start = leastViolating(a, b);
    pivot(m, start);
    banned[eqArtificial] = true;
    int limit = 50 * (m + n + 10);
    int worst = -1;
    for (int i = 0; i < m; i++) {
      if (tableau[i][rhs] < 0 && (worst < 0 || tableau[i][rhs] < tableau[worst][rhs])) {
        worst = i;
      }
    }
    boolean capped = false;
    if (worst >= 0) {
      for (int i = 0; i < m; i++) {
        if (tableau[i][rhs] < 0) {
          tableau[i][artificial] = -1;
        }
      }
      pivot(worst, artificial);
      double[] phase1 = new double[rhs];
      phase1[artificial] = -1;
      capped = !optimize(phase1, limit);
      int row = rowOf(artificial);
      if (row >= 0 && tableau[row][rhs] > FEASIBILITY_TOLERANCE) {
        return new Solution(Status.INFEASIBLE, Double.NaN, null, new double[m], Double.NaN);
      }
      if (row >= 0) {
        driveOut(row);
      }
    }
    banned[artificial] = true;
    double[] costs = new double[rhs];
    System.arraycopy(objective, 0, costs, 0, n);
    capped |= !optimize(costs, limit);
    return solution(objective, capped);
  }

  /** The column of least worst excess over the right sides: the start. */
  private int leastViolating(double[][] a, double[] b) {
    int best = 0;
    double bestExcess = Double.POSITIVE_INFINITY;
    for (int j = 0; j < n; j++) {
      double excess = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < m && excess < bestExcess; i++) {
        excess = Math.max(excess, a[i][j] - b[i]);
      }
      if (excess < bestExcess) {
        bestExcess = excess;
        best = j;
      }
    }
    return best;
  }

  /** Phase 1's r, basic at zero level, swapped for any column its row can pivot on. */
  private void driveOut(int row) {
    int best = -1;
    for (int j = 0; j < eqArtificial; j++) {
      if (Math.abs(tableau[row][j]) > PIVOT_TOLERANCE
          && (best < 0 || Math.abs(tableau[row][j]) > Math.abs(tableau[row][best]))) {
        best = j;
      }
    }
    if (best >= 0) {
      tableau[row][rhs] = 0;
      pivot(row, best);
    }
    // Otherwise the row is all zeros off r: r stays basic at 0 and no pivot can move it.
  }

  private int rowOf(int column) {
    for (int i = 0; i <= m; i++) {
      if (basis[i] == column) {
        return i;
      }
    }
    return -1;
  }

  /** Simplex iterations to optimality for these costs; false at the pivot limit. */
  private boolean optimize(double[] costs, int limit) {
    double[] z = tableau[m + 1];
    System.arraycopy(costs, 0, z, 0, rhs);
    z[rhs] = 0;
    for (int i = 0; i <= m; i++) {
      double cb = costs[basis[i]];
      if (cb != 0) {
        subtract(z, tableau[i], cb);
      }
    }
    int stalls = 0;
    for (int iteration = 0; iteration < limit; iteration++) {
      boolean bland = stalls >= STALL_LIMIT;
      int entering = entering(z, bland);
      if (entering < 0) {
        return true;
      }
      int leaving = leaving(entering, bland);
      if (leaving < 0) {
        // Unbounded cannot happen over mixtures; a column with no positive entry is a rounding
        // artefact: set it aside.
        banned[entering] = true;
        continue;
      }
      double step = tableau[leaving][rhs] / tableau[leaving][entering];
      stalls = step > 1e-12 ? 0 : stalls + 1;
      pivot(leaving, entering);
    }
    return false;
  }

  private int entering(double[] z, boolean bland) {
    int best = -1;
    for (int j = 0; j < rhs; j++) {
      if (!banned[j] && z[j] > OPTIMALITY_TOLERANCE) {
        if (bland) {
          return j;
        }
        if (best < 0 || z[j] > z[best]) {
          best = j;
        }
      }
    }
    return best;
  }

  /**
   * The ratio test: the row of least {@code rhs / entry} over positive entries; among rows within a
   * small tolerance of it, the largest entry, or under Bland's rule the lowest basic index.
   */
  private int leaving(int column, boolean bland) {
    double least = Double.POSITIVE_INFINITY;
    for (int i = 0; i <= m; i++) {
      double e = tableau[i][column];
      if (e > PIVOT_TOLERANCE) {
        least = Math.min(least, Math.max(0, tableau[i][rhs]) / e);
      }
    }
    if (least == Double.POSITIVE_INFINITY) {
      return -1;
    }
    double reach = least + 1e-12 * (1 + least);
    int best = -1;
    for (int i = 0; i <= m; i++) {
      double e = tableau[i][column];
      if (e > PIVOT_TOLERANCE && Math.max(0, tableau[i][rhs]) / e <= reach) {
        boolean better = best < 0 || (bland ? basis[i] < basis[best] : e > tableau[best][column]);
        if (better) {
          best = i;
        }
      }
    }
    return best;
  }

  private void pivot(int row, int column) {
    double[] p = tableau[row];
    double inverse = 1 / p[column];
    for (int k = 0; k <= rhs; k++) {
      p[k] *= inverse;
    }
    p[column] = 1;
    for (int i = 0; i < tableau.length; i++) {
      if (i != row) {
        double f = tableau[i][column];
        if (f != 0) {
          subtract(tableau[i], p, f);
          tableau[i][column] = 0;
        }
      }
    }
    if (p[rhs] < 0 && p[rhs] > -FEASIBILITY_TOLERANCE) {
      p[rhs] = 0;
    }
    basis[row] = column;
  }

  private static void subtract(double[] target, double[] row, double factor) {
    for (int k = 0; k < target.length; k++) {
      target[k] -= factor * row[k];
    }
  }

  private Solution solution(double[] objective, boolean capped) {
    double[] w = new double[n];
    for (int i = 0; i <= m; i++) {
      if (basis[i] < n) {
        w[basis[i]] = Math.max(0, tableau[i][rhs]);
      }
    }
    double value = 0;
    for (int j = 0; j < n; j++) {
      value += objective[j] * w[j];
    }
    // Reduced cost of slack i is -y_i, of the equality's artificial -nu (both start as identity
    // columns with zero cost).
    double[] z = tableau[m + 1];
    double[] y = new double[m];
    for (int i = 0; i < m; i++) {
      y[i] = Math.max(0, -z[n + i]);
    }
    double nu = -z[eqArtificial];
    return new Solution(capped ? Status.ITERATION_LIMIT : Status.OPTIMAL, value, w, y, nu);
  }
}
