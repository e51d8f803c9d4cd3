package io.ogpm.mechanism.baseline;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.TwoLevelMechanism;

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
public final class SquareWave implements TwoLevelMechanism {
  /** Where the outputs live. */
  public enum Output {
    ORIGINAL,
    COMPRESSED
  }

  private final double epsilon;
  private final Output output;
  private final double b;
  private final double scale;
  private final double offset;
  private final double low;

  private SquareWave(double epsilon, Output output) {
    this.epsilon = epsilon;
    this.output = output;
    this.b = halfWidth(epsilon);
    this.scale = output == Output.ORIGINAL ? 1 : 1 / (1 + 2 * b);
    this.offset = output == Output.ORIGINAL ? 0 : b / (1 + 2 * b);
    double q = 1 / (2 * b * Math.exp(epsilon) + 1);
    this.low = q / scale;
  }

  public static SquareWave of(double epsilon, Output output) {
    Checks.positive("epsilon", epsilon);
    return new SquareWave(epsilon, Checks.notNull("output", output));
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
  public double epsilon() {
    return epsilon;
  }

  @Override
  public boolean circular() {
    return false;
  }

  @Override
  public double outputLo() {
    return offset - scale * b;
  }

  @Override
  public double outputHi() {
    return offset + scale * (1 + b);
  }

  @Override
  public double backgroundMass() {
    return (1 + 2 * b) / (2 * b * Math.exp(epsilon) + 1);
  }

  @Override
  public double bumpLength() {
    return scale * 2 * b;
  }

  @Override
  public double bumpStart(double z) {
    return offset + scale * (z - b);
  }

  @Override
  public double lowDensity() {
    return low;
  }

  @Override
  public double highDensity() {
    return low * Math.exp(epsilon);
  }

  @Override
  public String toString() {
    return (output == Output.ORIGINAL ? "SW" : "SW-C") + "{epsilon=" + epsilon + ", b=" + b + "}";
  }
}
