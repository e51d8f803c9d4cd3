package io.ogpm.estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * The design data sets that {@link CdfCertificates} draws its certificates from, and the linear
 * programs that turn each into one certificate.
 *
 * <p>For a threshold t and side, each design is a normal spread of inputs, {@code spread} of the
 * domain wide, centred {@code offset} thresholds (their mean spacing) beyond t on the side that
 * makes the bound informative (above t for the share at or below t, below t for the share above
 * it), at a design window size n: its exact statistics Q (on the program's grid), and Chernoff
 * bounds L and U around the count {@code round(n Q_o)} at level {@code alpha / (2 (M - 1))} each,
 * as an emission would hold them. The program {@code max F(t)} subject to {@code L <= Q <= U} over
 * mixtures of a subsampled grid ({@code pointsPerBin} points between neighbouring thresholds, so
 * each solve stays small) has a dual that is a sparse certificate ({@link LinearProgram}); only the
 * coefficients are kept, the constant is recomputed over every input ({@link CertifiedConstant}).
 * The design's own mixture is a column of the program, so the solver starts feasible (it is a
 * mixture of the other columns, so it changes neither the program's value nor its dual).
 *
 * <p>Nothing here affects validity, only which certificates the family holds and so how sharp an
 * emission's bound is.
 *
 * @param offsets distances of the designs' centres from t, in the thresholds' mean spacing
 * @param spreads the designs' standard deviations, shares of the domain
 * @param sizes the designs' window sizes
 * @param alpha the designs' simultaneous error level
 * @param pointsPerBin the program's grid points between neighbouring thresholds
 */
record CdfDesigns(
    double[] offsets, double[] spreads, long[] sizes, double alpha, int pointsPerBin) {
  /**
   * Offsets 0, 4 and 10 thresholds (0, 2 and 5 input bins at the cumulative band's two thresholds a
   * bin), spreads 5 % and 15 % of the domain, sizes 1e3, 1e4 and 1e5, level 5 %, 4 points between
   * neighbouring thresholds: 18 programs per threshold and side. Centred designs serve thresholds
   * inside the data (the middle quantiles), offset ones its flanks and far tails, the wide spread
   * data wider than the narrow one, the large sizes the many-window certificates only large windows
   * can use. Fewer designs leave bounds at thresholds far from the data well above the full
   * program's.
   */
  static final CdfDesigns DEFAULT =
      new CdfDesigns(
          new double[] {0, 4, 10},
          new double[] {0.05, 0.15},
          new long[] {1_000, 10_000, 100_000},
          0.05,
          4);

  /** Coefficients below this are dropped (the constant is recertified without them). */
  static final double NEGLIGIBLE = 1e-9;

  /** Certificates this close are one. */
  static final double SAME = 1e-9;

  /**
   * A threshold's programs take the windows whose edges lie within this share of the domain of it.
   * Where a mechanism is wide (low epsilon) a single window is already the best certificate, and
   * the single-window bounds beside the families take every window; where it is narrow, the best
   * certificates combine a few windows near the threshold. Fewer rows make each program several
   * times cheaper; a window left out only loses sharpness, never validity.
   */
  static final double REACH = 0.25;

  /** The tails whose middles lie within {@link #REACH} of t; the nearest one if none does. */
  private static int[] near(int[] middle, int t, int cells) {
    double reach = REACH * cells;
    int nearest = 1;
    List<Integer> used = new ArrayList<>();
    for (int o = 1; o < middle.length; o++) {
      if (Math.abs(middle[o] - t) <= reach) {
        used.add(o);
      }
      if (Math.abs(middle[o] - t) < Math.abs(middle[nearest] - t)) {
        nearest = o;
      }
    }
    return used.isEmpty()
        ? new int[] {nearest}
        : used.stream().mapToInt(Integer::intValue).toArray();
  }

  /** For every threshold j and side s, slot {@code 2 j + s}: the family, duplicates removed. */
  List<List<CdfCertificates.Certificate>> certificates(double[][] tails, int[] edges) {
    int cells = tails.length - 1;
    int outputs = tails[0].length - 1;
    int[] grid = grid(edges, cells);
    double[][] byEdge = CertifiedConstant.columns(tails);
    double[][] base = new double[2 * (outputs - 1)][grid.length + 1];
    for (int o = 1; o < outputs; o++) {
      for (int k = 0; k < grid.length; k++) {
        base[o - 1][k] = tails[grid[k]][o];
        base[outputs - 1 + o - 1][k] = -tails[grid[k]][o];
      }
    }
    double spacing =
        edges.length > 1 ? (double) (edges[edges.length - 1] - edges[0]) / (edges.length - 1) : 1;
    // Where each tail crosses one half: about where its output edge lies among the inputs.
    int[] middle = new int[outputs];
    for (int o = 1; o < outputs; o++) {
      int g = 0;
      while (g < cells && tails[g][o] < 0.5) {
        g++;
      }
      middle[o] = g;
    }
    // Each threshold's programs are independent of the others': solved in parallel, in order.
    return IntStream.range(0, 2 * edges.length)
        .parallel()
        .mapToObj(
            slot -> family(tails, byEdge, grid, base, middle, spacing, edges[slot / 2], slot % 2))
        .toList();
  }

  /** The family for threshold t (a grid index) and side, duplicates removed. */
  private List<CdfCertificates.Certificate> family(
      double[][] tails,
      double[][] byEdge,
      int[] grid,
      double[][] base,
      int[] middle,
      double spacing,
      int t,
      int side) {
    int cells = tails.length - 1;
    int outputs = tails[0].length - 1;
    List<CdfCertificates.Certificate> family = new ArrayList<>();
    if (t == cells) {
      // Every input is at or below the top, none above: a constant bound, no data needed.
      int[] none = new int[0];
      double nu = CertifiedConstant.of(byEdge, t, side, none, new double[0]);
      family.add(new CdfCertificates.Certificate(none, new double[0], nu));
      return family;
    }
    int[] used = near(middle, t, cells);
    int rows = 2 * used.length;
    double[][] a = new double[rows][];
    for (int i = 0; i < used.length; i++) {
      a[i] = base[used[i] - 1].clone();
      a[used.length + i] = base[outputs - 1 + used[i] - 1].clone();
    }
    double[] b = new double[rows];
    double[] objective = new double[grid.length + 1];
    for (int k = 0; k < grid.length; k++) {
      // Above t, inputs just above t act as at t: the program counts t in, as certifying does.
      objective[k] = (side == 0 ? grid[k] <= t : grid[k] >= t) ? 1 : 0;
    }
    // The level of every window's bounds, as an emission holds them.
    double level = Math.log(2 * (outputs - 1) / alpha);
    for (double[] design : designs()) {
      double centre = t + (side == 0 ? 1 : -1) * design[0] * spacing;
      double[] w = weights(grid, centre, design[1] * cells);
      double[] q = new double[outputs];
      for (int k = 0; k < grid.length; k++) {
        for (int o = 1; o < outputs; o++) {
          q[o] += w[k] * tails[grid[k]][o];
        }
      }
      double mass = 0;
      for (int k = 0; k < grid.length; k++) {
        mass += w[k] * objective[k];
      }
      objective[grid.length] = mass;
      for (int i = 0; i < used.length; i++) {
        a[i][grid.length] = q[used[i]];
        a[used.length + i][grid.length] = -q[used[i]];
      }
      for (long n : sizes) {
        for (int i = 0; i < used.length; i++) {
          long count = Math.round(q[used[i]] * n);
          b[i] = ChernoffBounds.upper(count, n, level);
          b[used.length + i] = -ChernoffBounds.lower(count, n, level);
        }
        CdfCertificates.Certificate c = certificate(byEdge, t, side, objective, a, b, used);
        if (c != null && family.stream().noneMatch(f -> f.sameAs(c, SAME))) {
          family.add(c);
        }
      }
    }
    return family;
  }

  /** Every pair {offset, spread}. */
  private List<double[]> designs() {
    List<double[]> d = new ArrayList<>();
    for (double offset : offsets) {
      for (double spread : spreads) {
        d.add(new double[] {offset, spread});
      }
    }
    return d;
  }

  private static CdfCertificates.Certificate certificate(
      double[][] byEdge,
      int t,
      int side,
      double[] objective,
      double[][] a,
      double[] b,
      int[] used) {
    LinearProgram.Solution s = LinearProgram.maximize(objective, a, b);
    if (s.status() == LinearProgram.Status.INFEASIBLE) {
      return null;
    }
    double[] y = s.rowDuals();
    int count = 0;
    double[] c = new double[used.length];
    for (int i = 0; i < used.length; i++) {
      c[i] = y[i] - y[used.length + i];
      if (Math.abs(c[i]) > NEGLIGIBLE) {
        count++;
      }
    }
    int[] o = new int[count];
    double[] coefficients = new double[count];
    int k = 0;
    for (int i = 0; i < used.length; i++) {
      if (Math.abs(c[i]) > NEGLIGIBLE) {
        o[k] = used[i];
        coefficients[k++] = c[i];
      }
    }
    double nu = CertifiedConstant.of(byEdge, t, side, o, coefficients);
    return new CdfCertificates.Certificate(o, coefficients, nu);
  }

  /**
   * The program's grid: the edges, the domain's ends, and {@code pointsPerBin} points evenly
   * between each neighbouring pair of those.
   */
  private int[] grid(int[] edges, int cells) {
    TreeSet<Integer> anchors = new TreeSet<>();
    anchors.add(0);
    anchors.add(cells);
    for (int e : edges) {
      anchors.add(e);
    }
    TreeSet<Integer> points = new TreeSet<>(anchors);
    Integer previous = null;
    for (int e : anchors) {
      if (previous != null) {
        for (int i = 1; i < pointsPerBin; i++) {
          points.add(previous + (int) Math.round((double) i * (e - previous) / pointsPerBin));
        }
      }
      previous = e;
    }
    return points.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * A normal spread's weights on the grid (in grid units), each point standing for half its gaps,
   * normalized to sum 1.
   */
  private static double[] weights(int[] grid, double centre, double sd) {
    double[] w = new double[grid.length];
    double total = 0;
    for (int k = 0; k < grid.length; k++) {
      double left = k > 0 ? grid[k] - grid[k - 1] : 0;
      double right = k + 1 < grid.length ? grid[k + 1] - grid[k] : 0;
      double z = (grid[k] - centre) / sd;
      w[k] = Math.exp(-0.5 * z * z) * (left + right) / 2;
      total += w[k];
    }
    for (int k = 0; k < grid.length; k++) {
      w[k] /= total;
    }
    return w;
  }
}
