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
@FunctionHint(
    output =
        @DataTypeHint(
            "ROW<n BIGINT, circular_mean DOUBLE, circular_mean_lower DOUBLE, "
                + "circular_mean_upper DOUBLE, resultant_length DOUBLE, resultant_length_lower DOUBLE, "
                + "resultant_length_upper DOUBLE>"))
public class LdpCircularMean extends MeanFunction {
  private static final long serialVersionUID = 1L;

  @Override
  CallLayout layout() {
    return CallLayout.LDP_CIRCULAR_MEAN;
  }

  @Override
  Row result(FieldEstimate e) {
    CircularMeans m = e.circular();
    Interval direction = m.direction();
    Interval length = m.resultantLength();
    return Row.of(
        e.count(),
        direction.estimate(),
        orNull(direction.lower()),
        orNull(direction.upper()),
        length.estimate(),
        orNull(length.lower()),
        orNull(length.upper()));
  }
}
