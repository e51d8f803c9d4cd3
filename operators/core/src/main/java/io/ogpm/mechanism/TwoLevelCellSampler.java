package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.random.RandomBits;
import java.util.OptionalDouble;

/**
 * Exact integer sampling of a {@link TwoLevelMechanism} on an {@link OutputGrid}.
 *
 * <p>Sampling a double {@code y} by inverse cdf and snapping it is not enough at high epsilon: a
 * 53-bit uniform mapped through the low-density slope {@code 1/q} reaches only every few grid
 * cells, and which cells depends on whether they lie left or right of the input's bump, so some
 * cells get probability zero for one input and not for another. Instead this sampler works on
 * integer positions, {@code 2^-K} of a cell apart ({@code K} as large as 64-bit arithmetic allows,
 * at least 9):
 *
 * <ol>
 *   <li>one 64-bit draw picks background or bump: {@code (bits >>> 11) < T}, the same integer
 *       threshold for every input, so the background has probability exactly {@code w' = T / 2^53};
 *   <li>one uniform integer in {@code [0, n)} (Lemire's exact method) picks the position: {@code n
 *       = NB} positions for the background, {@code n = N} for the bump;
 *   <li>the cell is the position shifted right by K (wrapped on a circle).
 * </ol>
 *
 * <p><b>Exact privacy.</b> Cell c holds {@code B_c} background positions: {@code 2^K} inside, fewer
 * in a bounded domain's partial end cells (possibly 0, a cell then never drawn), the same for every
 * input. The bump is N consecutive positions: inside the background on a bounded domain (its start
 * is clamped), at most once around the circle on a circular one ({@code N <= NB}), so it puts
 * {@code U_c(z) <= B_c} positions in cell c. Then
 *
 * <pre>
 *   P(c | z) = (T B_c N + (2^53 - T) U_c(z) NB) / (2^53 NB N)
 * </pre>
 *
 * and for any two inputs the ratio is at most its value at {@code U = B_c} against {@code U = 0}:
 * {@code 1 + X} with {@code X = (2^53 - T) NB / (T N)}, for every cell and both kinds of domain,
 * reached when one input's bump covers an inside cell that another input's bump misses. NB is
 * rounded down from the output domain; T and N are chosen by {@link TwoLevelRounding} so that
 * {@code X <= e^eps - 1} is proved in exact arithmetic against a certified lower bound on {@code
 * e^eps - 1}, with X as close to it as the integers allow. So the exact ratio never exceeds e^eps;
 * {@link #realizedEpsilon()} is a certified upper bound on {@code ln(1 + X)}, never above eps.
 */
@Internal
public final class TwoLevelCellSampler implements CellSampler {
  private final OutputGrid grid;
  private final TwoLevelMechanism mechanism;
  private final int shift;
  private final double positionsPerUnit;
  private final long backgroundThreshold;
  private final long backgroundStart;
  private final long backgroundPositions;
  private final long bumpPositions;
  private final long maxBumpStart;
  private final boolean circular;
  private final long circleMask;
  private final double realizedEpsilon;

  TwoLevelCellSampler(TwoLevelMechanism mechanism, OutputGrid grid) {
    this.mechanism = mechanism;
    this.grid = grid;
    this.circular = mechanism.circular();
    int bits = grid.bits();
    double magnitude =
        Math.max(1, Math.max(Math.abs(mechanism.outputLo()), Math.abs(mechanism.outputHi())));
    int magnitudeBits = Math.getExponent(magnitude) + 1;
    // Positions must stay below 2^62 in magnitude.
    this.shift = Math.min(62 - bits - magnitudeBits, 40);
    if (shift < 9) {
      throw new IllegalArgumentException(
          "grid-bits " + bits + " is too fine for an output domain of magnitude " + magnitude);
    }
    this.positionsPerUnit = Math.scalb(1.0, bits + shift);
    if (circular) {
      this.backgroundStart = 0;
      this.backgroundPositions = 1L << (bits + shift);
      this.circleMask = (1L << bits) - 1;
    } else {
      this.backgroundStart = (long) Math.ceil(mechanism.outputLo() * positionsPerUnit);
      this.backgroundPositions =
          (long) Math.floor(mechanism.outputHi() * positionsPerUnit) - backgroundStart;
      this.circleMask = -1;
    }
    TwoLevelRounding rounding =
        TwoLevelRounding.of(
            mechanism,
            mechanism.backgroundMass(),
            mechanism.bumpLength() * positionsPerUnit,
            backgroundPositions,
            mechanism.epsilon());
    this.backgroundThreshold = rounding.threshold();
    this.bumpPositions = rounding.bumpPositions();
    this.realizedEpsilon = rounding.realizedEpsilon();
    this.maxBumpStart = backgroundStart + backgroundPositions - bumpPositions;
  }

  /**
   * Branch-free: background or bump is random, so a branch would mispredict often; the choice is a
   * mask, all ones when {@code (bits >>> 11) < threshold} (both below 2^53, so the sign of their
   * difference decides).
   */
  @Override
  public long sampleCell(double z, RandomBits bits) {
    long background = ((bits.nextLong() >>> 11) - backgroundThreshold) >> 63;
    long start = (backgroundStart & background) | (bumpStart(z) & ~background);
    long n = (backgroundPositions & background) | (bumpPositions & ~background);
    long position = start + bits.nextBounded(n);
    long cell = position >> shift;
    return circular ? cell & circleMask : cell;
  }

  /**
   * The bump's first position for input z (rounded down: any fixed rounding moves the bump by less
   * than a position), clamped so the bump stays inside the background.
   */
  long bumpStart(double z) {
    long start = (long) Math.floor(mechanism.bumpStart(z) * positionsPerUnit);
    return circular ? start : Math.min(Math.max(start, backgroundStart), maxBumpStart);
  }

  /**
   * The epsilon this sampler's grid outputs satisfy, certified: a double r with {@code e^r >= 1 +
   * (2^53 - T) NB / (T N)} (the exact worst-case ratio, see the class comment), proved in exact
   * arithmetic in the constructor, and never above the mechanism's eps.
   */
  public double realizedEpsilon() {
    return realizedEpsilon;
  }

  @Override
  public OptionalDouble certifiedEpsilon() {
    return OptionalDouble.of(realizedEpsilon);
  }

  /** The background threshold T: the background has probability {@code T / 2^53}. */
  long backgroundThreshold() {
    return backgroundThreshold;
  }

  /** NB: the number of background positions. */
  long backgroundPositions() {
    return backgroundPositions;
  }

  /** The first background position. */
  long backgroundStart() {
    return backgroundStart;
  }

  /** N: the number of bump positions. */
  long bumpPositions() {
    return bumpPositions;
  }

  /** K: positions per cell are {@code 2^K}. */
  int shift() {
    return shift;
  }

  /**
   * The exact probability of every used cell for input z, from the integer counts: the reference
   * for the discrete privacy check. Index i is cell {@code grid.minCell() + i}. Only for coarse
   * grids (it allocates one entry per cell).
   */
  public double[] cellProbabilities(double z) {
    long cells = grid.maxCell() - grid.minCell() + 1;
    if (cells > 1 << 22) {
      throw new IllegalArgumentException("too many cells to enumerate: " + cells);
    }
    double[] p = new double[(int) cells];
    double w = backgroundThreshold * 0x1.0p-53;
    addUniform(p, backgroundStart, backgroundPositions, w);
    addUniform(p, bumpStart(z), bumpPositions, 1 - w);
    return p;
  }

  private void addUniform(double[] p, long start, long count, double mass) {
    long perCell = 1L << shift;
    long position = start;
    long end = start + count;
    while (position < end) {
      long cell = position >> shift;
      long cellEnd = (cell + 1) * perCell;
      long inCell = Math.min(cellEnd, end) - position;
      long index = (circular ? cell & circleMask : cell) - grid.minCell();
      p[(int) index] += mass * inCell / count;
      position += inCell;
    }
  }
}
