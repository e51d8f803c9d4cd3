package io.ogpm.flink.table;

import java.util.ArrayList;
import java.util.List;
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
 * {@code LDP_POLAR_MEAN(radius, angle, radius_max, eps [, objective [, angle_min, angle_max]])}:
 * the mean radius and the circular mean angle of pairs perturbed by {@code LDP_PERTURB_POLAR} (or
 * by the DataStream operator's polar item) with these arguments, with their 95 % intervals: {@code
 * ROW<radius_n BIGINT, radius_mean DOUBLE, radius_mean_lower DOUBLE, radius_mean_upper DOUBLE,
 * angle_n BIGINT, angle_mean DOUBLE, angle_mean_lower DOUBLE, angle_mean_upper DOUBLE,
 * resultant_length DOUBLE, resultant_length_lower DOUBLE, resultant_length_upper DOUBLE,
 * radius_mean_interval_method STRING>}.
 *
 * <p>With eps split as {@code LDP_PERTURB_POLAR} splits it ({@link PolarArguments#split()}), the
 * radius's columns are {@code LDP_MEAN(radius, 0, radius_max, eps_radius, 'ogpm', objective)}'s and
 * the angle's {@code LDP_CIRCULAR_MEAN(angle, angle_min, angle_max, eps_angle, 'ogpm',
 * objective)}'s, computed by those functions: each coordinate is estimated from its own values, as
 * the DataStream aggregation estimates a polar item's two fields, so {@code radius_n} and {@code
 * angle_n} differ when a value of one coordinate was left out ({@link EstimateFunction} says what
 * is). A coordinate without values gives NULL columns; a group with neither, NULL. Arguments that
 * define no pair leave both values out, counted as {@code invalid-argument}. Mergeable and
 * retractable as the others.
 */
@PublicEvolving
@FunctionHint(
    output =
        @DataTypeHint(
            "ROW<radius_n BIGINT, radius_mean DOUBLE, radius_mean_lower DOUBLE, "
                + "radius_mean_upper DOUBLE, angle_n BIGINT, angle_mean DOUBLE, angle_mean_lower DOUBLE, "
                + "angle_mean_upper DOUBLE, resultant_length DOUBLE, resultant_length_lower DOUBLE, "
                + "resultant_length_upper DOUBLE, radius_mean_interval_method STRING>"))
public class LdpPolarMean extends AggregateFunction<Row, LdpPolarAccumulator> {
  private static final long serialVersionUID = 1L;

  /** What an invalid pair's values are given: arguments the estimators refuse, counted there. */
  private static final PolarArguments.Split INVALID =
      new PolarArguments.Split(
          new SpecArguments(null, null, null, null, null, null),
          new SpecArguments(null, null, null, null, null, null));

  private transient LdpMean radiusMean;
  private transient LdpCircularMean angleMean;
  private transient CompileCache<PolarArguments, PolarArguments.Split> splits;
  private transient PolarArguments lastArguments;
  private transient PolarArguments.Split lastSplit;

  @Override
  public void open(FunctionContext context) {
    open(context.getMetricGroup());
  }

  /** Opens with an operator's metric group. */
  void open(MetricGroup group) {
    radiusMean = new LdpMean();
    radiusMean.open(group);
    angleMean = new LdpCircularMean();
    angleMean.open(group);
    splits = new CompileCache<>(CompileCache.DEFAULT_CAPACITY, PolarArguments::split);
  }

  @Override
  public LdpPolarAccumulator createAccumulator() {
    return new LdpPolarAccumulator();
  }

  public void accumulate(
      LdpPolarAccumulator acc, Double radius, Double angle, Double radiusMax, Double eps) {
    accumulate(acc, radius, angle, radiusMax, eps, SpecArguments.DEFAULT_OBJECTIVE);
  }

  public void accumulate(
      LdpPolarAccumulator acc,
      Double radius,
      Double angle,
      Double radiusMax,
      Double eps,
      String objective) {
    accumulate(
        acc,
        radius,
        angle,
        radiusMax,
        eps,
        objective,
        PolarArguments.DEFAULT_ANGLE_MIN,
        PolarArguments.DEFAULT_ANGLE_MAX);
  }

  public void accumulate(
      LdpPolarAccumulator acc,
      Double radius,
      Double angle,
      Double radiusMax,
      Double eps,
      String objective,
      Double angleMin,
      Double angleMax) {
    change(
        acc,
        radius,
        angle,
        new PolarArguments(radiusMax, eps, objective, angleMin, angleMax),
        false);
  }

  public void retract(
      LdpPolarAccumulator acc, Double radius, Double angle, Double radiusMax, Double eps) {
    retract(acc, radius, angle, radiusMax, eps, SpecArguments.DEFAULT_OBJECTIVE);
  }

  public void retract(
      LdpPolarAccumulator acc,
      Double radius,
      Double angle,
      Double radiusMax,
      Double eps,
      String objective) {
    retract(
        acc,
        radius,
        angle,
        radiusMax,
        eps,
        objective,
        PolarArguments.DEFAULT_ANGLE_MIN,
        PolarArguments.DEFAULT_ANGLE_MAX);
  }

  public void retract(
      LdpPolarAccumulator acc,
      Double radius,
      Double angle,
      Double radiusMax,
      Double eps,
      String objective,
      Double angleMin,
      Double angleMax) {
    change(
        acc,
        radius,
        angle,
        new PolarArguments(radiusMax, eps, objective, angleMin, angleMax),
        true);
  }

  private void change(
      LdpPolarAccumulator acc, Double radius, Double angle, PolarArguments a, boolean retract) {
    if (!a.equals(lastArguments)) {
      PolarArguments.Split s = splits.get(a).value();
      lastArguments = a;
      lastSplit = s == null ? INVALID : s;
    }
    radiusMean.change(acc.radius, radius, lastSplit.radius(), retract);
    angleMean.change(acc.angle, angle, lastSplit.angle(), retract);
  }

  /** Merges accumulators (HOP, CUMULATE and session windows, two-phase aggregation). */
  public void merge(LdpPolarAccumulator acc, Iterable<LdpPolarAccumulator> others) {
    List<LdpAccumulator> radii = new ArrayList<>();
    List<LdpAccumulator> angles = new ArrayList<>();
    for (LdpPolarAccumulator other : others) {
      radii.add(other.radius);
      angles.add(other.angle);
    }
    radiusMean.mergeAll(acc.radius, radii);
    angleMean.mergeAll(acc.angle, angles);
  }

  @Override
  public Row getValue(LdpPolarAccumulator acc) {
    Row r = radiusMean.getValue(acc.radius);
    Row a = angleMean.getValue(acc.angle);
    if (r == null && a == null) {
      return null;
    }
    return Row.of(
        field(r, 0),
        field(r, 1),
        field(r, 2),
        field(r, 3),
        field(a, 0),
        field(a, 1),
        field(a, 2),
        field(a, 3),
        field(a, 4),
        field(a, 5),
        field(a, 6),
        field(r, 6));
  }

  private static Object field(Row row, int i) {
    return row == null ? null : row.getField(i);
  }

  @Override
  public TypeInference getTypeInference(DataTypeFactory typeFactory) {
    return ConstantArguments.wrap(super.getTypeInference(typeFactory), CallLayout.LDP_POLAR_MEAN);
  }
}
