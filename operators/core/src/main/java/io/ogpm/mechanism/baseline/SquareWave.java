package io.ogpm.mechanism.baseline;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.Checks;

/**
 * The Square Wave mechanism (SW) of Li et al. (SIGMOD 2020): input v in [0, 1], output in [-b, 1 +
 * b) with density {@code p = e^eps / (2b e^eps + 1)} on {@code [v - b, v + b)} and {@code q = 1 /
 * (2b e^eps + 1)} elsewhere, where {@code b = (eps e^eps - e^eps + 1) / (2 e^eps (e^eps - 1 -
 * eps))}. {@link Output#COMPRESSED} (the paper's SW-C) maps [-b, 1 + b) linearly onto [0, 1).
 *
 * <p>The numerator and the bracket of b both vanish like eps^2; below eps = 0.5 they are summed as
 * series so that b keeps full precision.
 */
@Internal
public final class SquareWave extends AffineTwoLevel {
  /** Where the outputs live. */
  public enum Output {
    ORIGINAL,
    COMPRESSED
  }

  private final double b;

  private SquareWave(
      double epsilon, Output output, double b, double scale, double offset, double low) {
    super(epsilon, output == Output.ORIGINAL ? "SW" : "SW-C", scale, offset, low);
    this.b = b;
  }

  public static SquareWave of(double epsilon, Output output) {
    Checks.positive("epsilon", epsilon);
    Checks.notNull("output", output);
    double b = halfWidth(epsilon);
    boolean original = output == Output.ORIGINAL;
    double scale = original ? 1 : 1 / (1 + 2 * b);
    double offset = original ? 0 : b / (1 + 2 * b);
    double q = 1 / (2 * b * Math.exp(epsilon) + 1);
    return new SquareWave(epsilon, output, b, scale, offset, q / scale);
  }

  /** SW's b: {@code (eps e^eps - e^eps + 1) / (2 e^eps (e^eps - 1 - eps))}. */
  static double halfWidth(double eps) {
    double numerator;
    double bracket;
    if (eps < 0.5) {
      // eps e^eps - (e^eps - 1) = sum_{k>=2} eps^k (k - 1)/k!;  e^eps - 1 - eps = sum_{k>=2}
      // eps^k/k!
      numerator = 0;
      bracket = 0;
      double term = eps; // eps^k / k! for k = 1
      for (int k = 2; k < 40; k++) {
        term *= eps / k;
        numerator += term * (k - 1);
        bracket += term;
      }
    } else {
      numerator = eps * Math.exp(eps) - Math.expm1(eps);
      bracket = Math.expm1(eps) - eps;
    }
    double denominator = 2 * Math.exp(eps) * bracket;
    // From eps = 355 the denominator overflows (b would be 0): divide by e^eps first there.
    return Double.isFinite(denominator)
        ? numerator / denominator
        : numerator / Math.exp(eps) / (2 * bracket);
  }

  /** SW's b. */
  public double halfWidth() {
    return b;
  }

  @Override
  double ownOutputLo() {
    return -b;
  }

  @Override
  double ownOutputHi() {
    return 1 + b;
  }

  @Override
  double ownBumpLength() {
    return 2 * b;
  }

  @Override
  double ownBumpStart(double z) {
    return z - b;
  }

  @Override
  public double backgroundMass() {
    return (1 + 2 * b) / (2 * b * Math.exp(epsilon()) + 1);
  }

  @Override
  String shapeParameter() {
    return "b=" + b;
  }
}
