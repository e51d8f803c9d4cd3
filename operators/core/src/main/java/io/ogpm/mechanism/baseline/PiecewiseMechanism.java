package io.ogpm.mechanism.baseline;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.TwoLevelMechanism;

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
public final class PiecewiseMechanism implements TwoLevelMechanism {
  /** Where the outputs live. */
  public enum Output {
    /** PM's own enlarged output domain. */
    ORIGINAL,
    /** Compressed linearly into the input domain (PM-C). */
    COMPRESSED
  }

  private final double epsilon;
  private final Output output;
  private final double c;
  private final double cMinusOne;
  private final double scale;
  private final double offset;
  private final double low;

  private PiecewiseMechanism(double epsilon, Output output) {
    this.epsilon = epsilon;
    this.output = output;
    // C - 1 kept as computed: recomputed from a rounded C it loses its precision at high eps (all
    // of it from eps = 75, where C rounds to 1), and the bump length with it.
    this.cMinusOne = 2 / Math.expm1(epsilon / 2);
    this.c = 1 + cMinusOne;
    this.scale = output == Output.ORIGINAL ? 0.5 : 0.5 / c;
    this.offset = 0.5;
    this.low = Math.exp(-epsilon / 2) / (2 * c * scale);
  }

  public static PiecewiseMechanism of(double epsilon, Output output) {
    Checks.positive("epsilon", epsilon);
    return new PiecewiseMechanism(epsilon, Checks.notNull("output", output));
  }

  /** PM's C. */
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
    return offset - scale * c;
  }

  @Override
  public double outputHi() {
    return offset + scale * c;
  }

  @Override
  public double backgroundMass() {
    return Math.exp(-epsilon / 2);
  }

  @Override
  public double bumpLength() {
    return scale * cMinusOne;
  }

  @Override
  public double bumpStart(double z) {
    double t = 2 * z - 1;
    double l = (c + 1) / 2 * t - cMinusOne / 2;
    return offset + scale * l;
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
    return (output == Output.ORIGINAL ? "PM" : "PM-C") + "{epsilon=" + epsilon + ", C=" + c + "}";
  }
}
