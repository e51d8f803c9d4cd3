package io.ogpm.flink.aggregate;

import io.ogpm.estimate.CircularMeans;
import io.ogpm.estimate.DistributionEstimate;
import io.ogpm.estimate.ExceedanceEstimate;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.Interval;
import io.ogpm.estimate.LinearMeans;
import io.ogpm.estimate.QuantileEstimate;
import io.ogpm.flink.EstimationMethod;
import io.ogpm.flink.WindowDistribution;
import io.ogpm.flink.WindowEstimate;
import org.apache.flink.annotation.Internal;

/**
 * Makes the {@link WindowEstimate} of a window from a field's {@link FieldEstimate}: the
 * aggregation's factory, kept out of the API type so that users see a plain value with its getters.
 */
@Internal
public final class WindowEstimates {
  private WindowEstimates() {}

  /**
   * The estimate of a window.
   *
   * @param reconstruct whether method {@code em} was asked for: the headline histogram and mean are
   *     then the reconstruction's, where there is one
   */
  public static WindowEstimate of(
      long windowStart,
      long windowEnd,
      String field,
      String group,
      int bins,
      FieldEstimate e,
      boolean reconstruct) {
    WindowEstimate w = new WindowEstimate();
    w.setWindowStart(windowStart);
    w.setWindowEnd(windowEnd);
    w.setField(field);
    w.setGroup(group);
    w.setBins(bins);
    w.setCount(e.count());
    boolean useEm = reconstruct && e.reconstructedHistogram() != null;
    w.setMethod(useEm ? EstimationMethod.EM : EstimationMethod.RAW);
    w.setHistogram(useEm ? e.reconstructedHistogram() : e.rawHistogram());
    w.setRawHistogram(e.rawHistogram());
    w.setReconstructedHistogram(e.reconstructedHistogram());
    w.setEmIterations(e.iterations());
    if (e.distribution() != null) {
      w.setDistribution(distribution(e.distribution()));
    }
    if (e.linear() != null) {
      LinearMeans m = e.linear();
      Interval headline = useEm ? m.reconstructedMean() : m.mean();
      w.setMean(headline.estimate());
      w.setMeanLower(headline.lower());
      w.setMeanUpper(headline.upper());
      w.setRawMean(m.raw());
      w.setUnbiasedMean(m.unbiased());
      w.setUnbiasedFrom(m.unbiasedFrom());
      w.setUnbiasedTo(m.unbiasedTo());
      w.setReconstructedMean(m.reconstructed());
      w.setMeanIntervalMethod(m.intervalMethod());
      w.setMeanIdentifiedWidth(m.identifiedWidth());
      if (m.alternative() != null) {
        w.setMeanAlternative(m.alternative().mechanism().id());
        w.setMeanAlternativeWidth(m.alternative().expectedWidth());
      }
    }
    if (e.circular() != null) {
      CircularMeans m = e.circular();
      Interval headline = useEm ? m.reconstructedDirection() : m.direction();
      w.setCircular(true);
      w.setCircularMean(headline.estimate());
      w.setCircularMeanLower(headline.lower());
      w.setCircularMeanUpper(headline.upper());
      w.setResultantLength(m.resultantLength().estimate());
      w.setResultantLengthLower(m.resultantLength().lower());
      w.setResultantLengthUpper(m.resultantLength().upper());
      w.setRawMean(m.direction().estimate());
      w.setReconstructedMean(m.reconstructed());
    }
    return w;
  }

  /** The distribution as parallel arrays. */
  static WindowDistribution distribution(DistributionEstimate d) {
    WindowDistribution w = new WindowDistribution();
    w.setCdfPoints(d.cdf().points());
    w.setCdfLower(d.cdf().lower());
    w.setCdfUpper(d.cdf().upper());
    int q = d.quantiles().size();
    double[] probabilities = new double[q];
    double[] estimates = new double[q];
    double[] lower = new double[q];
    double[] upper = new double[q];
    for (int k = 0; k < q; k++) {
      QuantileEstimate quantile = d.quantiles().get(k);
      probabilities[k] = quantile.probability();
      estimates[k] = quantile.interval().estimate();
      lower[k] = quantile.interval().lower();
      upper[k] = quantile.interval().upper();
    }
    w.setQuantileProbabilities(probabilities);
    w.setQuantileEstimates(estimates);
    w.setQuantileLower(lower);
    w.setQuantileUpper(upper);
    int x = d.exceedances().size();
    double[] thresholds = new double[x];
    double[] shares = new double[x];
    double[] least = new double[x];
    double[] most = new double[x];
    for (int k = 0; k < x; k++) {
      ExceedanceEstimate exceedance = d.exceedances().get(k);
      thresholds[k] = exceedance.threshold();
      shares[k] = exceedance.interval().estimate();
      least[k] = exceedance.interval().lower();
      most[k] = exceedance.interval().upper();
    }
    w.setExceedanceThresholds(thresholds);
    w.setExceedanceEstimates(shares);
    w.setExceedanceLower(least);
    w.setExceedanceUpper(most);
    return w;
  }
}
