package io.ogpm.mechanism;

/**
 * The paper's closed-form square errors, kept verbatim as cross-checks of the exact piecewise
 * integration in {@link PiecewiseDistribution#expectedError}. Both are for the absolute-error
 * optimum ({@code p = e^(eps/2)}), the only one the paper gives in closed form.
 */
final class PaperClosedForms {
  private PaperClosedForms() {}

  /**
   * Appendix "MSE of the Optimal GPM": the MSE of Theorem 3's mechanism at x in [0, 1), with {@code
   * C = (e^(eps/2) - 1) / (2 e^eps - 2)} and {@code p = e^(eps/2)}.
   */
  static double classicalMse(double epsilon, double x) {
    Checks.positive("epsilon", epsilon);
    double p = Math.exp(epsilon / 2);
    double t = Math.exp(epsilon);
    double c = Math.expm1(epsilon / 2) / (2 * Math.expm1(epsilon));
    if (x < c) {
      return p / 3 * (cube(2 * c - x) + cube(x)) + p / (3 * t) * (cube(1 - x) - cube(2 * c - x));
    }
    if (x < 1 - c) {
      return p / (3 * t) * (-2 * cube(c) + 3 * x * x - 3 * x + 1) + p / 3 * (2 * cube(c));
    }
    return p / (3 * t) * (cube(1 - 2 * c - x) + cube(x))
        + p / 3 * (cube(1 - x) - cube(1 - 2 * c - x));
  }

  /**
   * Theorem "circular MSE": the MSE of Theorem 4's mechanism on [0, 2pi), the same for every x:
   * {@code 2/3 ((pi^3 - C^3) p / e^eps + C^3 p)} with {@code C = pi (e^(eps/2) - 1) / (e^eps - 1)}
   * and {@code p = e^(eps/2) / 2pi}.
   */
  static double circularMse(double epsilon) {
    Checks.positive("epsilon", epsilon);
    double p = Math.exp(epsilon / 2) / (2 * Math.PI);
    double t = Math.exp(epsilon);
    double c = Math.PI * Math.expm1(epsilon / 2) / Math.expm1(epsilon);
    return 2.0 / 3 * ((cube(Math.PI) - cube(c)) * p / t + cube(c) * p);
  }

  private static double cube(double v) {
    return v * v * v;
  }
}
