package io.ogpm.estimate;

import java.util.Arrays;
import java.util.List;

/**
 * Upper bounds on the share {@code F(t)} of a window's inputs at or below t, and on the share above
 * t, from simultaneous bounds {@code L_o <= Q_o <= U_o} on the window's tail statistics {@code Q_o
 * = (1/n) sum_i T_o(x_i)}, {@code T_o(x) = P(Y >= e_o | x)} non-decreasing in x, at a fixed set of
 * thresholds t (input-bin edges on the grid {@code x_g = lo + (hi - lo) g / C}).
 *
 * <p><b>Why it holds.</b> Each bound is a dual certificate of the linear program {@code max F(t)}
 * over input distributions consistent with the bounds (LP weak duality): coefficients {@code c_o}
 * and a constant nu with {@code nu + sum_o c_o T_o(x) >= 1[x <= t]} for every x in [lo, hi] give
 * {@code F(t) = (1/n) sum_i 1[x_i <= t] <= nu + sum_o c_o Q_o <= nu + sum_{c_o > 0} c_o U_o +
 * sum_{c_o < 0} c_o L_o}, whatever the inputs. The share above t is the same with {@code 1[x > t]}.
 * The inequality must hold for every input, not only grid points, and that is what {@link
 * CertifiedConstant} ensures: nu is computed, not taken from the solver.
 *
 * <p><b>Why a family.</b> The best certificate depends on the bounds (on the data), and solving the
 * program at each emission is too slow. At construction, independent of any data, {@link
 * CdfDesigns} solves the program on a few design data sets per threshold and side, each giving a
 * sparse certificate (its dual); an emission takes the least of the family's bounds. A family that
 * misses the data's best certificate only loses sharpness: every member is valid.
 *
 * <p><b>Layout.</b> Certificates are stored flat, for emission speed: slot {@code 2 j + side} (side
 * 0 for {@code x <= t_j}, 1 for {@code x > t_j}) owns certificates {@code family[slot] ..
 * family[slot + 1]}; certificate k has constant {@code constant[k]} and terms {@code terms[k] ..
 * terms[k + 1]}, its positive coefficients (taken at U) before {@code negatives[k]} and its
 * negative ones (taken at L) from there.
 */
final class CdfCertificates {
  private final int thresholds;
  private final int[] family;
  private final double[] constant;
  private final int[] terms;
  private final int[] negatives;
  private final int[] tail;
  private final double[] coefficient;

  private CdfCertificates(int thresholds, List<List<Certificate>> slots) {
    this.thresholds = thresholds;
    this.family = new int[slots.size() + 1];
    int count = 0;
    int termCount = 0;
    for (List<Certificate> slot : slots) {
      count += slot.size();
      for (Certificate c : slot) {
        termCount += c.tails().length;
      }
    }
    this.constant = new double[count];
    this.terms = new int[count + 1];
    this.negatives = new int[count];
    this.tail = new int[termCount];
    this.coefficient = new double[termCount];
    int k = 0;
    int term = 0;
    for (int s = 0; s < slots.size(); s++) {
      family[s] = k;
      for (Certificate c : slots.get(s)) {
        constant[k] = c.constant();
        terms[k] = term;
        for (boolean positive : new boolean[] {true, false}) {
          if (!positive) {
            negatives[k] = term;
          }
          for (int i = 0; i < c.tails().length; i++) {
            if (c.coefficients()[i] > 0 == positive) {
              tail[term] = c.tails()[i];
              coefficient[term++] = c.coefficients()[i];
            }
          }
        }
        k++;
      }
    }
    family[slots.size()] = k;
    terms[k] = term;
  }

  /**
   * One certificate: {@code nu + sum_i coefficients[i] T_{tails[i]}(x) >= indicator(x)} for every
   * input x (certified).
   */
  record Certificate(int[] tails, double[] coefficients, double constant) {
    /** Same terms, coefficients and constant within {@code tolerance}. */
    boolean sameAs(Certificate other, double tolerance) {
      if (!Arrays.equals(tails, other.tails) || Math.abs(constant - other.constant) > tolerance) {
        return false;
      }
      for (int i = 0; i < tails.length; i++) {
        if (Math.abs(coefficients[i] - other.coefficients[i]) > tolerance) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * The families for every threshold {@code x_{edges[j]}} and both sides, from the default designs
   * ({@link CdfDesigns#DEFAULT}).
   *
   * @param tails {@code tails[g][o] = T_o(x_g)}, g = 0..C, o = 0..M, non-decreasing in g
   * @param edges grid indices of the thresholds, increasing, within 0..C
   */
  static CdfCertificates build(double[][] tails, int[] edges) {
    return build(tails, edges, CdfDesigns.DEFAULT);
  }

  /** The families from these designs. */
  static CdfCertificates build(double[][] tails, int[] edges, CdfDesigns designs) {
    CertifiedConstant.checkMonotone(tails);
    for (int j = 0; j < edges.length; j++) {
      if (edges[j] < 0 || edges[j] >= tails.length || (j > 0 && edges[j] <= edges[j - 1])) {
        throw new IllegalArgumentException("edges must increase within the grid: " + edges[j]);
      }
    }
    return new CdfCertificates(edges.length, designs.certificates(tails, edges));
  }

  /** Number of thresholds. */
  int thresholds() {
    return thresholds;
  }

  /** The number of certificates for threshold j, side 0 ({@code x <= t}) or 1 ({@code x > t}). */
  int familySize(int edgeIndex, int side) {
    int slot = 2 * edgeIndex + side;
    return family[slot + 1] - family[slot];
  }

  /**
   * An upper bound on the share of inputs at or below {@code x_{edges[edgeIndex]}}, given {@code
   * lowerQ[o] <= Q_o <= upperQ[o]} for o = 1..M-1 (entries 0 and M unused); 1 for an empty family.
   */
  double upper(int edgeIndex, double[] lowerQ, double[] upperQ) {
    return least(2 * edgeIndex, lowerQ, upperQ);
  }

  /** An upper bound on the share of inputs above {@code x_{edges[edgeIndex]}}, likewise. */
  double upperOfComplement(int edgeIndex, double[] lowerQ, double[] upperQ) {
    return least(2 * edgeIndex + 1, lowerQ, upperQ);
  }

  private double least(int slot, double[] lowerQ, double[] upperQ) {
    double best = 1;
    for (int k = family[slot]; k < family[slot + 1]; k++) {
      double v = constant[k];
      int mid = negatives[k];
      for (int i = terms[k]; i < mid; i++) {
        v += coefficient[i] * upperQ[tail[i]];
      }
      for (int i = mid; i < terms[k + 1]; i++) {
        v += coefficient[i] * lowerQ[tail[i]];
      }
      best = Math.min(best, v);
    }
    return Math.max(0, best);
  }
}
