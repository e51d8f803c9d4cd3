package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;

/**
 * The share of a window's inputs above a threshold, {@code 1 - F(threshold)}, with its interval,
 * read off the window's {@link CumulativeBand}: it holds the share of the window's actual inputs
 * whenever the band holds F, so in at least 95 % of windows, jointly with every other quantile and
 * exceedance of the window. On a circle: the share in the arc from the threshold to the domain's
 * end.
 *
 * @param threshold in the field's units, in its domain
 * @param interval the estimate (the reconstruction's share moved into the interval, or the
 *     interval's middle without a reconstruction) and the interval, shares in [0, 1]
 */
@PublicEvolving
public record ExceedanceEstimate(double threshold, Interval interval) {
  public ExceedanceEstimate {
    if (!Double.isFinite(threshold)) {
      throw new IllegalArgumentException(
          "an exceedance threshold must be a finite number, got " + threshold);
    }
    if (interval == null) {
      throw new IllegalArgumentException("the exceedance of " + threshold + " needs an interval");
    }
  }
}
