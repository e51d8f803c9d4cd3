package io.ogpm.mechanism;

/**
 * What the optimal three-piece mechanisms share (Theorems 3 to 5: {@link ClassicalOgpm}, {@link
 * CircularOgpm}, {@link UnbiasedOgpm}): density p on a central piece of length s, density q = p /
 * e^eps elsewhere, with p, q and s fixed numbers precomputed once (with their reciprocals) for the
 * branch-free inverse cdf that the samplers of the subclasses read.
 */
abstract class ThreePieceMechanism extends AbstractUnitMechanism implements TwoLevelMechanism {
  final double high;
  final double low;
  final double central;
  final double invHigh;
  final double invLow;

  /** (p - q) s / q: how far the right low piece's inverse cdf is shifted back. */
  private final double rightShift;

  ThreePieceMechanism(double epsilon, double high, double low, double central) {
    super(epsilon);
    this.high = high;
    this.low = low;
    this.central = central;
    this.invHigh = 1 / high;
    this.invLow = 1 / low;
    this.rightShift = (high - low) * central * invLow;
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

  /**
   * Branch-free inverse cdf on an interval whose central piece starts {@code l} after the
   * interval's lower end, in that offset. The cdf {@code F(y) = q y + (p - q) clamp(y - l, 0, s)}
   * is linear on each piece with slopes q, p, q; its inverse is {@code min(u/q, max(l + (u - q
   * l)/p, (u - (p - q) s)/q))}: on the left piece u/q is the smallest of the three lines, in the
   * centre the middle line lies between the other two, on the right the last line is the largest of
   * the lower pair. Random branches would mispredict about half the time; min and max do not.
   */
  final double inverseCdfFromStart(double l, double u) {
    double left = u * invLow;
    double centre = l + (u - low * l) * invHigh;
    double right = left - rightShift;
    return Math.min(left, Math.max(centre, right));
  }
}
