package io.ogpm.estimate;

/**
 * The least constant nu that makes {@code nu + sum_i c_i T_{o_i}(x) >= 1[x <= t]} (or {@code 1[x >
 * t]}) hold for every input x in the domain, not only the grid points: the step that makes a
 * solver's dual a valid bound ({@link CdfCertificates}), whatever the solver's errors.
 *
 * <p>Every {@code T_o} is non-decreasing in x, so on a cell {@code [x_g, x_{g+1}]} it lies between
 * its values at the cell's ends, and {@code sum_i c_i T_{o_i}(x)} is at least the sum taken
 * crosswise: positive coefficients at the smaller end value, negative ones at the larger. The
 * indicator is known exactly at the grid points, and inside a cell {@code (x_g, x_{g+1})} it is
 * constant for a threshold at a grid point t: 1 for {@code x <= t} when {@code g + 1 <= t}, 1 for
 * {@code x > t} when {@code g >= t}. So nu is the largest of the indicator minus the sum at the
 * grid points and of the cells' inner indicator minus their crosswise least sum.
 *
 * <p>The ends' values are taken as the smaller and larger of the two, so a tail computed a rounding
 * error out of order still gets its range. A margin of {@code 2^-36 (1 + sum |c_i|)} covers the
 * tails' rounding (order 1e-12 tolerated by {@link #checkMonotone}) and the rounding of the sums
 * here and at an emission, each of a few terms.
 */
final class CertifiedConstant {
  /** How far a tail may fall between neighbouring grid points: rounding only. */
  static final double MONOTONE_TOLERANCE = 1e-12;

  private CertifiedConstant() {}

  /** Throws unless every tail is non-decreasing in g within {@link #MONOTONE_TOLERANCE}. */
  static void checkMonotone(double[][] tails) {
    for (int g = 1; g < tails.length; g++) {
      if (tails[g].length != tails[0].length) {
        throw new IllegalArgumentException("grid point " + g + " has another number of tails");
      }
      for (int o = 0; o < tails[g].length; o++) {
        if (tails[g][o] < tails[g - 1][o] - MONOTONE_TOLERANCE) {
          throw new IllegalArgumentException(
              "tail " + o + " decreases between grid points " + (g - 1) + " and " + g);
        }
      }
    }
  }

  /**
   * The least valid nu for coefficients {@code c} on tails {@code o}, threshold at grid index t,
   * side 0 ({@code x <= t}) or 1 ({@code x > t}); {@code columns[o][g] = T_o(x_g)} (the tails by
   * output edge, for sequential reads).
   */
  static double of(double[][] columns, int t, int side, int[] o, double[] c) {
    int points = columns[0].length;
    double[] least = new double[points - 1];
    double[] at = new double[points];
    double absolute = 0;
    for (int i = 0; i < o.length; i++) {
      double[] column = columns[o[i]];
      double ci = c[i];
      absolute += Math.abs(ci);
      for (int g = 0; g < points; g++) {
        at[g] += ci * column[g];
      }
      for (int g = 0; g + 1 < points; g++) {
        double a = column[g];
        double b = column[g + 1];
        least[g] += ci * (ci > 0 ? Math.min(a, b) : Math.max(a, b));
      }
    }
    double nu = Double.NEGATIVE_INFINITY;
    for (int g = 0; g < points; g++) {
      nu = Math.max(nu, indicator(g, t, side) - at[g]);
    }
    for (int g = 0; g + 1 < points; g++) {
      boolean inside = side == 0 ? g + 1 <= t : g >= t;
      nu = Math.max(nu, (inside ? 1 : 0) - least[g]);
    }
    return nu + 0x1p-36 * (1 + absolute);
  }

  /** {@code columns[o][g] = tails[g][o]}. */
  static double[][] columns(double[][] tails) {
    double[][] columns = new double[tails[0].length][tails.length];
    for (int g = 0; g < tails.length; g++) {
      for (int o = 0; o < tails[g].length; o++) {
        columns[o][g] = tails[g][o];
      }
    }
    return columns;
  }

  private static double indicator(int g, int t, int side) {
    return (side == 0 ? g <= t : g > t) ? 1 : 0;
  }
}
