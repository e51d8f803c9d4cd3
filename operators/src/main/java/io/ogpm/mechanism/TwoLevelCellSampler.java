package io.ogpm.mechanism;

import io.ogpm.mechanism.random.RandomBits;

/**
 * Exact integer sampling of a {@link TwoLevelMechanism} on an {@link OutputGrid}.
 *
 * <p>Sampling a double {@code y} by inverse cdf and snapping it is not enough at high epsilon: a
 * 53-bit uniform mapped through the low-density slope {@code 1/q} reaches only every few grid
 * cells, and which cells depends on whether they lie left or right of the input's bump, so some
 * cells get probability zero for one input and not for another. Instead this sampler works on
 * integer positions, {@code 2^-K} of a cell apart ({@code K} as large as 64-bit arithmetic
 * allows, at least 9):
 *
 * <ol>
 *   <li>one 64-bit draw picks background or bump: {@code (bits >>> 11) < ceil(w 2^53)}, the same
 *       threshold for every input;
 *   <li>one uniform integer in {@code [0, n)} (Lemire's exact method) picks the position: {@code n
 *       = NB} positions for the background, {@code n = N} for the bump;
 *   <li>the cell is the position shifted right by K (wrapped on a circle).
 * </ol>
 *
 * Every cell is reached by exactly {@code 2^K} background positions (fewer at a bounded domain's
 * partial end cells, the same for every input) and by at most {@code 2^K} bump positions. Rounding
 * is made to favour privacy: the background threshold rounds up, {@code NB} rounds down, {@code N}
 * rounds up. The sampler is therefore exactly {@link #realizedEpsilon()}-LDP on the grid, with
 * {@code e^eps' = 1 + (1 - w') NB / (w' N)}, and eps' never exceeds the mechanism's eps by more
 * than the rounding of the mechanism's own parameters (about 1e-15 relative).
 */
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

  TwoLevelCellSampler(TwoLevelMechanism mechanism, OutputGrid grid) {
    this.mechanism = mechanism;
    this.grid = grid;
    this.circular = mechanism.circular();
    int bits = grid.bits();
    double magnitude = Math.max(1, Math.max(Math.abs(mechanism.outputLo()), Math.abs(mechanism.outputHi())));
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
      this.backgroundPositions = (long) Math.floor(mechanism.outputHi() * positionsPerUnit) - backgroundStart;
      this.circleMask = -1;
    }
    this.bumpPositions = Math.max(1, (long) Math.ceil(mechanism.bumpLength() * positionsPerUnit));
    this.maxBumpStart = backgroundStart + backgroundPositions - bumpPositions;
    double threshold = Math.ceil(mechanism.backgroundMass() * 0x1.0p53);
    this.backgroundThreshold = (long) Math.min(threshold, 0x1.0p53);
  }

  /**
   * Branch-free: background or bump is random, so a branch would mispredict often; the choice is
   * a mask, all ones when {@code (bits >>> 11) < threshold} (both below 2^53, so the sign of their
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
   * The epsilon this sampler really satisfies on the grid: {@code ln(1 + (1 - w') NB / (w' N))}
   * with the rounded background probability {@code w'} and position counts.
   */
  public double realizedEpsilon() {
    double w = backgroundThreshold * 0x1.0p-53;
    return Math.log1p((1 - w) * backgroundPositions / (w * bumpPositions));
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
