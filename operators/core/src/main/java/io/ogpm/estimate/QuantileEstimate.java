package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;

/**
 * A quantile of a window's inputs with its interval, read off the window's {@link CumulativeBand}:
 * the interval holds the p-quantile {@code inf {t : F(t) >= p}} of the window's actual inputs
 * whenever the band holds F, so in at least 95 % of windows, jointly with every other quantile and
 * exceedance of the window.
 *
 * @param probability p, in (0, 1)
 * @param interval the estimate (the reconstruction's quantile moved into the interval, or the
 *     interval's middle without a reconstruction) and the interval, in the field's units
 */
@PublicEvolving
public record QuantileEstimate(double probability, Interval interval) {
  public QuantileEstimate {
    if (!(probability > 0 && probability < 1)) {
      throw new IllegalArgumentException(
          "a quantile's probability must be in (0, 1), got " + probability);
    }
    if (interval == null) {
      throw new IllegalArgumentException("the quantile " + probability + " needs an interval");
    }
  }
}
