package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;

/**
 * Which statistics of a window's outputs its linear mean interval is consistent with ({@link
 * LinearMeans#intervalMethod()}), as the stats name it.
 */
@PublicEvolving
public enum MeanIntervalMethod {
  /**
   * The outputs' mean alone (every mechanism whose mean function is affine up to the ends, and
   * small counts).
   */
  OUTPUT_MEAN("output-mean"),
  /**
   * The outputs' mean and the tails at the ends of their histogram (OGPM, t-pm, t-sw at enough
   * records).
   */
  OUTPUT_MEAN_AND_TAILS("output-mean-and-tails");

  private final String code;

  MeanIntervalMethod(String code) {
    this.code = code;
  }

  /** The name in the stats and the SQL rows. */
  public String code() {
    return code;
  }
}
