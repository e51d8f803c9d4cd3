package io.ogpm.flink.table;

import io.ogpm.estimate.DistributionQuery;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.Interval;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.FunctionHint;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.functions.AggregateFunction;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.types.inference.TypeInference;
import org.apache.flink.types.Row;

/**
 * {@code LDP_QUANTILE(perturbed, p, lo, hi, eps [, domain [, mechanism [, bins [, objective]]]])}:
 * the p-quantile of the inputs of values perturbed with these arguments, with its 95 % interval:
 * {@code ROW<n BIGINT, quantile DOUBLE, quantile_lower DOUBLE, quantile_upper DOUBLE>}.
 *
 * <p>The DataStream aggregation's quantile for p with method {@code em} over {@code bins} (default
 * 50): the interval is read off the cumulative band of {@link LdpHistogram}'s estimate ({@link
 * io.ogpm.estimate.CumulativeBand#quantile}), so it holds the p-quantile {@code inf {t : F(t) >=
 * p}} of the group's or window's actual inputs in at least 95 % of groups, whatever the inputs; on
 * a circle F is the share in the arc from {@code lo}. {@code quantile} is the reconstruction's
 * quantile moved into the interval (without a reconstruction, the interval's middle). The columns
 * after {@code n} are NULL for mechanisms without a cumulative band (not piecewise; on a circle,
 * not rotation invariant); the row is NULL for a group without values.
 *
 * <p>{@code p} comes right after the value, as in Flink's {@code PERCENTILE(value, p)}, so that the
 * mechanism's optional arguments can trail as in the other aggregates. It must lie in (0, 1): a
 * literal outside fails the query when it is planned; a column's, like the other arguments, leaves
 * its value out ({@code invalid-argument}), and a p other than the group's first leaves it out as
 * {@code other-mechanism} ({@link EstimateFunction} says what else is left out). Values accumulate
 * as in {@link LdpHistogram}, in the same exact accumulator: mergeable and retractable alike.
 */
@PublicEvolving
@FunctionHint(
    output =
        @DataTypeHint(
            "ROW<n BIGINT, quantile DOUBLE, quantile_lower DOUBLE, quantile_upper DOUBLE>"))
public class LdpQuantile extends AggregateFunction<Row, LdpQuantileAccumulator> {
  private static final long serialVersionUID = 1L;

  /** Accumulates, merges and estimates the values, as LDP_HISTOGRAM does. */
  private transient LdpHistogram values;

  private transient Double lastProbability;
  private transient DistributionQuery lastQuery;

  @Override
  public void open(FunctionContext context) {
    open(context.getMetricGroup());
  }

  /** Opens with an operator's metric group. */
  void open(MetricGroup group) {
    values = new LdpHistogram();
    values.open(group);
  }

  @Override
  public LdpQuantileAccumulator createAccumulator() {
    return new LdpQuantileAccumulator();
  }

  /**
   * The query of one quantile.
   *
   * @throws IllegalArgumentException naming {@code p} when it is NULL or not in (0, 1)
   */
  static DistributionQuery query(Double p) {
    SpecArguments.required("p", p);
    if (!(p > 0 && p < 1)) {
      throw new IllegalArgumentException("p must be in (0, 1), got " + p);
    }
    return DistributionQuery.DEFAULT.withProbabilities(p);
  }

  /** The query of p, or null when p is not a probability; compiled once per p in a row. */
  private DistributionQuery queryOrNull(Double p) {
    if (lastQuery == null || !p.equals(lastProbability)) {
      DistributionQuery q;
      try {
        q = query(p);
      } catch (IllegalArgumentException e) {
        return null;
      }
      lastProbability = p;
      lastQuery = q;
    }
    return lastQuery;
  }

  public void accumulate(
      LdpQuantileAccumulator acc, Double perturbed, Double p, Double lo, Double hi, Double eps) {
    accumulate(acc, perturbed, p, lo, hi, eps, SpecArguments.DEFAULT_DOMAIN);
  }

  public void accumulate(
      LdpQuantileAccumulator acc,
      Double perturbed,
      Double p,
      Double lo,
      Double hi,
      Double eps,
      String domain) {
    accumulate(acc, perturbed, p, lo, hi, eps, domain, SpecArguments.DEFAULT_MECHANISM);
  }

  public void accumulate(
      LdpQuantileAccumulator acc,
      Double perturbed,
      Double p,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism) {
    accumulate(acc, perturbed, p, lo, hi, eps, domain, mechanism, LdpHistogram.DEFAULT_BINS);
  }

  public void accumulate(
      LdpQuantileAccumulator acc,
      Double perturbed,
      Double p,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      Integer bins) {
    accumulate(
        acc, perturbed, p, lo, hi, eps, domain, mechanism, bins, SpecArguments.DEFAULT_OBJECTIVE);
  }

  public void accumulate(
      LdpQuantileAccumulator acc,
      Double perturbed,
      Double p,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      Integer bins,
      String objective) {
    change(acc, perturbed, p, lo, hi, eps, domain, mechanism, bins, objective, false);
  }

  public void retract(
      LdpQuantileAccumulator acc, Double perturbed, Double p, Double lo, Double hi, Double eps) {
    retract(acc, perturbed, p, lo, hi, eps, SpecArguments.DEFAULT_DOMAIN);
  }

  public void retract(
      LdpQuantileAccumulator acc,
      Double perturbed,
      Double p,
      Double lo,
      Double hi,
      Double eps,
      String domain) {
    retract(acc, perturbed, p, lo, hi, eps, domain, SpecArguments.DEFAULT_MECHANISM);
  }

  public void retract(
      LdpQuantileAccumulator acc,
      Double perturbed,
      Double p,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism) {
    retract(acc, perturbed, p, lo, hi, eps, domain, mechanism, LdpHistogram.DEFAULT_BINS);
  }

  public void retract(
      LdpQuantileAccumulator acc,
      Double perturbed,
      Double p,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      Integer bins) {
    retract(
        acc, perturbed, p, lo, hi, eps, domain, mechanism, bins, SpecArguments.DEFAULT_OBJECTIVE);
  }

  public void retract(
      LdpQuantileAccumulator acc,
      Double perturbed,
      Double p,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      Integer bins,
      String objective) {
    change(acc, perturbed, p, lo, hi, eps, domain, mechanism, bins, objective, true);
  }

  private void change(
      LdpQuantileAccumulator acc,
      Double y,
      Double p,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      Integer bins,
      String objective,
      boolean retract) {
    if (y == null) {
      return;
    }
    DistributionQuery q = p == null ? null : queryOrNull(p);
    if (q == null) {
      values.skip(Reason.INVALID_ARGUMENT, 1);
      return;
    }
    if (acc.probability != null && !acc.probability.equals(p)) {
      values.skip(Reason.OTHER_MECHANISM, 1);
      return;
    }
    values.change(acc.values, y, lo, hi, eps, domain, mechanism, bins, objective, q, retract);
    if (acc.probability == null && acc.values.bound()) {
      acc.probability = p;
    }
  }

  /** Merges accumulators (HOP, CUMULATE and session windows, two-phase aggregation). */
  public void merge(LdpQuantileAccumulator acc, Iterable<LdpQuantileAccumulator> others) {
    for (LdpQuantileAccumulator other : others) {
      if (other.probability == null) {
        continue;
      }
      if (acc.probability != null && !acc.probability.equals(other.probability)) {
        values.skip(Reason.OTHER_MECHANISM, other.values.values.getCount());
        continue;
      }
      values.mergeAll(acc.values, java.util.List.of(other.values));
      if (acc.probability == null && acc.values.bound()) {
        acc.probability = other.probability;
      }
    }
  }

  @Override
  public Row getValue(LdpQuantileAccumulator acc) {
    if (acc.probability == null) {
      return null;
    }
    DistributionQuery q = queryOrNull(acc.probability);
    // A p this build refuses: only a restored accumulator of another build can hold one.
    FieldEstimate e = q == null ? null : values.estimate(acc.values, q);
    if (e == null) {
      return null;
    }
    if (e.distribution() == null) {
      return Row.of(e.count(), null, null, null);
    }
    Interval quantile = e.distribution().quantiles().get(0).interval();
    return Row.of(
        e.count(),
        EstimateFunction.orNull(quantile.estimate()),
        EstimateFunction.orNull(quantile.lower()),
        EstimateFunction.orNull(quantile.upper()));
  }

  @Override
  public TypeInference getTypeInference(DataTypeFactory typeFactory) {
    return ConstantArguments.wrap(super.getTypeInference(typeFactory), CallLayout.LDP_QUANTILE);
  }
}
