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
public final class UnbiasedOgpm extends ThreePieceMechanism {
  private final double c;
  private final double slope;
  private final double leftOffset;
  private final double topOutput;

  private UnbiasedOgpm(double epsilon, double c, double cm1, double width) {
    super(
        epsilon,
        Math.exp(epsilon / 2) / width,
        Math.exp(-epsilon / 2) / width,
        // r - l = (C - 1)(2C + 1) / (2C)
        cm1 * (2 * c + 1) / (2 * c));
    this.c = c;
    this.slope = (c + 1) / 2;
    this.leftOffset = (3 * c + 1) * cm1 / (4 * c);
    this.topOutput = Math.nextDown(c + 1);
  }

  /** Theorem 5 at the given epsilon. */
  public static UnbiasedOgpm of(double epsilon) {
    Checks.epsilon("epsilon", epsilon);
    // C - 1 = 2 / (e^(eps/2) - 1), computed directly: C - 1 from a rounded C loses its relative
    // precision when eps is large and C is close to 1.
    double cm1 = 2 / Math.expm1(epsilon / 2);
    double c = 1 + cm1;
    return new UnbiasedOgpm(epsilon, c, cm1, 2 * c + 1);
  }

  /** The enlargement C of Theorem 5. */
  public double enlargement() {
    return c;
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
  public double bumpStart(double z) {
    return centralStart(z);
  }

  /** Branch-free ({@link ThreePieceMechanism#inverseCdfFromStart}), on [-C, C + 1). */
  @Override
  public double inverseCdf(double z, double u) {
    double l = slope * z - leftOffset;
    return Math.min(inverseCdfFromStart(l + c, u) - c, topOutput);
  }

  @Override
  public String toString() {
    return "UnbiasedOgpm{epsilon=" + epsilon() + ", C=" + c + ", p=" + high + "}";
  }
}
