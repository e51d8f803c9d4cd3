package io.ogpm.flink.aggregate;

import io.ogpm.estimate.CircularMeans;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.Interval;
import io.ogpm.estimate.LinearMeans;
import io.ogpm.flink.EstimationMethod;
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
    if (e.band() != null) {
      w.setHistogramLower(e.band().lower());
      w.setHistogramUpper(e.band().upper());
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
}
