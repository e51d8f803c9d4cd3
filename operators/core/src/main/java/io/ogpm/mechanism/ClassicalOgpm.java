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
  private ClassicalOgpm(OgpmShape shape) {
    super(shape);
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

  /** Centred on z, clamped into [0, 1 - s] (Theorem 3). */
  @Override
  public double bumpStart(double z) {
    return shape.centralStart(z);
  }

  /** Branch-free ({@link ThreePieceMechanism#inverseCdfFromStart}), kept inside [0, 1). */
  @Override
  public double inverseCdf(double z, double u) {
    double l = Math.min(Math.max(z - 0.5 * central, 0), 1 - central);
    return Math.min(inverseCdfFromStart(l, u), ONE_MINUS_ULP);
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
