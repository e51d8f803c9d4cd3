package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;

/**
 * The optimal unbiased three-piece mechanism (Theorem 5, OGPM-U): input [0, 1], output domain
 * enlarged to [-C, C + 1) with {@code C = (e^(eps/2) + 1) / (e^(eps/2) - 1)}, high density {@code p
 * = e^(eps/2) / (2C + 1)} on
 *
 * <pre>
 *   l(x) = (C + 1)/2 * x - (3C + 1)(C - 1) / (4C)
 *   r(x) = (C + 1)/2 * x + (C + 1)(C - 1) / (4C)
 * </pre>
 *
 * and {@code p / e^eps} elsewhere, so that {@code E[M(x)] = x} (appendix "Proof of Theorem 5").
 * {@code e^(eps/2) - 1} is computed with {@code expm1} so that C is accurate at small eps.
 */
@Internal
public final class UnbiasedOgpm implements TwoLevelMechanism {
  private final double epsilon;
  private final double c;
  private final double high;
  private final double low;
  private final double slope;
  private final double leftOffset;
  private final double central;
  private final double invHigh;
  private final double invLow;
  private final double rightShift;

  private UnbiasedOgpm(double epsilon) {
    this.epsilon = epsilon;
    double sm1 = Math.expm1(epsilon / 2);
    // C - 1 = 2 / (e^(eps/2) - 1), computed directly: C - 1 from a rounded C loses its relative
    // precision when eps is large and C is close to 1.
    double cm1 = 2 / sm1;
    this.c = 1 + cm1;
    double width = 2 * c + 1;
    this.high = Math.exp(epsilon / 2) / width;
    this.low = Math.exp(-epsilon / 2) / width;
    this.slope = (c + 1) / 2;
    this.leftOffset = (3 * c + 1) * cm1 / (4 * c);
    // r - l = (C - 1)(2C + 1) / (2C)
    this.central = cm1 * (2 * c + 1) / (2 * c);
    this.invHigh = 1 / high;
    this.invLow = 1 / low;
    this.rightShift = (high - low) * central * invLow;
    this.topOutput = Math.nextDown(c + 1);
  }

  private final double topOutput;

  /** Theorem 5 at the given epsilon. */
  public static UnbiasedOgpm of(double epsilon) {
    Checks.positive("epsilon", epsilon);
    if (epsilon > OgpmShape.MAX_EPSILON) {
      throw new IllegalArgumentException(
          "epsilon must be <= " + OgpmShape.MAX_EPSILON + " (e^epsilon overflows), got " + epsilon);
    }
    return new UnbiasedOgpm(epsilon);
  }

  /** The enlargement C of Theorem 5. */
  public double enlargement() {
    return c;
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
    return -c;
  }

  @Override
  public double outputHi() {
    return c + 1;
  }

  /** Left end l(z) of the central piece. */
  public double centralStart(double z) {
    return slope * z - leftOffset;
  }

  @Override
  public double backgroundMass() {
    return low * (2 * c + 1);
  }

  @Override
  public double bumpLength() {
    return central;
  }

  @Override
  public double bumpStart(double z) {
    return centralStart(z);
  }

  @Override
  public double lowDensity() {
    return low;
  }

  @Override
  public double highDensity() {
    return high;
  }

  /** Branch-free, as {@link ClassicalOgpm#inverseCdf}, on [-C, C + 1). */
  @Override
  public double inverseCdf(double z, double u) {
    double l = slope * z - leftOffset;
    double left = u * invLow;
    double centre = l + c + (u - low * (l + c)) * invHigh;
    double right = left - rightShift;
    return Math.min(Math.min(left, Math.max(centre, right)) - c, topOutput);
  }

  @Override
  public String toString() {
    return "UnbiasedOgpm{epsilon=" + epsilon + ", C=" + c + ", p=" + high + "}";
  }
}
