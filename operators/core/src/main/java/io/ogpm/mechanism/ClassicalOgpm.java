package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;

/**
 * The optimal generalised piecewise mechanism on the classical domain [0, 1) -> [0, 1) (Theorem 3):
 * density p on a central piece of length s centred on the input and clamped inside the domain,
 * density p / e^eps elsewhere. The shape (p, s) is chosen per objective by {@link OgpmShape}: the
 * paper's closed form for absolute error, the root of the cubic of docs/mechanisms.md, "The
 * square-error optimum" for square error.
 */
@Internal
public final class ClassicalOgpm extends OgpmMechanism {
  /** (p - q) s / q: how far the right low piece's inverse cdf is shifted back (for the sampler). */
  private final double rightShift;

  private ClassicalOgpm(OgpmShape shape) {
    super(shape);
    this.rightShift = (high - low) * central * invLow;
  }

  /**
   * The optimum for the given objective (Theorem 3; docs/mechanisms.md, "The square-error optimum"
   * for l2).
   */
  public static ClassicalOgpm optimal(double epsilon, Objective objective) {
    return new ClassicalOgpm(OgpmShape.optimal(epsilon, objective));
  }

  /** A mechanism of the given three-piece shape. */
  public static ClassicalOgpm withShape(OgpmShape shape) {
    return new ClassicalOgpm(Checks.notNull("shape", shape));
  }

  @Override
  public boolean circular() {
    return false;
  }

  /** Centred on z, clamped into [0, 1 - s] (Theorem 3). */
  @Override
  public double bumpStart(double z) {
    return shape.centralStart(z);
  }

  /**
   * Branch-free inverse cdf. The cdf {@code F(y) = q y + (p - q) clamp(y - l, 0, s)} is linear on
   * each piece with slopes q, p, q; its inverse is {@code min(u/q, max(l + (u - q l)/p, (u - (p -
   * q) s)/q))}: on the left piece u/q is the smallest of the three lines, in the centre the middle
   * line lies between the other two, on the right the last line is the largest of the lower pair.
   * Random branches would mispredict about half the time; min and max do not.
   */
  @Override
  public double inverseCdf(double z, double u) {
    double l = Math.min(Math.max(z - 0.5 * central, 0), 1 - central);
    double left = u * invLow;
    double centre = l + (u - low * l) * invHigh;
    double right = left - rightShift;
    return Math.min(Math.min(left, Math.max(centre, right)), ONE_MINUS_ULP);
  }

  private static final double ONE_MINUS_ULP = Math.nextDown(1.0);

  /** At an endpoint (Lemma 1) for linear distance; by search otherwise. */
  @Override
  public double worstCaseError(ErrorMetric metric, Distance distance) {
    if (distance == Distance.LINEAR) {
      return Math.max(expectedError(0, metric, distance), expectedError(1, metric, distance));
    }
    return super.worstCaseError(metric, distance);
  }
}
