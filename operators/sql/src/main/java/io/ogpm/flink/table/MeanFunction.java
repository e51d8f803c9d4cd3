package io.ogpm.flink.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.types.Row;

/**
 * What {@link LdpMean} and {@link LdpCircularMean} share: the same calls ({@code (perturbed, lo,
 * hi, eps [, mechanism [, objective]])}, the domain fixed by the function: classical or circular),
 * accumulated, retracted and merged alike over the DataStream aggregation's default bins, which a
 * linear mean's interval reads the tails of its outputs from (so that it is the aggregation's
 * interval at its default). Each function says only its call layout and how its row is read from
 * the estimate.
 */
@Internal
public abstract class MeanFunction extends EstimateFunction {
  private static final long serialVersionUID = 1L;

  /**
   * The DataStream aggregation's default bins: the linear interval reads the tails of the outputs'
   * histogram.
   */
  static final Integer BINS = io.ogpm.flink.LdpAggregation.DEFAULT_BINS;

  MeanFunction() {}

  public void accumulate(LdpAccumulator acc, Double perturbed, Double lo, Double hi, Double eps) {
    accumulate(acc, perturbed, lo, hi, eps, SpecArguments.DEFAULT_MECHANISM);
  }

  public void accumulate(
      LdpAccumulator acc, Double perturbed, Double lo, Double hi, Double eps, String mechanism) {
    accumulate(acc, perturbed, lo, hi, eps, mechanism, SpecArguments.DEFAULT_OBJECTIVE);
  }

  public void accumulate(
      LdpAccumulator acc,
      Double perturbed,
      Double lo,
      Double hi,
      Double eps,
      String mechanism,
      String objective) {
    change(acc, perturbed, lo, hi, eps, layout().fixedDomain, mechanism, BINS, objective, false);
  }

  public void retract(LdpAccumulator acc, Double perturbed, Double lo, Double hi, Double eps) {
    retract(acc, perturbed, lo, hi, eps, SpecArguments.DEFAULT_MECHANISM);
  }

  public void retract(
      LdpAccumulator acc, Double perturbed, Double lo, Double hi, Double eps, String mechanism) {
    retract(acc, perturbed, lo, hi, eps, mechanism, SpecArguments.DEFAULT_OBJECTIVE);
  }

  public void retract(
      LdpAccumulator acc,
      Double perturbed,
      Double lo,
      Double hi,
      Double eps,
      String mechanism,
      String objective) {
    change(acc, perturbed, lo, hi, eps, layout().fixedDomain, mechanism, BINS, objective, true);
  }

  /**
   * Adds (or, for a retraction, removes) one value perturbed with these arguments: a polar call's
   * coordinate ({@link LdpPolarMean}).
   */
  void change(LdpAccumulator acc, Double y, SpecArguments a, boolean retract) {
    change(
        acc, y, a.lo(), a.hi(), a.eps(), a.domain(), a.mechanism(), BINS, a.objective(), retract);
  }

  public void merge(LdpAccumulator acc, Iterable<LdpAccumulator> others) {
    mergeAll(acc, others);
  }

  @Override
  public Row getValue(LdpAccumulator acc) {
    return value(acc);
  }
}
