package io.ogpm.mechanism;

import java.util.List;

/**
 * The optimal generalised piecewise mechanism on the classical domain [0, 1) -> [0, 1) (Theorem
 * 3): density p on a central piece of length s centred on the input and clamped inside the domain,
 * density p / e^eps elsewhere. The shape (p, s) is chosen per objective by {@link OgpmShape}: the
 * paper's closed form for absolute error, the root of the cubic of paper-notes section 1 for square
 * error.
 */
public final class ClassicalOgpm implements PiecewiseUnitMechanism {
  private final OgpmShape shape;
  // Precomputed for the sampler.
  private final double high;
  private final double low;
  private final double central;
  private final double centralMass;

  private ClassicalOgpm(OgpmShape shape) {
    this.shape = shape;
    this.high = shape.high();
    this.low = shape.low();
    this.central = shape.central();
    this.centralMass = high * central;
  }

  /** The optimum for the given objective (Theorem 3; paper-notes section 1 for l2). */
  public static ClassicalOgpm optimal(double epsilon, Objective objective) {
    return new ClassicalOgpm(OgpmShape.optimal(epsilon, objective));
  }

  /** A mechanism of the given three-piece shape. */
  public static ClassicalOgpm withShape(OgpmShape shape) {
    return new ClassicalOgpm(Checks.notNull("shape", shape));
  }

  public OgpmShape shape() {
    return shape;
  }

  @Override
  public double epsilon() {
    return shape.epsilon();
  }

  @Override
  public boolean circular() {
    return false;
  }

  @Override
  public double outputLo() {
    return 0;
  }

  @Override
  public double outputHi() {
    return 1;
  }

  @Override
  public PiecewiseDistribution distribution(double z) {
    double l = shape.centralStart(z);
    double r = l + central;
    return PiecewiseDistribution.ofPieces(
        List.of(
            new PiecewiseDistribution.Piece(0, l, low),
            new PiecewiseDistribution.Piece(l, r, high),
            new PiecewiseDistribution.Piece(r, 1, low)));
  }

  @Override
  public double inverseCdf(double z, double u) {
    double l = Math.min(Math.max(z - 0.5 * central, 0), 1 - central);
    double leftMass = low * l;
    if (u < leftMass) {
      return u / low;
    }
    double v = u - leftMass;
    if (v < centralMass) {
      return l + v / high;
    }
    return Math.min(l + central + (v - centralMass) / low, Math.nextDown(1.0));
  }

  /** At an endpoint (Lemma 1) for linear distance; by search otherwise. */
  @Override
  public double worstCaseError(ErrorMetric metric, Distance distance) {
    if (distance == Distance.LINEAR) {
      return Math.max(expectedError(0, metric, distance), expectedError(1, metric, distance));
    }
    return PiecewiseUnitMechanism.super.worstCaseError(metric, distance);
  }

  @Override
  public String toString() {
    return "ClassicalOgpm" + shape;
  }
}
