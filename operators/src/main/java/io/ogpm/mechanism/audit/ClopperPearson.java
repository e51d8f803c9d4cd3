package io.ogpm.mechanism.audit;

/**
 * Exact (Clopper-Pearson) one-sided confidence bounds for a binomial proportion, from quantiles of
 * the beta distribution. The regularised incomplete beta function is evaluated by its continued
 * fraction (modified Lentz), which converges in about sqrt(max(a, b)) terms; quantiles by
 * bisection to 1e-15. Public for the coverage tests of the estimators' intervals.
 */
public final class ClopperPearson {
  private ClopperPearson() {}

  /** A value below p with probability at least 1 - alpha: {@code Beta(alpha; k, n - k + 1)}. */
  public static double lower(long k, long n, double alpha) {
    if (k == 0) {
      return 0;
    }
    return betaQuantile(alpha, k, n - k + 1.0);
  }

  /** A value above p with probability at least 1 - alpha: {@code Beta(1 - alpha; k + 1, n - k)}. */
  public static double upper(long k, long n, double alpha) {
    if (k == n) {
      return 1;
    }
    return betaQuantile(1 - alpha, k + 1.0, n - k);
  }

  static double betaQuantile(double q, double a, double b) {
    double lo = 0;
    double hi = 1;
    for (int i = 0; i < 200 && hi - lo > 1e-15 * Math.max(lo, 1e-300); i++) {
      double mid = 0.5 * (lo + hi);
      if (regularizedBeta(mid, a, b) < q) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return 0.5 * (lo + hi);
  }

  /** {@code I_x(a, b)}. */
  static double regularizedBeta(double x, double a, double b) {
    if (x <= 0) {
      return 0;
    }
    if (x >= 1) {
      return 1;
    }
    double logFront = a * Math.log(x) + b * Math.log1p(-x) - logBeta(a, b);
    if (x < (a + 1) / (a + b + 2)) {
      return Math.exp(logFront) * continuedFraction(x, a, b) / a;
    }
    return 1 - Math.exp(logFront) * continuedFraction(1 - x, b, a) / b;
  }

  private static double continuedFraction(double x, double a, double b) {
    double tiny = 1e-300;
    double c = 1;
    double d = 1 - (a + b) * x / (a + 1);
    d = Math.abs(d) < tiny ? tiny : d;
    d = 1 / d;
    double h = d;
    for (int m = 1; m < 100_000; m++) {
      int m2 = 2 * m;
      double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
      d = 1 + aa * d;
      d = Math.abs(d) < tiny ? tiny : d;
      c = 1 + aa / c;
      c = Math.abs(c) < tiny ? tiny : c;
      d = 1 / d;
      h *= d * c;
      aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
      d = 1 + aa * d;
      d = Math.abs(d) < tiny ? tiny : d;
      c = 1 + aa / c;
      c = Math.abs(c) < tiny ? tiny : c;
      d = 1 / d;
      double delta = d * c;
      h *= delta;
      if (Math.abs(delta - 1) < 1e-15) {
        break;
      }
    }
    return h;
  }

  static double logBeta(double a, double b) {
    return logGamma(a) + logGamma(b) - logGamma(a + b);
  }

  /** Lanczos approximation (g = 7, n = 9), relative error below 1e-15. */
  static double logGamma(double x) {
    double[] c = {
      0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
      -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
      1.5056327351493116e-7
    };
    if (x < 0.5) {
      return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
    }
    x -= 1;
    double s = c[0];
    for (int i = 1; i < 9; i++) {
      s += c[i] / (x + i);
    }
    double t = x + 7.5;
    return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(s);
  }
}
