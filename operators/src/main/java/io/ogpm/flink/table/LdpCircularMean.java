package io.ogpm.flink.table;

import io.ogpm.estimate.CircularMeans;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.Interval;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.FunctionHint;
import org.apache.flink.types.Row;

/**
 * {@code LDP_CIRCULAR_MEAN(perturbed, lo, hi, eps [, mechanism [, objective]])}: the circular mean
 * of the inputs of values perturbed on the circle {@code [lo, hi)} of period {@code hi - lo}, and
 * their mean resultant length, with their 95 % intervals: {@code ROW<n BIGINT, circular_mean
 * DOUBLE, circular_mean_lower DOUBLE, circular_mean_upper DOUBLE, resultant_length DOUBLE,
 * resultant_length_lower DOUBLE, resultant_length_upper DOUBLE>}.
 *
 * <p>The DataStream aggregation's estimate with method {@code raw} ({@link
 * io.ogpm.estimate.FieldEstimator}), in the field's units: both intervals come from one 95 %
 * confidence disk for the inputs' mean resultant vector. The direction interval wraps at the seam
 * ({@code circular_mean_lower > circular_mean_upper} when it crosses {@code lo}) and is the whole
 * circle {@code [lo, hi]} when the data say nothing about the direction. The interval ends are NULL
 * for mechanisms whose noise is not the same at every angle (only circular ogpm and purkayastha
 * have intervals). NULL for a group without values. See {@link EstimateFunction} for what is left
 * out.
 */
@PublicEvolving
@FunctionHint(output = @DataTypeHint("ROW<n BIGINT, circular_mean DOUBLE, circular_mean_lower DOUBLE, "
    + "circular_mean_upper DOUBLE, resultant_length DOUBLE, resultant_length_lower DOUBLE, "
    + "resultant_length_upper DOUBLE>"))
public class LdpCircularMean extends EstimateFunction {
  private static final long serialVersionUID = 1L;
  /** A mean needs no histogram: one bin (the intervals do not depend on the bins). */
  private static final Integer BINS = 1;

  @Override
  CallLayout layout() {
    return CallLayout.LDP_CIRCULAR_MEAN;
  }

  public void accumulate(LdpAccumulator acc, Double perturbed, Double lo, Double hi, Double eps) {
    accumulate(acc, perturbed, lo, hi, eps, SpecArguments.DEFAULT_MECHANISM);
  }

  public void accumulate(LdpAccumulator acc, Double perturbed, Double lo, Double hi, Double eps, String mechanism) {
    accumulate(acc, perturbed, lo, hi, eps, mechanism, SpecArguments.DEFAULT_OBJECTIVE);
  }

  public void accumulate(LdpAccumulator acc, Double perturbed, Double lo, Double hi, Double eps, String mechanism,
      String objective) {
    change(acc, perturbed, lo, hi, eps, layout().fixedDomain, mechanism, BINS, objective, false);
  }

  public void retract(LdpAccumulator acc, Double perturbed, Double lo, Double hi, Double eps) {
    retract(acc, perturbed, lo, hi, eps, SpecArguments.DEFAULT_MECHANISM);
  }

  public void retract(LdpAccumulator acc, Double perturbed, Double lo, Double hi, Double eps, String mechanism) {
    retract(acc, perturbed, lo, hi, eps, mechanism, SpecArguments.DEFAULT_OBJECTIVE);
  }

  public void retract(LdpAccumulator acc, Double perturbed, Double lo, Double hi, Double eps, String mechanism,
      String objective) {
    change(acc, perturbed, lo, hi, eps, layout().fixedDomain, mechanism, BINS, objective, true);
  }

  public void merge(LdpAccumulator acc, Iterable<LdpAccumulator> others) {
    mergeAll(acc, others);
  }

  @Override
  public Row getValue(LdpAccumulator acc) {
    return value(acc);
  }

  @Override
  Row result(FieldEstimate e) {
    CircularMeans m = e.circular();
    Interval direction = m.direction();
    Interval length = m.resultantLength();
    return Row.of(e.count(), direction.estimate(), orNull(direction.lower()), orNull(direction.upper()),
        length.estimate(), orNull(length.lower()), orNull(length.upper()));
  }
}
