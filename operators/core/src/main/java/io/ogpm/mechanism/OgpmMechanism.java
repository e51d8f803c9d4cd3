package io.ogpm.mechanism;

/**
 * What the optimal generalised piecewise mechanism has on either domain ({@link ClassicalOgpm},
 * Theorem 3; {@link CircularOgpm}, Theorem 4): its three-piece shape ({@link OgpmShape}: density p
 * on a central piece of length s, p / e^eps elsewhere) on the unit output domain [0, 1), as a
 * two-level mechanism whose background is the low density. The domains differ only in where the
 * central piece lies for an input (clamped inside [0, 1), or wrapped around the circle), how it is
 * sampled and where the worst case lies.
 */
abstract class OgpmMechanism implements TwoLevelMechanism {
  final OgpmShape shape;
  // Read by the samplers of the subclasses, so precomputed once.
  final double high;
  final double low;
  final double central;
  final double invHigh;
  final double invLow;

  OgpmMechanism(OgpmShape shape) {
    this.shape = shape;
    this.high = shape.high();
    this.low = shape.low();
    this.central = shape.central();
    this.invHigh = 1 / high;
    this.invLow = 1 / low;
  }

  public OgpmShape shape() {
    return shape;
  }

  @Override
  public double epsilon() {
    return shape.epsilon();
  }

  @Override
  public double outputLo() {
    return 0;
  }

  @Override
  public double outputHi() {
    return 1;
  }

  /** The low density q over the unit output domain, whose length is 1. */
  @Override
  public double backgroundMass() {
    return low;
  }

  @Override
  public double bumpLength() {
    return central;
  }

  @Override
  public double lowDensity() {
    return low;
  }

  @Override
  public double highDensity() {
    return high;
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + shape;
  }
}
