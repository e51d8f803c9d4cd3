package io.ogpm.flink.table;

import io.ogpm.estimate.DistributionQuery;
import io.ogpm.estimate.FieldEstimate;
import java.util.EnumMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.functions.AggregateFunction;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.types.inference.TypeInference;
import org.apache.flink.types.Row;

/**
 * What the aggregate functions share: values go into the DataStream aggregation's exact {@link
 * io.ogpm.estimate.FieldAccumulator} (integer counts and sums: adding, removing and merging are
 * exact, in any order), and the result is its {@link io.ogpm.estimate.FieldEstimator}'s estimate,
 * so a group or window gives, bit for bit, what the DataStream aggregation gives for the same
 * values.
 *
 * <p>An accumulator is bound to the arguments of its first value. Left out, each counted in {@code
 * valuesSkipped} under its {@code reason}: a value whose arguments define no mechanism ({@code
 * invalid-argument}), differ from those the accumulator is bound to ({@code other-mechanism}: one
 * estimate from values of two mechanisms would be meaningless), or that the mechanism cannot output
 * (NaN, an infinity, beyond the output domain: {@code not-a-perturbed-value}), and a retraction of
 * a value the accumulator cannot hold ({@code absent-value}). NULLs are skipped, as SQL's own
 * aggregates skip them, uncounted. Values taken are counted in {@code valuesAggregated}.
 *
 * <p>Retraction is exact ({@link io.ogpm.estimate.FieldAccumulator#subtract}): an aggregate over an
 * updating table (a changelog) gives the estimate of the values it currently holds. A group or
 * window whose accumulator holds no value gives NULL.
 */
@Internal
public abstract class EstimateFunction extends AggregateFunction<Row, LdpAccumulator> {
  private static final long serialVersionUID = 1L;

  private transient CompileCache<Estimation.Key, Estimation> estimations;
  private transient EstimateArguments lastArguments;
  private transient DistributionQuery lastQuery;
  private transient Estimation lastEstimation;
  private transient Counter aggregated;
  private transient Map<Reason, Counter> skipped;
  private transient FunctionMetrics metrics;

  EstimateFunction() {}

  /** Where the function's calls hold their mechanism arguments. */
  abstract CallLayout layout();

  /** The result row of a non-empty accumulator's estimate. */
  abstract Row result(FieldEstimate estimate);

  /** Whether the estimate needs the EM reconstruction (the histogram's headline). */
  boolean reconstructs() {
    return false;
  }

  @Override
  public void open(FunctionContext context) {
    open(context.getMetricGroup());
  }

  /** Opens with an operator's metric group. */
  void open(MetricGroup group) {
    estimations = new CompileCache<>(CompileCache.DEFAULT_CAPACITY, Estimation::of);
    metrics = FunctionMetrics.of(group);
    aggregated = metrics.counter("valuesAggregated");
    skipped = new EnumMap<>(Reason.class);
  }

  @Override
  public LdpAccumulator createAccumulator() {
    return new LdpAccumulator();
  }

  /** Adds (or, for a retraction, removes) one value perturbed with these arguments. */
  void change(
      LdpAccumulator acc,
      Double y,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      Integer bins,
      String objective,
      boolean retract) {
    change(
        acc,
        y,
        lo,
        hi,
        eps,
        domain,
        mechanism,
        bins,
        objective,
        DistributionQuery.DEFAULT,
        retract);
  }

  /**
   * Adds (or, for a retraction, removes) one value perturbed with these arguments, compiling the
   * estimator with the query its result will be read with ({@link #estimate}): a call then compiles
   * one estimator, not one for its values and another for its result.
   */
  void change(
      LdpAccumulator acc,
      Double y,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      Integer bins,
      String objective,
      DistributionQuery query,
      boolean retract) {
    if (y == null) {
      return;
    }
    Estimation e = estimation(lo, hi, eps, domain, mechanism, objective, bins, query);
    if (e == null) {
      skip(Reason.INVALID_ARGUMENT, 1);
      return;
    }
    if (!acc.bound()) {
      acc.bind(lastArguments);
    } else if (!acc.holds(lastArguments)) {
      skip(Reason.OTHER_MECHANISM, 1);
      return;
    }
    if (!e.accepts(y)) {
      skip(Reason.NOT_A_PERTURBED_VALUE, 1);
      return;
    }
    if (retract) {
      if (!acc.values.holdsValueLike(y, e.binning)) {
        skip(Reason.ABSENT_VALUE, 1);
        return;
      }
      acc.values.subtract(y, e.binning);
      aggregated.dec();
    } else {
      acc.values.add(y, e.binning);
      aggregated.inc();
    }
  }

  private Estimation estimation(
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      String objective,
      Integer bins,
      DistributionQuery query) {
    if (lastArguments == null
        || !lastArguments.arguments().matches(lo, hi, eps, domain, mechanism, objective)
        || !java.util.Objects.equals(lastArguments.bins(), bins)
        || (query != lastQuery && !query.equals(lastQuery))) {
      lastArguments =
          new EstimateArguments(new SpecArguments(lo, hi, eps, domain, mechanism, objective), bins);
      lastQuery = query;
      lastEstimation = estimations.get(new Estimation.Key(lastArguments, query)).value();
    }
    return lastEstimation;
  }

  /** Merges accumulators (HOP, CUMULATE and session windows, two-phase aggregation). */
  void mergeAll(LdpAccumulator acc, Iterable<LdpAccumulator> others) {
    for (LdpAccumulator other : others) {
      if (!other.bound()) {
        continue;
      }
      if (!acc.bound()) {
        acc.bind(other.arguments());
      } else if (!acc.holds(other.arguments())) {
        skip(Reason.OTHER_MECHANISM, other.values.getCount());
        continue;
      }
      acc.values.merge(other.values);
    }
  }

  /** The result of an accumulator: NULL when it holds no value. */
  Row value(LdpAccumulator acc) {
    FieldEstimate e = estimate(acc, DistributionQuery.DEFAULT);
    return e == null ? null : result(e);
  }

  /**
   * The estimate of an accumulator, reporting the quantiles of {@code query}; null when it holds no
   * value.
   */
  FieldEstimate estimate(LdpAccumulator acc, DistributionQuery query) {
    if (!acc.bound() || acc.values.getCount() == 0) {
      return null;
    }
    Estimation e = estimations.get(new Estimation.Key(acc.arguments(), query)).value();
    if (e == null) {
      // Only a restored accumulator bound to arguments this build refuses reaches here.
      return null;
    }
    return e.estimator.estimate(acc.values, reconstructs() && e.estimator.canReconstruct());
  }

  /** Counts values left out of the estimate under their reason. */
  void skip(Reason reason, long values) {
    skipped.computeIfAbsent(reason, r -> metrics.counter("valuesSkipped", r)).inc(values);
  }

  /** NaN, which no SQL DOUBLE column should carry (JSON has no NaN), as NULL. */
  static Double orNull(double v) {
    return Double.isNaN(v) ? null : v;
  }

  /** A double array as an ARRAY&lt;DOUBLE&gt;, or NULL. */
  static Double[] array(double[] values) {
    if (values == null) {
      return null;
    }
    Double[] a = new Double[values.length];
    for (int i = 0; i < values.length; i++) {
      a[i] = values[i];
    }
    return a;
  }

  @Override
  public TypeInference getTypeInference(DataTypeFactory typeFactory) {
    return ConstantArguments.wrap(super.getTypeInference(typeFactory), layout());
  }
}
