package io.ogpm.mechanism.baseline;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.Checks;

/**
 * The Piecewise Mechanism (PM) of Wang et al. (ICDE 2019) on the unit domain. PM maps t in [-1, 1]
 * to [-C, C] with {@code C = (e^(eps/2) + 1) / (e^(eps/2) - 1)}: density {@code p = (e^eps -
 * e^(eps/2)) / (2 e^(eps/2) + 2)} on {@code [l(t), l(t) + C - 1]} with {@code l(t) = (C + 1)/2 t -
 * (C - 1)/2}, and {@code p / e^eps} elsewhere. Here t = 2z - 1, and the output is carried to unit
 * coordinates either as it is ({@link Output#ORIGINAL}: {@code [(1 - C)/2, (1 + C)/2)}, unbiased)
 * or compressed linearly into [0, 1) ({@link Output#COMPRESSED}, the paper's PM-C; a linear map is
 * post-processing, so eps is kept).
 *
 * <p>As a mixture: the background carries mass {@code 2C p / e^eps = e^(-eps/2)}.
 */
@Internal
public final class PiecewiseMechanism extends AffineTwoLevel {
  /** Where the outputs live. */
  public enum Output {
    /** PM's own enlarged output domain. */
    ORIGINAL,
    /** Compressed linearly into the input domain (PM-C). */
    COMPRESSED
  }

  private final double c;
  private final double cMinusOne;

  private PiecewiseMechanism(
      double epsilon, Output output, double c, double cMinusOne, double scale, double low) {
    super(epsilon, output == Output.ORIGINAL ? "PM" : "PM-C", scale, 0.5, low);
    this.c = c;
    this.cMinusOne = cMinusOne;
  }

  public static PiecewiseMechanism of(double epsilon, Output output) {
    Checks.positive("epsilon", epsilon);
    Checks.notNull("output", output);
    // C - 1 kept as computed: recomputed from a rounded C it loses its precision at high eps (all
    // of it from eps = 75, where C rounds to 1), and the bump length with it.
    double cMinusOne = 2 / Math.expm1(epsilon / 2);
    double c = 1 + cMinusOne;
    double scale = output == Output.ORIGINAL ? 0.5 : 0.5 / c;
    double low = Math.exp(-epsilon / 2) / (2 * c * scale);
    return new PiecewiseMechanism(epsilon, output, c, cMinusOne, scale, low);
  }

  /** PM's C. */
  public double enlargement() {
    return c;
  }

  @Override
  double ownOutputLo() {
    return -c;
  }

  @Override
  double ownOutputHi() {
    return c;
  }

  @Override
  double ownBumpLength() {
    return cMinusOne;
  }

  /** {@code l(t)} at {@code t = 2z - 1}. */
  @Override
  double ownBumpStart(double z) {
    double t = 2 * z - 1;
    return (c + 1) / 2 * t - cMinusOne / 2;
  }

  @Override
  public double backgroundMass() {
    return Math.exp(-epsilon() / 2);
  }

  @Override
  String shapeParameter() {
    return "C=" + c;
  }
}
