package io.ogpm.estimate;

/**
 * One-sided confidence bounds for the mean probability {@code pbar = (1/n) sum p_i} of n
 * independent Bernoulli trials of possibly different probabilities, from their count k: Chernoff's
 * bound {@code P(k/n <= a) <= exp(-n KL(a || pbar))} for {@code a <= pbar} (and its mirror), which
 * holds for unequal probabilities too (the product of the trials' generating functions is at most
 * that of n trials at pbar, by the AM-GM inequality; Hoeffding 1963, section 2). So {@code upper(k,
 * n, L)} is above pbar with probability at least {@code 1 - e^-L}, whatever the p_i.
 *
 * <p>The bound solves {@code n KL(k/n || u) = L} by Newton's method from a point above the root:
 * {@code KL(p || u) >= (u - p)^2 / (2u)} for u above p, so the u where that reaches {@code L / n},
 * {@code p + L/n + sqrt(2 p L/n + (L/n)^2)}, is at or above the root; so is one Newton step from
 * any point (the tangent of a convex function lies below it), and the step starts far nearer, where
 * half the chi-square divergence reaches L/n. KL is convex in u, so every iterate stays at or above
 * the root and stopping anywhere errs on the safe side; the slope at {@link #upperFloor}, below the
 * root, tells when the rest is within {@link #PRECISION}. The lower bound mirrors it. The
 * logarithms are {@link NaturalLog}'s, within a few ulp; the bound is widened by 2^-40, far more
 * than that moves the root.
 */
final class ChernoffBounds {
  private static final int ITERATIONS = 50;

  /**
   * The iteration ends once the bound is within this share of its distance from the observed share
   * above the root: a ten-thousandth of the bound's own width is far below what a band or an
   * interval resolves.
   */
  private static final double PRECISION = 1e-4;

  private ChernoffBounds() {}

  /** A bound at or above pbar with probability at least {@code 1 - e^-logInverseLevel}. */
  static double upper(long k, long n, double logInverseLevel) {
    double p = (double) k / n;
    if (k >= n) {
      return 1;
    }
    double l = logInverseLevel / n;
    double u = p + l + Math.sqrt(2 * p * l + l * l);
    if (!(u < 1)) {
      // KL(p || u) grows without bound as u nears 1 (p < 1), so the root is below 1; a start at
      // 1 - ulp is above it whenever the quadratic start is not below 1.
      u = Math.nextDown(1.0);
      if (n * kl(p, u) < logInverseLevel) {
        return 1;
      }
    }
    // A Newton step from a point near the root lands at or above the root from either side (the
    // tangent of a convex function lies below it). The point: where half the chi-square divergence
    // reaches l, which KL matches to second order in u - p (the floor, where the whole of it
    // does, lies below the root by about as much again).
    double floor = upperFloor(k, n, logInverseLevel);
    // The slope at the floor is at most the slope at the root (convexity, floor <= root): a step
    // of f(u) / floorSlope from u >= root reaches at or below the root.
    double floorSlope = n * (floor - p) / (floor * (1 - floor));
    double near = quadraticRoot(p, 2 * l);
    if (near > p && near < u) {
      double next =
          near - (n * kl(p, near) - logInverseLevel) / (n * (near - p) / (near * (1 - near)));
      if (next > p && next < u) {
        u = next;
      }
    }
    double precision = PRECISION * (floor - p);
    for (int i = 0; i < ITERATIONS; i++) {
      double f = n * kl(p, u) - logInverseLevel;
      if (f <= 0) {
        break;
      }
      double next = u - f / (n * (u - p) / (u * (1 - u)));
      if (!(next < u) || next <= p) {
        break;
      }
      // Newton's iterates from above stay above the root (convexity), and u - root <= f(u) /
      // slope(root) <= f(u) / floorSlope: where that is within the precision, so is next, nearer
      // still, and the steps that would follow only sharpen what no band can use.
      u = next;
      if (f <= precision * floorSlope) {
        break;
      }
    }
    // A margin for the rounding of KL near the root.
    return Math.min(1, u + 0x1p-40);
  }

  /**
   * A value at or below {@link #upper upper(k, n, logInverseLevel)}, found without solving: the
   * slope there bounds the slope at the root from below, which ends {@link #upper}'s iteration. For
   * Bernoulli distributions {@code KL(p || u) <= chi^2(p || u) = (u - p)^2 / (u (1 - u))} (KL is at
   * most the logarithm of 1 + chi^2), so at the root {@code u* > p} of {@code n KL(p || u) = L},
   * with {@code l = L / n}, {@code (u* - p)^2 >= l u* (1 - u*)}: u* lies at or above the larger
   * root of the convex {@code (1 + l) u^2 - (2p + l) u + p^2}, which is negative at p, so that root
   * is {@code (2p + l + sqrt(l^2 + 4 l p (1 - p))) / (2 (1 + l))}, at least p and at most 1. It is
   * lowered by a relative 2^-40, far more than its rounding, and {@link #upper} never returns less
   * than the root itself.
   */
  static double upperFloor(long k, long n, double logInverseLevel) {
    double p = (double) k / n;
    return Math.max(p, quadraticRoot(p, logInverseLevel / n) * (1 - 0x1p-40));
  }

  /** The larger root of {@code (u - p)^2 = m u (1 - u)}, at least p and at most 1. */
  private static double quadraticRoot(double p, double m) {
    return (2 * p + m + Math.sqrt(m * m + 4 * m * p * (1 - p))) / (2 * (1 + m));
  }

  /** A bound at or below pbar with probability at least {@code 1 - e^-logInverseLevel}. */
  static double lower(long k, long n, double logInverseLevel) {
    return 1 - upper(n - k, n, logInverseLevel);
  }

  /**
   * {@code KL(p || u)}, the relative entropy of Bernoulli(p) from Bernoulli(u), for u in (0, 1).
   */
  static double kl(double p, double u) {
    double a = p == 0 ? 0 : p * NaturalLog.of(p / u);
    double b = p == 1 ? 0 : (1 - p) * NaturalLog.of((1 - p) / (1 - u));
    return a + b;
  }
}
