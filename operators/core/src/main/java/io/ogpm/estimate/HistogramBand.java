package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;

/**
 * A simultaneous 95 % band for a window's histogram of inputs: in at least 95 % of windows,
 * whatever the inputs, every bin's share of the window's actual inputs lies in {@code [lower[i],
 * upper[i]]} at once ({@link HistogramBands} says how it is found and why it is as wide as it is).
 *
 * @param lower the least share of the inputs each bin can hold (often 0: no window of outputs tells
 *     one input bin from its neighbours at the mechanism's resolution)
 * @param upper the most share of the inputs each bin can hold
 */
@PublicEvolving
public record HistogramBand(double[] lower, double[] upper) {
  public HistogramBand {
    if (lower.length != upper.length) {
      throw new IllegalArgumentException(
          "lower has " + lower.length + " bins but upper " + upper.length);
    }
    lower = lower.clone();
    upper = upper.clone();
  }

  @Override
  public double[] lower() {
    return lower.clone();
  }

  @Override
  public double[] upper() {
    return upper.clone();
  }
}
