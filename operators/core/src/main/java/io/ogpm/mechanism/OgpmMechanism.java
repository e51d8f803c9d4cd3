package io.ogpm.mechanism;

/**
 * What the optimal generalised piecewise mechanism has on either domain ({@link ClassicalOgpm},
 * Theorem 3; {@link CircularOgpm}, Theorem 4): its three-piece shape ({@link OgpmShape}: density p
 * on a central piece of length s, p / e^eps elsewhere) on the unit output domain [0, 1), as a
 * two-level mechanism whose background is the low density. The domains differ only in where the
 * central piece lies for an input (clamped inside [0, 1), or wrapped around the circle), how it is
 * sampled and where the worst case lies.
 */
abstract class OgpmMechanism extends ThreePieceMechanism {
  final OgpmShape shape;

  OgpmMechanism(OgpmShape shape) {
    super(shape.epsilon(), shape.high(), shape.low(), shape.central());
    this.shape = shape;
  }

  public OgpmShape shape() {
    return shape;
  }

  /** The low density q over the unit output domain, whose length is 1. */
  @Override
  public double backgroundMass() {
    return low;
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + shape;
  }
}
