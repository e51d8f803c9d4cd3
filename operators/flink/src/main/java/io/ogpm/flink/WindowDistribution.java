package io.ogpm.flink;

import java.util.Arrays;
import org.apache.flink.annotation.PublicEvolving;

/**
 * What one window says about the distribution of a field's inputs beyond the histogram ({@link
 * WindowEstimate#getDistribution()}; {@code distribution} in the stats JSON): a simultaneous 95 %
 * band for their cumulative distribution {@code F(t)}, the share of the inputs at or below t (on a
 * circle: in the arc from the domain's start to t), and the quantiles and exceedance shares asked
 * for, each with its interval read off that band. The band and every interval hold the window's
 * truth together in at least 95 % of windows, whatever the inputs ({@link
 * io.ogpm.estimate.DistributionEstimate}).
 *
 * <p>Parallel arrays: {@code cdfPoints[k]} with {@code cdfLower[k]} and {@code cdfUpper[k]}; the
 * k-th quantile's probability, estimate and interval at index k of the four quantile arrays; the
 * k-th threshold's share above it, estimate and interval, at index k of the four exceedance arrays.
 * A Flink POJO of primitive arrays (no Kryo).
 */
@PublicEvolving
public class WindowDistribution {
  private double[] cdfPoints;
  private double[] cdfLower;
  private double[] cdfUpper;
  private double[] quantileProbabilities;
  private double[] quantileEstimates;
  private double[] quantileLower;
  private double[] quantileUpper;
  private double[] exceedanceThresholds;
  private double[] exceedanceEstimates;
  private double[] exceedanceLower;
  private double[] exceedanceUpper;

  /** For Flink. */
  public WindowDistribution() {}

  /** Where the band is given, from the domain's start to its end, in the field's units. */
  public double[] getCdfPoints() {
    return cdfPoints;
  }

  public void setCdfPoints(double[] cdfPoints) {
    this.cdfPoints = cdfPoints;
  }

  /** The least share of the inputs at or below each point. */
  public double[] getCdfLower() {
    return cdfLower;
  }

  public void setCdfLower(double[] cdfLower) {
    this.cdfLower = cdfLower;
  }

  /** The most share of the inputs at or below each point. */
  public double[] getCdfUpper() {
    return cdfUpper;
  }

  public void setCdfUpper(double[] cdfUpper) {
    this.cdfUpper = cdfUpper;
  }

  /** The quantiles' probabilities, increasing; possibly empty. */
  public double[] getQuantileProbabilities() {
    return quantileProbabilities;
  }

  public void setQuantileProbabilities(double[] quantileProbabilities) {
    this.quantileProbabilities = quantileProbabilities;
  }

  /**
   * Each quantile's estimate: the reconstruction's, moved into its interval, or the interval's
   * middle without a reconstruction.
   */
  public double[] getQuantileEstimates() {
    return quantileEstimates;
  }

  public void setQuantileEstimates(double[] quantileEstimates) {
    this.quantileEstimates = quantileEstimates;
  }

  public double[] getQuantileLower() {
    return quantileLower;
  }

  public void setQuantileLower(double[] quantileLower) {
    this.quantileLower = quantileLower;
  }

  public double[] getQuantileUpper() {
    return quantileUpper;
  }

  public void setQuantileUpper(double[] quantileUpper) {
    this.quantileUpper = quantileUpper;
  }

  /** The thresholds, increasing, in the field's units; possibly empty. */
  public double[] getExceedanceThresholds() {
    return exceedanceThresholds;
  }

  public void setExceedanceThresholds(double[] exceedanceThresholds) {
    this.exceedanceThresholds = exceedanceThresholds;
  }

  /**
   * Each threshold's estimated share of the inputs above it: the reconstruction's, moved into its
   * interval, or the interval's middle without a reconstruction.
   */
  public double[] getExceedanceEstimates() {
    return exceedanceEstimates;
  }

  public void setExceedanceEstimates(double[] exceedanceEstimates) {
    this.exceedanceEstimates = exceedanceEstimates;
  }

  public double[] getExceedanceLower() {
    return exceedanceLower;
  }

  public void setExceedanceLower(double[] exceedanceLower) {
    this.exceedanceLower = exceedanceLower;
  }

  public double[] getExceedanceUpper() {
    return exceedanceUpper;
  }

  public void setExceedanceUpper(double[] exceedanceUpper) {
    this.exceedanceUpper = exceedanceUpper;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WindowDistribution d
        && Arrays.equals(cdfPoints, d.cdfPoints)
        && Arrays.equals(cdfLower, d.cdfLower)
        && Arrays.equals(cdfUpper, d.cdfUpper)
        && Arrays.equals(quantileProbabilities, d.quantileProbabilities)
        && Arrays.equals(quantileEstimates, d.quantileEstimates)
        && Arrays.equals(quantileLower, d.quantileLower)
        && Arrays.equals(quantileUpper, d.quantileUpper)
        && Arrays.equals(exceedanceThresholds, d.exceedanceThresholds)
        && Arrays.equals(exceedanceEstimates, d.exceedanceEstimates)
        && Arrays.equals(exceedanceLower, d.exceedanceLower)
        && Arrays.equals(exceedanceUpper, d.exceedanceUpper);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(quantileEstimates) + Arrays.hashCode(exceedanceEstimates);
  }

  @Override
  public String toString() {
    return "WindowDistribution{quantiles "
        + Arrays.toString(quantileProbabilities)
        + " = "
        + Arrays.toString(quantileEstimates)
        + ", exceedances "
        + Arrays.toString(exceedanceThresholds)
        + " = "
        + Arrays.toString(exceedanceEstimates)
        + "}";
  }
}
