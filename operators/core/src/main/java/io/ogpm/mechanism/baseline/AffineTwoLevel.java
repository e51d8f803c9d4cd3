package io.ogpm.mechanism.baseline;

import io.ogpm.mechanism.AbstractUnitMechanism;
import io.ogpm.mechanism.TwoLevelMechanism;

/**
 * What PM and SW share: a two-level mechanism defined in coordinates of its own, where its output
 * domain is larger than the input domain, and carried to unit coordinates by the affine map {@code
 * y -> offset + scale y}: with its own enlarged output domain, or compressed linearly into [0, 1)
 * (the paper's PM-C and SW-C; a linear map is post-processing, so eps is kept). Its high density is
 * {@code e^eps} times its low density.
 */
abstract class AffineTwoLevel extends AbstractUnitMechanism implements TwoLevelMechanism {
  private final String name;
  private final double scale;
  private final double offset;
  private final double low;

  /**
   * @param name the mechanism's name in {@link #toString()}, with its output's
   * @param low the low density in unit coordinates
   */
  AffineTwoLevel(double epsilon, String name, double scale, double offset, double low) {
    super(epsilon);
    this.name = name;
    this.scale = scale;
    this.offset = offset;
    this.low = low;
  }

  /** Lower end of the output domain in the mechanism's own coordinates. */
  abstract double ownOutputLo();

  /** Upper (open) end of the output domain in the mechanism's own coordinates. */
  abstract double ownOutputHi();

  /** The bump's length in the mechanism's own coordinates. */
  abstract double ownBumpLength();

  /** Where the bump starts for input z in [0, 1], in the mechanism's own coordinates. */
  abstract double ownBumpStart(double z);

  /** The parameter that defines the mechanism's shape, as {@link #toString()} shows it. */
  abstract String shapeParameter();

  @Override
  public double outputLo() {
    return offset + scale * ownOutputLo();
  }

  @Override
  public double outputHi() {
    return offset + scale * ownOutputHi();
  }

  @Override
  public double bumpLength() {
    return scale * ownBumpLength();
  }

  @Override
  public double bumpStart(double z) {
    return offset + scale * ownBumpStart(z);
  }

  @Override
  public double lowDensity() {
    return low;
  }

  @Override
  public double highDensity() {
    return low * Math.exp(epsilon());
  }

  @Override
  public String toString() {
    return name + "{epsilon=" + epsilon() + ", " + shapeParameter() + "}";
  }
}
