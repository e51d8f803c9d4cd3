package io.ogpm.mechanism.baseline;

/**
 * {@code integral_0^a t^k e^(-t/beta) dt = beta^(k+1) k! P(k+1, a/beta)}, with P the regularised
 * lower incomplete gamma function for integer order: {@code P(n, r) = 1 - e^-r sum_{j<n} r^j/j!}.
 * For r below n + 1 the complement is summed as the series {@code e^-r sum_{j>=n} r^j/j!}, which
 * has no cancellation; above it, the finite sum is subtracted from 1, which has none either.
 */
final class ExponentialMoments {
  private ExponentialMoments() {}

  /** {@code integral_0^a t^k e^(-t/beta) dt} for k = 0, 1, 2 and a >= 0. */
  static double partial(int k, double a, double beta) {
    if (a <= 0) {
      return 0;
    }
    double r = a / beta;
    double factorial = k == 2 ? 2 : 1;
    return Math.pow(beta, k + 1) * factorial * lowerRegularizedGamma(k + 1, r);
  }

  /**
   * {@code integral_0^1 |y - z|^k e^(-|y - z|/beta) dy} for z in [0, 1] and k = 0, 1, 2: the unit
   * domain's two sides of the input, {@code partial(k, z, beta) + partial(k, 1 - z, beta)}.
   */
  static double aroundInput(int k, double z, double beta) {
    return partial(k, z, beta) + partial(k, 1 - z, beta);
  }

  /** {@code P(n, r)} for a positive integer n and r >= 0. */
  static double lowerRegularizedGamma(int n, double r) {
    if (r == 0) {
      return 0;
    }
    if (r < n + 1) {
      // e^-r sum_{j>=n} r^j / j!
      double term = Math.exp(-r);
      for (int j = 1; j <= n; j++) {
        term *= r / j;
      }
      double sum = 0;
      for (int j = n; j < n + 200; j++) {
        sum += term;
        term *= r / (j + 1);
        if (term < sum * 1e-18) {
          break;
        }
      }
      return sum;
    }
    double term = 1;
    double sum = 1;
    for (int j = 1; j < n; j++) {
      term *= r / j;
      sum += term;
    }
    return 1 - Math.exp(-r) * sum;
  }
}
