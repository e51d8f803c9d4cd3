package io.ogpm.flink.table;

import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.Interval;
import io.ogpm.estimate.LinearMeans;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.FunctionHint;
import org.apache.flink.types.Row;

/**
 * {@code LDP_MEAN(perturbed, lo, hi, eps [, mechanism [, objective]])}: the mean of the inputs of
 * values perturbed on the classical domain {@code [lo, hi)} (by {@code LDP_PERTURB} or the
 * DataStream operator with these arguments), with its 95 % interval: {@code ROW<n BIGINT, mean
 * DOUBLE, mean_lower DOUBLE, mean_upper DOUBLE, raw_mean DOUBLE, unbiased_mean DOUBLE,
 * mean_interval_method STRING>}.
 *
 * <p>The DataStream aggregation's estimate with method {@code raw} ({@link
 * io.ogpm.estimate.FieldEstimator}): {@code mean} is the unbiased estimate where the mechanism's
 * mean function is affine (else the perturbed values' mean) moved into the interval; the interval
 * holds the mean of the group's or window's actual inputs in at least 95 % of groups whatever the
 * inputs; {@code mean_interval_method} says what it used ({@code studentised-output-mean}, {@code
 * studentised-output-mean-and-tails}, or below the studentised regime {@code output-mean} or {@code
 * output-mean-and-tails}; {@link io.ogpm.estimate.MeanIntervalMethod}). {@code mean_lower} and
 * {@code mean_upper} are NULL where the mechanism allows no valid interval, {@code unbiased_mean}
 * where it has no affine mean function. NULL for a group without values. See {@link
 * EstimateFunction} for what is left out.
 */
@PublicEvolving
@FunctionHint(
    output =
        @DataTypeHint(
            "ROW<n BIGINT, mean DOUBLE, mean_lower DOUBLE, mean_upper DOUBLE, "
                + "raw_mean DOUBLE, unbiased_mean DOUBLE, mean_interval_method STRING>"))
public class LdpMean extends MeanFunction {
  private static final long serialVersionUID = 1L;

  @Override
  CallLayout layout() {
    return CallLayout.LDP_MEAN;
  }

  @Override
  Row result(FieldEstimate e) {
    LinearMeans m = e.linear();
    Interval mean = m.mean();
    return Row.of(
        e.count(),
        mean.estimate(),
        orNull(mean.lower()),
        orNull(mean.upper()),
        m.raw(),
        orNull(m.unbiased()),
        m.intervalMethod().code());
  }
}
