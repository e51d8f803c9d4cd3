package io.ogpm.mechanism.baseline;

import io.ogpm.mechanism.CellSampler;
import io.ogpm.mechanism.CertifiedLogRatio;
import io.ogpm.mechanism.ExactGeometric;
import io.ogpm.mechanism.OutputGrid;
import io.ogpm.mechanism.UnitMechanism;
import java.math.BigDecimal;
import java.util.OptionalDouble;

/**
 * What the samplers of the Laplace family share (T-Laplace, B-Laplace, Purkayastha): the input's
 * cell plus two-sided geometric noise of decay {@code lambda = rate / 2^bits} per cell, that exact
 * dyadic number itself ({@link ExactGeometric}), so that the worst log ratio of the cell
 * probabilities is exactly {@code lambda} times the largest change in exponent that two inputs can
 * cause, which each mechanism proves ({@link CertifiedLogRatio}).
 */
abstract class GeometricNoiseSampler implements CellSampler {
  final OutputGrid grid;
  final ExactGeometric noise;
  private final CertifiedLogRatio ratio;

  /**
   * @param rate the decay per unit of the domain (eps for the Laplace variants, kappa for
   *     Purkayastha)
   * @param worstSpan the largest change in exponent, in cells, that two inputs can cause
   * @throws IllegalArgumentException if the worst log ratio exceeds the mechanism's eps
   */
  GeometricNoiseSampler(UnitMechanism m, OutputGrid grid, double rate, long worstSpan) {
    this.grid = grid;
    BigDecimal decay = CertifiedLogRatio.dyadic(rate, -grid.bits());
    this.noise = ExactGeometric.of(decay, grid.bits());
    this.ratio =
        CertifiedLogRatio.of(m, m.epsilon(), decay.multiply(BigDecimal.valueOf(worstSpan)));
  }

  @Override
  public OptionalDouble certifiedEpsilon() {
    return OptionalDouble.of(ratio.certifiedEpsilon());
  }

  ExactGeometric noise() {
    return noise;
  }

  CertifiedLogRatio ratio() {
    return ratio;
  }
}
