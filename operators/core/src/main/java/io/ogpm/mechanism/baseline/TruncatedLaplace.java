package io.ogpm.mechanism.baseline;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.CellSampler;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.ExactGeometric;
import io.ogpm.mechanism.OutputGrid;
import io.ogpm.mechanism.PiecewiseDistribution;
import io.ogpm.mechanism.random.RandomBits;
import java.util.List;

/**
 * The Laplace mechanism with scale {@code 1/eps} (sensitivity 1: the whole unit domain), its output
 * clamped into [0, 1) (T-Laplace): density {@code e^(-|y - z|/b) / 2b} on [0, 1), atoms {@code
 * e^(-z/b)/2} at 0 and {@code e^(-(1 - z)/b)/2} at 1. Clamping is post-processing.
 *
 * <p>Sampling is the discrete Laplace mechanism on the grid, as in Google's differential-privacy
 * library, drawn exactly ({@link Sampler}).
 */
@Internal
public final class TruncatedLaplace extends UnitLaplace {
  private TruncatedLaplace(double epsilon) {
    super(epsilon);
  }

  public static TruncatedLaplace of(double epsilon) {
    return new TruncatedLaplace(Checks.positive("epsilon", epsilon));
  }

  /** {@code 2b}: the whole line's mass, the part beyond the domain being the atoms. */
  @Override
  public double normaliser(double z) {
    return 2 * scale;
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
      return super.expectedError(z, metric, distance);
    }
    int k = metric.exponent();
    double inside = insideError(z, k);
    double atLo = Math.pow(z, k) * 0.5 * Math.exp(-z / scale);
    double atHi = Math.pow(1 - z, k) * 0.5 * Math.exp(-(1 - z) / scale);
    return inside + atLo + atHi;
  }

  @Override
  public double inverseCdf(double z, double u) {
    double y = u < 0.5 ? z + scale * Math.log(2 * u) : z - scale * Math.log(2 * (1 - u));
    return clampToUnit(y);
  }

  @Override
  public CellSampler cellSampler(OutputGrid grid) {
    return new Sampler(this, grid);
  }

  /**
   * The input's cell x in [0, D] ({@code D = 2^bits} cells per unit), plus two-sided geometric
   * noise k with {@code P(k) ∝ r^|k|}, {@code r = e^-lambda}, {@code lambda = eps / D} exactly,
   * clamped into the cells [0, D - 1] ({@link ExactGeometric#twoSidedSaturated}: noise of at least
   * D cells lands on an end whatever its size).
   *
   * <p><b>Exact worst ratio e^eps.</b> With {@code g = (1 - r) / (1 + r)}: an inside cell c has
   * probability {@code g r^|c - x|}; the end cells {@code g r^x / (1 - r)} (cell 0) and {@code g
   * r^(D - 1 - x) / (1 - r)} (cell D - 1, for x < D; for x = D it is {@code 1 - g r^2 / (1 - r)}).
   * Between inputs at most D cells apart every ratio is a power of r of exponent at most D, except
   * at cell D - 1 against x = D, where it is {@code (1 + r - r^2) / r^(D - 1) <= r^-D} (as {@code
   * (1 - r)(1 - r^2) >= 0}). So the worst ratio is {@code r^-D = e^(lambda D) = e^eps}, reached at
   * cell 0 by inputs 0 and D.
   */
  static final class Sampler extends GeometricNoiseSampler {
    private final long cells;

    Sampler(TruncatedLaplace m, OutputGrid grid) {
      super(m, grid, m.epsilon(), 1L << grid.bits());
      this.cells = 1L << grid.bits();
    }

    @Override
    public long sampleCell(double z, RandomBits bits) {
      long cell = CellSampler.inputCell(z, grid) + noise.twoSidedSaturated(bits, cells);
      return Math.min(Math.max(cell, 0), grid.maxCell());
    }
  }

  @Override
  public String toString() {
    return "T-Laplace{epsilon=" + epsilon() + "}";
  }
}
