package io.ogpm.mechanism.baseline;

import io.ogpm.mechanism.AbstractUnitMechanism;
import io.ogpm.mechanism.ContinuousUnitMechanism;

/**
 * What the two Laplace mechanisms on the unit domain share: scale {@code b = 1/eps} (sensitivity 1:
 * the whole unit domain) and, on [0, 1), the density {@code e^(-|y - z|/b) / N(z)}. They differ in
 * what they do with the noise that leaves the domain: T-Laplace clamps it onto the ends ({@code N =
 * 2b}, the whole line's mass, plus two atoms), B-Laplace renormalises inside ({@code N(z)} the mass
 * of the kernel on [0, 1)).
 */
abstract class UnitLaplace extends AbstractUnitMechanism implements ContinuousUnitMechanism {
  final double scale;

  UnitLaplace(double epsilon) {
    super(epsilon);
    this.scale = 1 / epsilon;
  }

  /** The scale b. */
  public double scale() {
    return scale;
  }

  /** The denominator {@code N(z)} of the density on [0, 1) for input z. */
  public abstract double normaliser(double z);

  @Override
  public double density(double y, double z) {
    return y >= 0 && y < 1 ? Math.exp(-Math.abs(y - z) / scale) / normaliser(z) : 0;
  }

  /**
   * {@code E[|Y - z|^k]} over the density on [0, 1), without any atom: the exponential moments
   * either side of the input ({@link ExponentialMoments#aroundInput}) over {@code N(z)}.
   */
  double insideError(double z, int k) {
    return ExponentialMoments.aroundInput(k, z, scale) / normaliser(z);
  }
}
