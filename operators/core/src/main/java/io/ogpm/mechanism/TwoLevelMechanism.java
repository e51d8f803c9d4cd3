package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;
import java.util.ArrayList;
import java.util.List;

/**
 * A piecewise mechanism with two density levels, written as a mixture: with probability {@link
 * #backgroundMass()} the output is uniform over the whole output domain (the low density q spread
 * everywhere), otherwise it is uniform on the bump {@code [bumpStart(z), bumpStart(z) +
 * bumpLength())} (the excess p - q of the high density). Every three-piece mechanism of the paper
 * has this form: its density is {@code q + (p - q) 1[l, l + s)}.
 *
 * <p>The form matters for sampling: the background's probability and position do not depend on the
 * input, so the exact integer sampler ({@link TwoLevelCellSampler}) reaches every output cell with
 * the same probability whatever the input, except through the bump.
 */
@Internal
public interface TwoLevelMechanism extends PiecewiseUnitMechanism {
  /**
   * The probability of the background, {@code q (outputHi - outputLo)}; independent of the input.
   */
  double backgroundMass();

  /** The bump's length s; independent of the input. */
  double bumpLength();

  /**
   * Where the bump starts for input z. Inside {@code [outputLo, outputHi - s]} for a bounded output
   * domain; on a circle, any real number (read modulo 1).
   */
  double bumpStart(double z);

  /** The exact integer sampler. */
  @Override
  default CellSampler cellSampler(OutputGrid grid) {
    return new TwoLevelCellSampler(this, grid);
  }

  /** Inverse-cdf sampling over {@link #distribution}: for mechanisms without a faster formula. */
  @Override
  default double inverseCdf(double z, double u) {
    return distribution(z).inverseCdf(u);
  }

  /** The low density q. */
  default double lowDensity() {
    return backgroundMass() / (outputHi() - outputLo());
  }

  /** The high density p = q + (1 - background) / s. */
  default double highDensity() {
    return lowDensity() + (1 - backgroundMass()) / bumpLength();
  }

  /** The pieces of the mixture, wrapped on a circle. */
  @Override
  default PiecewiseDistribution distribution(double z) {
    double lo = outputLo();
    double hi = outputHi();
    double low = lowDensity();
    double high = highDensity();
    double start = bumpStart(z);
    double end = start + bumpLength();
    List<PiecewiseDistribution.Piece> pieces = new ArrayList<>(3);
    if (circular()) {
      start -= Math.floor(start);
      end = start + bumpLength();
      if (end > 1) {
        pieces.add(new PiecewiseDistribution.Piece(0, end - 1, high));
        pieces.add(new PiecewiseDistribution.Piece(end - 1, start, low));
        pieces.add(new PiecewiseDistribution.Piece(start, 1, high));
        return PiecewiseDistribution.ofPieces(pieces);
      }
    }
    // Rounding may put the bump an ulp past either end of the domain.
    start = Math.max(start, lo);
    end = Math.min(end, hi);
    pieces.add(new PiecewiseDistribution.Piece(lo, start, low));
    pieces.add(new PiecewiseDistribution.Piece(start, end, high));
    pieces.add(new PiecewiseDistribution.Piece(end, hi, low));
    return PiecewiseDistribution.ofPieces(pieces);
  }
}
