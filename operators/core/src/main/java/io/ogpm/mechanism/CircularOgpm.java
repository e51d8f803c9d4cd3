package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;

/**
 * The optimal generalised piecewise mechanism on the circle of period 1 (Theorem 4): density p on
 * an arc of length s centred on the input, which may wrap across 0, density p / e^eps elsewhere. By
 * docs/mechanisms.md, "The square-error optimum", the circular optimum is the classical optimum of
 * a half-period mirrored around x, which makes (p, s) on the unit circle equal to the classical
 * unit shape: for the absolute-error objective this is exactly Theorem 4 ({@code p = e^(eps/2) /
 * 2pi} and half-arc {@code pi (e^(eps/2) - 1) / (e^eps - 1)} on [0, 2pi)); for square error it uses
 * the l2 shape.
 *
 * <p>The error is the same for every input (the mechanism is rotation invariant).
 */
@Internal
public final class CircularOgpm extends OgpmMechanism {
  /** p s: the probability of the arc (for the sampler). */
  private final double centralMass;

  private CircularOgpm(OgpmShape shape) {
    super(shape);
    this.centralMass = high * central;
  }

  /**
   * The optimum for the given objective (Theorem 4; docs/mechanisms.md, "The square-error optimum"
   * for l2).
   */
  public static CircularOgpm optimal(double epsilon, Objective objective) {
    return new CircularOgpm(OgpmShape.optimal(epsilon, objective));
  }

  @Override
  public boolean circular() {
    return true;
  }

  /** Centred on z; may be negative or run past 1 (read modulo 1). */
  @Override
  public double bumpStart(double z) {
    return z - 0.5 * central;
  }

  /**
   * Samples the offset v from the arc's start on a two-piece distribution over one period, then
   * rotates: {@code y = (z - s/2 + v) mod 1}. The offset's inverse cdf is convex (slope 1/p, then
   * 1/q), so it is the larger of its two lines: {@code max(u/p, s + (u - p s)/q)}, branch-free.
   */
  @Override
  public double inverseCdf(double z, double u) {
    double v = Math.max(u * invHigh, central + (u - centralMass) * invLow);
    return wrap(z - 0.5 * central + v);
  }

  /** The same for every input: computed at z = 0 (Theorem "circular MSE" for square error). */
  @Override
  public double worstCaseError(ErrorMetric metric, Distance distance) {
    if (distance == Distance.CIRCULAR) {
      return expectedError(0, metric, distance);
    }
    return super.worstCaseError(metric, distance);
  }

  /** {@code v mod 1} in [0, 1). */
  static double wrap(double v) {
    double w = v - Math.floor(v);
    return w >= 1 ? 0 : w;
  }
}
