package io.ogpm.mechanism.baseline;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.AbstractUnitMechanism;
import io.ogpm.mechanism.CellSampler;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.ContinuousUnitMechanism;
import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.ExactGeometric;
import io.ogpm.mechanism.LossIntegrals;
import io.ogpm.mechanism.OutputGrid;
import io.ogpm.mechanism.random.RandomBits;

/**
 * The Purkayastha mechanism (Weggenmann and Kerschbaum, CCS 2021) on the circle S^1: density
 * proportional to {@code e^(-kappa d(y, x))}, d the distance along the circle, with {@code kappa =
 * eps / half-period} (the largest distance on the circle), so the ratio for any two inputs is at
 * most {@code e^(kappa * half-period) = e^eps}. On the unit circle the half-period is 1/2.
 *
 * <p>Sampling: the discrete analogue on the grid's cells, drawn exactly ({@link Sampler}).
 */
@Internal
public final class Purkayastha extends AbstractUnitMechanism implements ContinuousUnitMechanism {
  private final double kappa;

  private Purkayastha(double epsilon) {
    super(epsilon);
    this.kappa = 2 * epsilon;
  }

  public static Purkayastha of(double epsilon) {
    return new Purkayastha(Checks.positive("epsilon", epsilon));
  }

  @Override
  public boolean circular() {
    return true;
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
    return ExponentialMoments.partial(metric.exponent(), 0.5, b)
        / ExponentialMoments.partial(0, 0.5, b);
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
    return new Sampler(this, grid);
  }

  /**
   * The input's cell x on the circle of {@code D = 2^bits} cells plus noise k in {@code [-D/2, D/2
   * - 1]} (every cell once) with {@code P(k) ∝ r^|k|}, {@code r = e^-lambda}, {@code lambda = kappa
   * / D = 2 eps / D} exactly ({@link ExactGeometric#twoSided}), wrapped.
   *
   * <p><b>Exact worst ratio e^eps.</b> Cell c has probability {@code r^d(c, x) / Z}, d the circular
   * distance in cells (at most D/2) and Z the same for every input, so every ratio is {@code r^(d1
   * - d2)} with {@code |d1 - d2| <= D/2}: at most {@code e^(lambda D / 2) = e^eps}, reached by two
   * inputs half a circle apart.
   */
  static final class Sampler extends GeometricNoiseSampler {
    private final long half;
    private final long mask;

    Sampler(Purkayastha m, OutputGrid grid) {
      super(m, grid, m.kappa, 1L << (grid.bits() - 1));
      this.half = 1L << (grid.bits() - 1);
      this.mask = (1L << grid.bits()) - 1;
    }

    @Override
    public long sampleCell(double z, RandomBits bits) {
      return (CellSampler.inputCell(z, grid) + noise.twoSided(bits, -half, half - 1)) & mask;
    }
  }

  @Override
  public String toString() {
    return "Purkayastha{epsilon=" + epsilon() + ", kappa=" + kappa + " per unit}";
  }
}
