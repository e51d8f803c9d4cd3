package io.ogpm.mechanism.baseline;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.AbstractUnitMechanism;
import io.ogpm.mechanism.CellSampler;
import io.ogpm.mechanism.CertifiedLogRatio;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.ExactBernoulli;
import io.ogpm.mechanism.ExactGeometric;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.OutputGrid;
import io.ogpm.mechanism.PiecewiseDistribution;
import io.ogpm.mechanism.PiecewiseUnitMechanism;
import io.ogpm.mechanism.random.RandomBits;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The staircase mechanism (Geng and Viswanath, "The optimal noise-adding mechanism in differential
 * privacy", 2014/2016) with sensitivity 1 (the whole unit domain): additive noise with the
 * symmetric staircase density, on the real line,
 *
 * <pre>
 *   f(t) = a e^(-j eps)      for |t| in [j, j + gamma)
 *   f(t) = a e^(-(j+1) eps)  for |t| in [j + gamma, j + 1),     j = 0, 1, 2, ...
 *   a = (1 - e^-eps) / (2 (gamma + (1 - gamma) e^-eps))
 * </pre>
 *
 * with gamma optimal for the objective: {@code 1 / (1 + e^(eps/2))} for absolute error (their
 * Theorem 3, error {@code e^(eps/2) / (e^eps - 1)}), and for square error {@code -b/(1 - b) + (b -
 * 2b^2 + 2b^4 - b^5)^(1/3) / (2^(1/3) (1 - b)^2)}, b = e^-eps. Outputs are unbounded.
 *
 * <p>The distribution is represented by its pieces up to the block where the remaining tail mass is
 * below 2^-60 (at most {@link #TAIL_MASS}); errors are x-independent.
 *
 * <p>Sampling is exact on the grid: the staircase with gamma rounded to a whole number of cells,
 * integrated over each cell ({@link Sampler}).
 */
@Internal
public final class Staircase extends AbstractUnitMechanism implements PiecewiseUnitMechanism {
  /** Upper bound on the mass beyond the represented blocks. */
  public static final double TAIL_MASS = 0x1.0p-60;

  private final double gamma;
  private final double decay;
  private final double a;
  private final int blocks;

  private Staircase(double epsilon, double gamma) {
    super(epsilon);
    this.gamma = gamma;
    this.decay = Math.exp(-epsilon);
    this.a = -Math.expm1(-epsilon) / (2 * (gamma + (1 - gamma) * decay));
    this.blocks = (int) Math.min(Math.ceil(60 * Math.log(2) / epsilon), 1 << 22);
  }

  /** The staircase mechanism with the gamma that is optimal for the objective. */
  public static Staircase optimal(double epsilon, Objective objective) {
    Checks.positive("epsilon", epsilon);
    return new Staircase(epsilon, optimalGamma(epsilon, Checks.notNull("objective", objective)));
  }

  /** Geng and Viswanath's optimal gamma for absolute (l1) or square (l2) error. */
  public static double optimalGamma(double epsilon, Objective objective) {
    if (objective == Objective.L1) {
      return 1 / (1 + Math.exp(epsilon / 2));
    }
    double b = Math.exp(-epsilon);
    double oneMinusB = -Math.expm1(-epsilon);
    double inner = b - 2 * b * b + 2 * Math.pow(b, 4) - Math.pow(b, 5);
    return -b / oneMinusB + Math.cbrt(inner) / (Math.cbrt(2) * oneMinusB * oneMinusB);
  }

  public double gamma() {
    return gamma;
  }

  /** How many blocks of width 1 each side of the input {@link #distribution} represents. */
  public int representedBlocks() {
    return blocks;
  }

  @Override
  public double outputLo() {
    return Double.NEGATIVE_INFINITY;
  }

  @Override
  public double outputHi() {
    return Double.POSITIVE_INFINITY;
  }

  @Override
  public PiecewiseDistribution distribution(double z) {
    List<PiecewiseDistribution.Piece> left = new ArrayList<>(2 * blocks);
    List<PiecewiseDistribution.Piece> right = new ArrayList<>(2 * blocks);
    double level = a;
    for (int j = 0; j < blocks; j++) {
      // Each boundary computed once, so adjacent pieces share it exactly.
      double rightStart = z + j;
      double rightStep = rightStart + gamma;
      double rightEnd = z + (j + 1);
      double leftStart = z - j;
      double leftStep = leftStart - gamma;
      double leftEnd = z - (j + 1);
      right.add(new PiecewiseDistribution.Piece(rightStart, rightStep, level));
      right.add(new PiecewiseDistribution.Piece(rightStep, rightEnd, level * decay));
      left.add(new PiecewiseDistribution.Piece(leftStep, leftStart, level));
      left.add(new PiecewiseDistribution.Piece(leftEnd, leftStep, level * decay));
      level *= decay;
    }
    List<PiecewiseDistribution.Piece> pieces = new ArrayList<>(left.size() + right.size());
    for (int i = left.size() - 1; i >= 0; i--) {
      pieces.add(left.get(i));
    }
    pieces.addAll(right);
    return PiecewiseDistribution.ofPieces(pieces);
  }

  /**
   * Linear distance: {@code E|X|^k = 2 sum_j a b^j [I(j, j + gamma) + b I(j + gamma, j + 1)]} with
   * {@code I(p, q) = (q^(k+1) - p^(k+1)) / (k+1)}, summed over the represented blocks (the tail
   * adds less than {@code 2^-60 (blocks + 1)^k}). Circular distance: the exact integral of the
   * pieces. Both are the same for every input.
   */
  @Override
  public double expectedError(double z, ErrorMetric metric, Distance distance) {
    if (distance == Distance.CIRCULAR) {
      return PiecewiseUnitMechanism.super.expectedError(0, metric, distance);
    }
    int k = metric.exponent();
    double sum = 0;
    double level = a;
    for (int j = 0; j < blocks; j++) {
      sum +=
          level
              * (power(j + gamma, k + 1)
                  - power(j, k + 1)
                  + decay * (power(j + 1, k + 1) - power(j + gamma, k + 1)))
              / (k + 1);
      level *= decay;
    }
    return 2 * sum;
  }

  @Override
  public double worstCaseError(ErrorMetric metric, Distance distance) {
    return expectedError(0, metric, distance);
  }

  @Override
  public double inverseCdf(double z, double u) {
    double epsilon = epsilon();
    double sign = u < 0.5 ? -1 : 1;
    double w = u < 0.5 ? 1 - 2 * u : 2 * u - 1;
    // Block j with P(block >= j) = b^j; then the position inside it.
    double j = Math.floor(Math.log1p(-w) / -epsilon);
    double blockStart = -Math.expm1(-epsilon * j);
    double r =
        Math.min(
            Math.max((w - blockStart) / (Math.exp(-epsilon * j) * -Math.expm1(-epsilon)), 0),
            Math.nextDown(1.0));
    double first = gamma / (gamma + (1 - gamma) * decay);
    double magnitude =
        r < first ? j + gamma * (r / first) : j + gamma + (1 - gamma) * (r - first) / (1 - first);
    return z + sign * magnitude;
  }

  @Override
  public CellSampler cellSampler(OutputGrid grid) {
    return new Sampler(this, grid);
  }

  /**
   * With {@code D = 2^bits} cells per unit and {@code g = round(gamma D)}, the noise magnitude in
   * cells is {@code m = G D + offset}: G geometric with decay eps per block ({@link
   * ExactGeometric}, its first coin {@code e^-eps} when eps >= 1), the offset uniform on the first
   * g cells of the block with probability {@code g / (g + (D - g) b)}, {@code b = e^-eps} (one
   * {@link ExactBernoulli#ratio} coin), and uniform on the other D - g cells otherwise (Lemire's
   * exact bounded integers); a sign bit puts the noise at {@code +m} or {@code -m - 1}, symmetric
   * about the input's cell x in [0, D]. Output cells are clamped into {@code [-2^61, 2^61]}, a
   * function of the cell (post-processing), so that no sum overflows; G is stopped once that clamp
   * is certain.
   *
   * <p><b>Exact worst ratio e^eps.</b> Noise k has probability {@code C b^n(m)}, C the same for
   * every k and {@code n(m) = floor((m + D - g) / D)} its step (0 on the first g cells, then one
   * more every D cells). Two inputs at most D cells apart need noises k1, k2 at most D apart for
   * the same cell: on one side their magnitudes differ by at most D, so their steps by at most 1;
   * on opposite sides {@code m1 + m2 + 1 <= D}, so both steps are 0 or 1. Every ratio is therefore
   * at most {@code 1 / b = e^eps} (also for the clamped cells, sums of such terms), reached by
   * inputs D cells apart.
   */
  static final class Sampler implements CellSampler {
    /** Output cells are clamped into [-SATURATION, SATURATION]. */
    static final long SATURATION = 1L << 61;

    private final OutputGrid grid;
    private final long cellsPerBlock;
    private final long firstCells;
    private final long saturatedBlocks;
    private final ExactGeometric blocks;
    private final ExactBernoulli first;
    private final CertifiedLogRatio ratio;

    Sampler(Staircase s, OutputGrid grid) {
      this.grid = grid;
      this.cellsPerBlock = 1L << grid.bits();
      this.firstCells = Math.min(Math.max(Math.round(s.gamma * cellsPerBlock), 0), cellsPerBlock);
      // From this many blocks on, |noise| >= SATURATION + D: every output is clamped.
      this.saturatedBlocks = (SATURATION >> grid.bits()) + 1;
      BigDecimal eps = new BigDecimal(s.epsilon());
      // Digits of G one by one up to a block count whose continuation coin is at most 1/e.
      int lowBits = 0;
      while (CertifiedLogRatio.dyadic(s.epsilon(), lowBits).compareTo(BigDecimal.ONE) < 0) {
        lowBits++;
      }
      this.blocks = ExactGeometric.of(eps, lowBits);
      this.first =
          firstCells > 0 && firstCells < cellsPerBlock
              ? ExactBernoulli.ratio(firstCells, cellsPerBlock - firstCells, eps)
              : null;
      this.ratio = CertifiedLogRatio.of(s, s.epsilon(), eps);
    }

    @Override
    public long sampleCell(double z, RandomBits bits) {
      long block = blocks.saturated(bits, saturatedBlocks);
      boolean inFirst = first == null ? firstCells == cellsPerBlock : first.sample(bits);
      long offset =
          inFirst
              ? bits.nextBounded(firstCells)
              : firstCells + bits.nextBounded(cellsPerBlock - firstCells);
      boolean negative = bits.nextLong() < 0;
      if (block == saturatedBlocks) {
        return negative ? -SATURATION : SATURATION;
      }
      long magnitude = block * cellsPerBlock + offset;
      long from = CellSampler.inputCell(z, grid);
      long cell = negative ? from - magnitude - 1 : from + magnitude;
      return Math.min(Math.max(cell, -SATURATION), SATURATION);
    }

    @Override
    public OptionalDouble certifiedEpsilon() {
      return OptionalDouble.of(ratio.certifiedEpsilon());
    }

    ExactGeometric blocks() {
      return blocks;
    }

    long firstCells() {
      return firstCells;
    }

    CertifiedLogRatio ratio() {
      return ratio;
    }
  }

  private static double power(double v, int n) {
    return n == 2 ? v * v : n == 3 ? v * v * v : Math.pow(v, n);
  }

  @Override
  public String toString() {
    return "Staircase{epsilon=" + epsilon() + ", gamma=" + gamma + "}";
  }
}
