package io.ogpm.flink;

import io.ogpm.estimate.MeanIntervalMethod;
import java.util.Arrays;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * What one event-time window says about one field of one group: what the stats topic holds ({@link
 * io.ogpm.flink.kafka.WindowEstimateSerializer} writes it as the JSON documented in
 * docs/aggregation.md, "Reading the stats"). A window is emitted when the watermark passes its end,
 * and again, recomputed from all of its records, when late records change it (see {@link
 * LdpAggregation}): keep the last estimate per window, field and group.
 *
 * <p>Classical fields have {@link #getMean()} with its 95 % interval, circular fields {@link
 * #getCircularMean()} and {@link #getResultantLength()} with theirs; the other kind's values are
 * NaN. An interval's ends are NaN where the mechanism allows no valid interval. Every interval
 * holds the window's truth (the mean, or the direction or length of the mean resultant vector, of
 * its actual inputs) in at least 95 % of windows whatever the inputs; {@link
 * #getMeanIntervalMethod()} says what the linear one used. {@link #getDistribution()} is a band for
 * the cumulative distribution of the window's inputs, every point at once, with the quantiles and
 * exceedance shares read off it (null for mechanisms without one).
 *
 * <p>A Flink POJO (no Kryo). Times are epoch milliseconds; a window is {@code [windowStart,
 * windowEnd)}.
 */
@PublicEvolving
public class WindowEstimate {
  private long windowStart;
  private long windowEnd;
  private String field;
  private String group;
  private int bins;
  private long count;
  private EstimationMethod method;
  private double[] histogram;
  private boolean circular;
  private double mean = Double.NaN;
  private double meanLower = Double.NaN;
  private double meanUpper = Double.NaN;
  private double circularMean = Double.NaN;
  private double circularMeanLower = Double.NaN;
  private double circularMeanUpper = Double.NaN;
  private double resultantLength = Double.NaN;
  private double resultantLengthLower = Double.NaN;
  private double resultantLengthUpper = Double.NaN;
  private double rawMean = Double.NaN;
  private double unbiasedMean = Double.NaN;
  private double unbiasedFrom = Double.NaN;
  private double unbiasedTo = Double.NaN;
  private double reconstructedMean = Double.NaN;
  private double[] rawHistogram;
  private double[] reconstructedHistogram;
  private int emIterations;
  private MeanIntervalMethod meanIntervalMethod;
  private double meanIdentifiedWidth = Double.NaN;
  private String meanAlternative;
  private double meanAlternativeWidth = Double.NaN;
  private WindowDistribution distribution;
  private double userEpsilonBound = Double.POSITIVE_INFINITY;

  /** For Flink. */
  public WindowEstimate() {}

  /** Start of the window (inclusive), epoch ms. */
  public long getWindowStart() {
    return windowStart;
  }

  public void setWindowStart(long windowStart) {
    this.windowStart = windowStart;
  }

  /** End of the window (exclusive), epoch ms. */
  public long getWindowEnd() {
    return windowEnd;
  }

  public void setWindowEnd(long windowEnd) {
    this.windowEnd = windowEnd;
  }

  /** The field's dotted name. */
  public String getField() {
    return field;
  }

  public void setField(String field) {
    this.field = field;
  }

  /** The group, or null for the one global group. */
  public String getGroup() {
    return group;
  }

  public void setGroup(String group) {
    this.group = group;
  }

  /** Number of histogram bins over the field's domain. */
  public int getBins() {
    return bins;
  }

  public void setBins(int bins) {
    this.bins = bins;
  }

  /** Perturbed values in the window. */
  public long getCount() {
    return count;
  }

  public void setCount(long count) {
    this.count = count;
  }

  /**
   * {@link EstimationMethod#EM} where the headline histogram and mean are the reconstruction's,
   * else {@link EstimationMethod#RAW} (asked for, or no reconstruction for the field's mechanism).
   */
  public EstimationMethod getMethod() {
    return method;
  }

  public void setMethod(EstimationMethod method) {
    this.method = method;
  }

  /** The headline histogram: frequencies over the bins, summing to 1. */
  public double[] getHistogram() {
    return histogram;
  }

  public void setHistogram(double[] histogram) {
    this.histogram = histogram;
  }

  /** Whether the field is circular. */
  public boolean isCircular() {
    return circular;
  }

  public void setCircular(boolean circular) {
    this.circular = circular;
  }

  /** The headline mean of a classical field (NaN on a circle). */
  public double getMean() {
    return mean;
  }

  public void setMean(double mean) {
    this.mean = mean;
  }

  public double getMeanLower() {
    return meanLower;
  }

  public void setMeanLower(double meanLower) {
    this.meanLower = meanLower;
  }

  public double getMeanUpper() {
    return meanUpper;
  }

  public void setMeanUpper(double meanUpper) {
    this.meanUpper = meanUpper;
  }

  /** The headline circular mean, in the field's units (NaN on an interval). */
  public double getCircularMean() {
    return circularMean;
  }

  public void setCircularMean(double circularMean) {
    this.circularMean = circularMean;
  }

  /** Lower end of the direction interval (above the upper end when it crosses the seam). */
  public double getCircularMeanLower() {
    return circularMeanLower;
  }

  public void setCircularMeanLower(double circularMeanLower) {
    this.circularMeanLower = circularMeanLower;
  }

  public double getCircularMeanUpper() {
    return circularMeanUpper;
  }

  public void setCircularMeanUpper(double circularMeanUpper) {
    this.circularMeanUpper = circularMeanUpper;
  }

  /** The mean resultant length of the inputs (NaN on an interval). */
  public double getResultantLength() {
    return resultantLength;
  }

  public void setResultantLength(double resultantLength) {
    this.resultantLength = resultantLength;
  }

  public double getResultantLengthLower() {
    return resultantLengthLower;
  }

  public void setResultantLengthLower(double resultantLengthLower) {
    this.resultantLengthLower = resultantLengthLower;
  }

  public double getResultantLengthUpper() {
    return resultantLengthUpper;
  }

  public void setResultantLengthUpper(double resultantLengthUpper) {
    this.resultantLengthUpper = resultantLengthUpper;
  }

  /** The raw estimate: the perturbed values' mean (classical) or direction (circular). */
  public double getRawMean() {
    return rawMean;
  }

  public void setRawMean(double rawMean) {
    this.rawMean = rawMean;
  }

  /** The unbiased mean where the mechanism's mean function is affine, else NaN. */
  public double getUnbiasedMean() {
    return unbiasedMean;
  }

  public void setUnbiasedMean(double unbiasedMean) {
    this.unbiasedMean = unbiasedMean;
  }

  /** Lower end of the inputs for which the unbiased mean is exact. */
  public double getUnbiasedFrom() {
    return unbiasedFrom;
  }

  public void setUnbiasedFrom(double unbiasedFrom) {
    this.unbiasedFrom = unbiasedFrom;
  }

  public double getUnbiasedTo() {
    return unbiasedTo;
  }

  public void setUnbiasedTo(double unbiasedTo) {
    this.unbiasedTo = unbiasedTo;
  }

  /** The reconstruction's mean (classical) or direction (circular), or NaN. */
  public double getReconstructedMean() {
    return reconstructedMean;
  }

  public void setReconstructedMean(double reconstructedMean) {
    this.reconstructedMean = reconstructedMean;
  }

  /** The raw histogram of the perturbed values. */
  public double[] getRawHistogram() {
    return rawHistogram;
  }

  public void setRawHistogram(double[] rawHistogram) {
    this.rawHistogram = rawHistogram;
  }

  /** The EM reconstruction, or null. */
  public double[] getReconstructedHistogram() {
    return reconstructedHistogram;
  }

  public void setReconstructedHistogram(double[] reconstructedHistogram) {
    this.reconstructedHistogram = reconstructedHistogram;
  }

  /** EM iterations (0 without reconstruction). */
  public int getEmIterations() {
    return emIterations;
  }

  public void setEmIterations(int emIterations) {
    this.emIterations = emIterations;
  }

  /** What the linear mean's interval used (null on a circle or for an empty window). */
  /**
   * The most any one user's records in this window spend together, by the configuration's
   * contribution bound and budget on the broker's clock ({@link
   * io.ogpm.config.UserGuarantee#inWindow}): what the window promises a person, never who. Infinite
   * where nothing bounds it.
   */
  public double getUserEpsilonBound() {
    return userEpsilonBound;
  }

  public void setUserEpsilonBound(double userEpsilonBound) {
    this.userEpsilonBound = userEpsilonBound;
  }

  public MeanIntervalMethod getMeanIntervalMethod() {
    return meanIntervalMethod;
  }

  public void setMeanIntervalMethod(MeanIntervalMethod meanIntervalMethod) {
    this.meanIntervalMethod = meanIntervalMethod;
  }

  /**
   * The width of the linear mean's identified set at the window's statistics: the part of its
   * interval more readings would not remove (NaN on a circle, for an empty window or without an
   * interval).
   */
  public double getMeanIdentifiedWidth() {
    return meanIdentifiedWidth;
  }

  public void setMeanIdentifiedWidth(double meanIdentifiedWidth) {
    this.meanIdentifiedWidth = meanIdentifiedWidth;
  }

  /**
   * Where most of the linear mean's interval is unidentified: the mechanism whose interval would be
   * narrower at this count ({@link io.ogpm.estimate.MeanAlternative}); else null.
   */
  public String getMeanAlternative() {
    return meanAlternative;
  }

  public void setMeanAlternative(String meanAlternative) {
    this.meanAlternative = meanAlternative;
  }

  /** That mechanism's expected interval width at this count; NaN without one. */
  public double getMeanAlternativeWidth() {
    return meanAlternativeWidth;
  }

  public void setMeanAlternativeWidth(double meanAlternativeWidth) {
    this.meanAlternativeWidth = meanAlternativeWidth;
  }

  /**
   * The cumulative band, quantiles and exceedance shares of the window's inputs; null for
   * mechanisms without a cumulative band.
   */
  public WindowDistribution getDistribution() {
    return distribution;
  }

  public void setDistribution(WindowDistribution distribution) {
    this.distribution = distribution;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof WindowEstimate w)) {
      return false;
    }
    return windowStart == w.windowStart
        && windowEnd == w.windowEnd
        && Objects.equals(field, w.field)
        && Objects.equals(group, w.group)
        && bins == w.bins
        && count == w.count
        && Objects.equals(method, w.method)
        && Arrays.equals(histogram, w.histogram)
        && circular == w.circular
        && same(mean, w.mean)
        && same(meanLower, w.meanLower)
        && same(meanUpper, w.meanUpper)
        && same(circularMean, w.circularMean)
        && same(circularMeanLower, w.circularMeanLower)
        && same(circularMeanUpper, w.circularMeanUpper)
        && same(resultantLength, w.resultantLength)
        && same(resultantLengthLower, w.resultantLengthLower)
        && same(resultantLengthUpper, w.resultantLengthUpper)
        && same(rawMean, w.rawMean)
        && same(unbiasedMean, w.unbiasedMean)
        && same(unbiasedFrom, w.unbiasedFrom)
        && same(unbiasedTo, w.unbiasedTo)
        && same(reconstructedMean, w.reconstructedMean)
        && Arrays.equals(rawHistogram, w.rawHistogram)
        && Arrays.equals(reconstructedHistogram, w.reconstructedHistogram)
        && emIterations == w.emIterations
        && meanIntervalMethod == w.meanIntervalMethod
        && same(meanIdentifiedWidth, w.meanIdentifiedWidth)
        && Objects.equals(meanAlternative, w.meanAlternative)
        && same(meanAlternativeWidth, w.meanAlternativeWidth)
        && Objects.equals(distribution, w.distribution);
  }

  private static boolean same(double a, double b) {
    return Double.doubleToLongBits(a) == Double.doubleToLongBits(b);
  }

  @Override
  public int hashCode() {
    return Objects.hash(windowStart, windowEnd, field, group, count, mean, circularMean);
  }

  @Override
  public String toString() {
    return "WindowEstimate{["
        + windowStart
        + ", "
        + windowEnd
        + ") "
        + field
        + " group="
        + group
        + " n="
        + count
        + " "
        + (method == null ? null : method.code())
        + (circular ? " circularMean=" + circularMean : " mean=" + mean)
        + "}";
  }
}
