package io.ogpm.mechanism;

import io.ogpm.mechanism.random.RandomBits;

/**
 * Draws the output grid cell of a unit mechanism for an input. The reported value is a function of
 * the cell alone ({@link OutputGrid}), so this is where the output distribution is decided.
 */
public interface CellSampler {
  /** The cell index for input z in [0, 1] and fresh random bits. */
  long sampleCell(double z, RandomBits bits);

  /** The sampler for a unit mechanism on a grid: exact for two-level mechanisms. */
  static CellSampler of(UnitMechanism mechanism, OutputGrid grid) {
    if (mechanism instanceof TwoLevelMechanism twoLevel) {
      return new TwoLevelCellSampler(twoLevel, grid);
    }
    return (z, bits) -> grid.cell(mechanism.inverseCdf(z, bits.nextUniform()));
  }
}
