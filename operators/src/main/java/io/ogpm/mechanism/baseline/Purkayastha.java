package io.ogpm.mechanism.baseline;

import io.ogpm.mechanism.CellSampler;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.ContinuousUnitMechanism;
import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.Geometric;
import io.ogpm.mechanism.LossIntegrals;
import io.ogpm.mechanism.OutputGrid;

/**
 * The Purkayastha mechanism (Weggenmann and Kerschbaum, CCS 2021) on the circle S^1: density
 * proportional to {@code e^(-kappa d(y, x))}, d the distance along the circle, with {@code kappa =
 * eps / half-period} (the largest distance on the circle), so the ratio for any two inputs is at
 * most {@code e^(kappa * half-period) = e^eps}. On the unit circle the half-period is 1/2.
 *
 * <p>Sampling: the discrete analogue on the grid's cells: the input's cell plus a two-sided
 * geometric offset with decay {@code kappa / 2^bits} per cell, truncated to half a circle on each
 * side; rounded inputs are at most half a circle apart, so the outputs are exactly eps-LDP.
 */
public final class Purkayastha implements ContinuousUnitMechanism {
  private final double epsilon;
  private final double kappa;

  private Purkayastha(double epsilon) {
    this.epsilon = epsilon;
    this.kappa = 2 * epsilon;
  }

  public static Purkayastha of(double epsilon) {
    return new Purkayastha(Checks.positive("epsilon", epsilon));
  }

  @Override
  public double epsilon() {
    return epsilon;
  }

  @Override
  public boolean circular() {
    return true;
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
  public double density(double y, double z) {
    double normaliser = -2 * Math.expm1(-kappa / 2) / kappa;
    return Math.exp(-kappa * LossIntegrals.circularDistance(y, z, 1)) / normaliser;
  }

  /**
   * Closed form for circular distance: {@code E[d^k] = integral_0^(1/2) t^k e^(-kappa t) dt /
   * integral_0^(1/2) e^(-kappa t) dt}; the same for every input.
   */
  @Override
  public double expectedError(double z, ErrorMetric metric, Distance distance) {
    if (distance == Distance.LINEAR) {
      return ContinuousUnitMechanism.super.expectedError(z, metric, distance);
    }
    double b = 1 / kappa;
    return ExponentialMoments.partial(metric.exponent(), 0.5, b) / ExponentialMoments.partial(0, 0.5, b);
  }

  @Override
  public double worstCaseError(ErrorMetric metric, Distance distance) {
    return distance == Distance.CIRCULAR
        ? expectedError(0, metric, distance)
        : ContinuousUnitMechanism.super.worstCaseError(metric, distance);
  }

  @Override
  public double[] kinks(double z) {
    return new double[] {z - 0.5 - Math.floor(z - 0.5), z + 0.5 - Math.floor(z + 0.5)};
  }

  @Override
  public double inverseCdf(double z, double u) {
    double sign = u < 0.5 ? -1 : 1;
    double v = u < 0.5 ? 1 - 2 * u : 2 * u - 1;
    double t = -Math.log1p(v * Math.expm1(-kappa / 2)) / kappa;
    double y = z + sign * t;
    y -= Math.floor(y);
    return y >= 1 ? 0 : y;
  }

  @Override
  public CellSampler cellSampler(OutputGrid grid) {
    double lambda = Math.scalb(kappa, -grid.bits());
    long half = 1L << (grid.bits() - 1);
    long mask = (1L << grid.bits()) - 1;
    return (z, bits) -> (CellSampler.inputCell(z, grid) + Geometric.twoSided(bits, lambda, half, half - 1)) & mask;
  }

  @Override
  public String toString() {
    return "Purkayastha{epsilon=" + epsilon + ", kappa=" + kappa + " per unit}";
  }
}
