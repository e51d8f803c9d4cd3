package io.ogpm.mechanism.baseline;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.CellSampler;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.ExactGeometric;
import io.ogpm.mechanism.OutputGrid;
import io.ogpm.mechanism.random.RandomBits;

/**
 * The bounded Laplace mechanism (Holohan et al., 2020) on [0, 1), done right: density {@code e^(-|y
 * - z|/b) / N(z)} with the input-dependent normaliser {@code N(z) = b (2 - e^(-z/b) - e^(-(1 -
 * z)/b))} (the paper's appendix uses a normaliser that does not depend on the input, which is not a
 * distribution: its mass at z = 1/2 is {@code 2 / (1 + e^(-eps/2))}).
 *
 * <p>Scale: {@code b = 1/eps} is exactly eps-LDP. For two inputs {@code x1 < x2} the log ratio of
 * densities is at most {@code (x2 - x1)/b + |ln N(x2) - ln N(x1)|} (attained at y = 0 or y = 1).
 * Both {@code 1/b + N'/N} and {@code 1/b - N'/N} are non-negative on [0, 1] (they equal {@code 2(1
 * - e^(-(1-x)/b)) / N} and {@code 2(1 - e^(-x/b)) / N}), so each of the two signed forms grows as
 * x2 moves right and x1 moves left; the maximum is at (0, 1), where {@code N(0) = N(1)} and the
 * bound is {@code 1/b}. (A violation at b = 1/eps has been reported, docs/mechanisms.md,
 * "B-Laplace"; with the input-dependent normaliser there is none, which {@code BaselinePrivacyTest}
 * checks on a grid.)
 *
 * <p>Sampling: the discrete Laplace on the grid restricted to the domain's cells, drawn exactly
 * ({@link Sampler}).
 */
@Internal
public final class BoundedLaplace extends UnitLaplace {
  private BoundedLaplace(double epsilon) {
    super(epsilon);
  }

  public static BoundedLaplace of(double epsilon) {
    return new BoundedLaplace(Checks.positive("epsilon", epsilon));
  }

  /** {@code N(z) = b (2 - e^(-z/b) - e^(-(1-z)/b))}, without cancellation. */
  @Override
  public double normaliser(double z) {
    return scale * (-Math.expm1(-z / scale) - Math.expm1(-(1 - z) / scale));
  }

  /** Closed form for linear distance (exponential moments); quadrature on a circle. */
  @Override
  public double expectedError(double z, ErrorMetric metric, Distance distance) {
    if (distance == Distance.CIRCULAR) {
      return super.expectedError(z, metric, distance);
    }
    return insideError(z, metric.exponent());
  }

  /**
   * The paper's appendix formula for the absolute error, with its input-independent normaliser:
   * {@code (2 - (1 + eps x) e^(-eps x) - (1 + eps (1 - x)) e^(-eps (1 - x))) / (eps (1 - e^-eps))}.
   * Kept for the reproduction report only.
   */
  public static double paperAbsoluteError(double epsilon, double x) {
    return (2
            - (1 + epsilon * x) * Math.exp(-epsilon * x)
            - (1 + epsilon * (1 - x)) * Math.exp(-epsilon * (1 - x)))
        / (epsilon * -Math.expm1(-epsilon));
  }

  @Override
  public double inverseCdf(double z, double u) {
    double n = normaliser(z);
    double leftMass = -scale * Math.expm1(-z / scale) / n;
    double y;
    if (u < leftMass) {
      y = z + scale * Math.log(u * n / scale + Math.exp(-z / scale));
    } else {
      y = z - scale * Math.log1p(-(u - leftMass) * n / scale);
    }
    return clampToUnit(y);
  }

  @Override
  public CellSampler cellSampler(OutputGrid grid) {
    return new Sampler(this, grid);
  }

  /**
   * The input's cell x in [0, D] ({@code D = 2^bits} cells per unit) plus noise k restricted to the
   * cells, {@code x + k} in [0, D - 1], with {@code P(k) ∝ r^|k|}, {@code r = e^-lambda}, {@code
   * lambda = eps / D} exactly (eps itself, not {@code 1 / b}, whose rounding could exceed it):
   * {@link ExactGeometric#twoSided} on {@code [-x, D - 1 - x]}.
   *
   * <p><b>Exact worst ratio {@code e^(lambda (D - 1))}</b>, the discrete form of the class
   * comment's argument. Cell c has probability {@code r^|c - x| / Z(x)}, {@code Z(x) = sum_(c < D)
   * r^|c - x|}. For inputs {@code x1 < x2} the log ratio {@code lambda (|c - x2| - |c - x1|) + ln
   * Z(x2) - ln Z(x1)} is non-increasing in c, so it is largest in size at c = 0 or c = D - 1. At c
   * = 0 it is {@code h(x2) - h(x1)} with {@code h(x) = ln sum_c r^(|c - x| - |x|)}; take inputs in
   * [-1, D] (a superset, symmetric under {@code x -> D - 1 - x}, which maps cell 0 to cell D - 1).
   * For x >= 0 every exponent {@code |c - x| - x} is non-increasing in x, so h is non-decreasing
   * there; {@code Z(D) = r Z(0)} and {@code Z(-1) = Z(D)} give {@code h(-1) = h(0)} and {@code h(D)
   * - h(0) = lambda D + ln r = lambda (D - 1)}. So every ratio is at most {@code e^(lambda (D -
   * 1))}, reached at cell 0 by inputs 0 and D.
   */
  static final class Sampler extends GeometricNoiseSampler {
    Sampler(BoundedLaplace m, OutputGrid grid) {
      super(m, grid, m.epsilon(), grid.maxCell());
    }

    @Override
    public long sampleCell(double z, RandomBits bits) {
      long from = CellSampler.inputCell(z, grid);
      return from + noise.twoSided(bits, -from, grid.maxCell() - from);
    }
  }

  @Override
  public String toString() {
    return "B-Laplace{epsilon=" + epsilon() + ", b=" + scale + "}";
  }
}
