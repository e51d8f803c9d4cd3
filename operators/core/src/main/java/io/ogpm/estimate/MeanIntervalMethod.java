package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;

/**
 * Which statistics of a window's outputs its linear mean interval is consistent with ({@link
 * LinearMeans#intervalMethod()}), as the stats name it.
 */
@PublicEvolving
public enum MeanIntervalMethod {
  /**
   * The outputs' mean alone, with the mechanism's largest output variance (small counts, below the
   * studentised regime).
   */
  OUTPUT_MEAN("output-mean"),
  /**
   * The outputs' mean and the tails at the ends of their histogram, the mean with the largest
   * output variance (OGPM, t-pm, t-sw below the studentised regime).
   */
  OUTPUT_MEAN_AND_TAILS("output-mean-and-tails"),
  /**
   * The outputs' mean alone, studentised by the variance the window's own sums estimate (every
   * mechanism whose mean function is affine up to the ends, at enough records).
   */
  STUDENTISED_OUTPUT_MEAN("studentised-output-mean"),
  /** The outputs' mean, studentised, and the tails at the ends of their histogram. */
  STUDENTISED_OUTPUT_MEAN_AND_TAILS("studentised-output-mean-and-tails");

  private final String code;

  MeanIntervalMethod(String code) {
    this.code = code;
  }

  /** The method of an interval from these statistics. */
  static MeanIntervalMethod of(boolean studentised, boolean tails) {
    if (studentised) {
      return tails ? STUDENTISED_OUTPUT_MEAN_AND_TAILS : STUDENTISED_OUTPUT_MEAN;
    }
    return tails ? OUTPUT_MEAN_AND_TAILS : OUTPUT_MEAN;
  }

  /** The name in the stats and the SQL rows. */
  public String code() {
    return code;
  }
}
