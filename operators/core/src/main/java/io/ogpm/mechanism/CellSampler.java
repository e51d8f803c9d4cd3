package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.random.RandomBits;
import java.util.OptionalDouble;

/**
 * Draws the output grid cell of a unit mechanism for an input. The reported value is a function of
 * the cell alone ({@link OutputGrid}), so this is where the output distribution is decided.
 */
@Internal
public interface CellSampler {
  /** The cell index for input z in [0, 1] and fresh random bits. */
  long sampleCell(double z, RandomBits bits);

  /**
   * The epsilon this sampler's cell distribution is certified to satisfy, never above the
   * mechanism's: present only where the sampler draws its cells with exactly known probabilities
   * and their worst ratio is established at most e^eps in exact arithmetic (integers over a common
   * denominator in {@link TwoLevelCellSampler}; exact geometric noise, {@link ExactGeometric}, with
   * its exact worst log ratio in {@link CertifiedLogRatio}). Empty (the default) for samplers whose
   * probabilities come from floating-point arithmetic, such as the inverse-cdf default of {@link
   * UnitMechanism#cellSampler}: nothing is claimed for them, and {@link Mechanism} refuses them.
   */
  default OptionalDouble certifiedEpsilon() {
    return OptionalDouble.empty();
  }

  /** The sampler a unit mechanism provides for a grid. */
  static CellSampler of(UnitMechanism mechanism, OutputGrid grid) {
    return mechanism.cellSampler(grid);
  }

  /**
   * The grid cell that holds input z in [0, 1]: {@code floor(z 2^bits)}, in [0, 2^bits] (z = 1 is
   * the cell just past the end; on a circle it wraps to 0). Discrete noise samplers add their noise
   * to this cell; inputs one domain width apart are at most 2^bits cells apart.
   */
  static long inputCell(double z, OutputGrid grid) {
    long cell = (long) Math.floor(z * Math.scalb(1.0, grid.bits()));
    return grid.circular() ? cell & ((1L << grid.bits()) - 1) : cell;
  }
}
