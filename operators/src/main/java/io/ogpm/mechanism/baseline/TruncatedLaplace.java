package io.ogpm.mechanism.baseline;

import io.ogpm.mechanism.CellSampler;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.ContinuousUnitMechanism;
import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.Geometric;
import io.ogpm.mechanism.OutputGrid;
import io.ogpm.mechanism.PiecewiseDistribution;
import java.util.List;

/**
 * The Laplace mechanism with scale {@code 1/eps} (sensitivity 1: the whole unit domain), its
 * output clamped into [0, 1) (T-Laplace): density {@code e^(-|y - z|/b) / 2b} on [0, 1), atoms
 * {@code e^(-z/b)/2} at 0 and {@code e^(-(1 - z)/b)/2} at 1. Clamping is post-processing.
 *
 * <p>Sampling is the discrete Laplace mechanism on the grid, as in Google's differential-privacy
 * library: the input is rounded to its cell, a two-sided geometric noise with decay {@code eps /
 * 2^bits} per cell is added ({@link Geometric}), and the cell is clamped. Rounded inputs are at most
 * {@code 2^bits} cells apart, so the grid outputs are exactly eps-LDP.
 */
public final class TruncatedLaplace implements ContinuousUnitMechanism {
  private static final long UNBOUNDED = 1L << 61;

  private final double epsilon;
  private final double scale;

  private TruncatedLaplace(double epsilon) {
    this.epsilon = epsilon;
    this.scale = 1 / epsilon;
  }

  public static TruncatedLaplace of(double epsilon) {
    return new TruncatedLaplace(Checks.positive("epsilon", epsilon));
  }

  @Override
  public double epsilon() {
    return epsilon;
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
  public double density(double y, double z) {
    return y >= 0 && y < 1 ? Math.exp(-Math.abs(y - z) / scale) / (2 * scale) : 0;
  }

  @Override
  public List<PiecewiseDistribution.Atom> atoms(double z) {
    return List.of(
        new PiecewiseDistribution.Atom(0, 0.5 * Math.exp(-z / scale)),
        new PiecewiseDistribution.Atom(1, 0.5 * Math.exp(-(1 - z) / scale)));
  }

  /** Closed form for linear distance (exponential moments); quadrature on a circle. */
  @Override
  public double expectedError(double z, ErrorMetric metric, Distance distance) {
    if (distance == Distance.CIRCULAR) {
      return ContinuousUnitMechanism.super.expectedError(z, metric, distance);
    }
    int k = metric.exponent();
    double inside = (ExponentialMoments.partial(k, z, scale) + ExponentialMoments.partial(k, 1 - z, scale)) / (2 * scale);
    double atLo = Math.pow(z, k) * 0.5 * Math.exp(-z / scale);
    double atHi = Math.pow(1 - z, k) * 0.5 * Math.exp(-(1 - z) / scale);
    return inside + atLo + atHi;
  }

  @Override
  public double inverseCdf(double z, double u) {
    double y = u < 0.5 ? z + scale * Math.log(2 * u) : z - scale * Math.log(2 * (1 - u));
    return Math.min(Math.max(y, 0), Math.nextDown(1.0));
  }

  @Override
  public CellSampler cellSampler(OutputGrid grid) {
    double lambda = Math.scalb(epsilon, -grid.bits());
    long last = grid.maxCell();
    return (z, bits) -> {
      long cell = CellSampler.inputCell(z, grid) + Geometric.twoSided(bits, lambda, UNBOUNDED, UNBOUNDED);
      return Math.min(Math.max(cell, 0), last);
    };
  }

  @Override
  public String toString() {
    return "T-Laplace{epsilon=" + epsilon + "}";
  }
}
