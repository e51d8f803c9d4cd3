package io.ogpm.estimate;

import io.ogpm.annotation.Internal;

/** Distances between histograms over the same bins, for comparing estimates with the truth. */
@Internal
public final class Histograms {
  private Histograms() {}

  /**
   * The L1 distance {@code sum_i |a_i - b_i|}, the paper's distribution error (over the shorter
   * length if they differ).
   */
  public static double l1(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < Math.min(a.length, b.length); i++) {
      s += Math.abs(a[i] - b[i]);
    }
    return s;
  }
}
