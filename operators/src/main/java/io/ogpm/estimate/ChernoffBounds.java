package io.ogpm.estimate;

/**
 * One-sided confidence bounds for the mean probability {@code pbar = (1/n) sum p_i} of n independent
 * Bernoulli trials of possibly different probabilities, from their count k: Chernoff's bound
 * {@code P(k/n <= a) <= exp(-n KL(a || pbar))} for {@code a <= pbar} (and its mirror), which holds
 * for unequal probabilities too (the product of the trials' generating functions is at most that of
 * n trials at pbar, by the AM-GM inequality; Hoeffding 1963, section 2). So {@code upper(k, n, L)}
 * is above pbar with probability at least {@code 1 - e^-L}, whatever the p_i.
 *
 * <p>The bound solves {@code n KL(k/n || u) = L} by Newton's method from a point above the root
 * (Hoeffding's {@code k/n + sqrt(L / (2n))}): KL is convex in u, so every iterate stays at or above
 * the root and stopping anywhere errs on the safe side. The lower bound mirrors it.
 */
final class ChernoffBounds {
  private static final int ITERATIONS = 50;

  private ChernoffBounds() {}

  /** A bound at or above pbar with probability at least {@code 1 - e^-logInverseLevel}. */
  static double upper(long k, long n, double logInverseLevel) {
    double p = (double) k / n;
    if (k >= n) {
      return 1;
    }
    // KL(p || u) grows without bound as u nears 1 (p < 1), so the root is below 1; a start at
    // 1 - ulp is above it whenever Hoeffding's start is not below 1.
    double u = Math.min(p + Math.sqrt(logInverseLevel / (2.0 * n)), Math.nextDown(1.0));
    if (n * kl(p, u) < logInverseLevel) {
      return 1;
    }
    for (int i = 0; i < ITERATIONS; i++) {
      double f = n * kl(p, u) - logInverseLevel;
      if (f <= 0) {
        break;
      }
      double next = u - f / (n * (u - p) / (u * (1 - u)));
      if (!(next < u) || next <= p) {
        break;
      }
      u = next;
    }
    // A margin for the rounding of KL near the root.
    return Math.min(1, u + 0x1p-40);
  }

  /** A bound at or below pbar with probability at least {@code 1 - e^-logInverseLevel}. */
  static double lower(long k, long n, double logInverseLevel) {
    return 1 - upper(n - k, n, logInverseLevel);
  }

  /** {@code KL(p || u)}, the relative entropy of Bernoulli(p) from Bernoulli(u), for u in (0, 1). */
  static double kl(double p, double u) {
    double a = p == 0 ? 0 : p * Math.log(p / u);
    double b = p == 1 ? 0 : (1 - p) * Math.log((1 - p) / (1 - u));
    return a + b;
  }
}
