package io.ogpm.flink.table;

import io.ogpm.estimate.CumulativeBand;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.flink.EstimationMethod;
import io.ogpm.flink.LdpAggregation;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.FunctionHint;
import org.apache.flink.types.Row;

/**
 * {@code LDP_HISTOGRAM(perturbed, lo, hi, eps [, domain [, mechanism [, bins [, objective]]]])}:
 * the distribution of the inputs of values perturbed on {@code [lo, hi)} over {@code bins} equal
 * bins (default 50, at most 10,000): {@code ROW<n BIGINT, estimate_method STRING, histogram
 * ARRAY<DOUBLE>, raw_histogram ARRAY<DOUBLE>, reconstructed_histogram ARRAY<DOUBLE>, em_iterations
 * INT, cdf_points ARRAY<DOUBLE>, cdf_lower ARRAY<DOUBLE>, cdf_upper ARRAY<DOUBLE>>}.
 *
 * <p>The DataStream aggregation's estimate with method {@code em} ({@link
 * io.ogpm.estimate.FieldEstimator}): {@code histogram} is the EM reconstruction of the input
 * distribution ({@code estimate_method = 'em'}) for mechanisms with a piecewise output
 * distribution, else the perturbed values' own histogram ({@code estimate_method = 'raw'});
 * frequencies summing to 1. {@code raw_histogram} is always the perturbed values' histogram
 * (outputs beyond the domain in the end bins), {@code reconstructed_histogram} the reconstruction
 * or NULL. {@code cdf_lower} and {@code cdf_upper} are a band for the cumulative distribution of
 * the group's or window's actual inputs: the share {@code F(t)} of them at or below each of {@code
 * cdf_points} (on a circle: in the arc from {@code lo} to it) lies between them, at every point at
 * once, in at least 95 % of groups whatever the inputs ({@link io.ogpm.estimate.CumulativeBand};
 * NULL for mechanisms without one: not piecewise, or on a circle not rotation invariant). {@link
 * LdpQuantile} reads a quantile's interval off the same band. NULL for a group without values. See
 * {@link EstimateFunction} for what is left out.
 */
@PublicEvolving
@FunctionHint(
    output =
        @DataTypeHint(
            "ROW<n BIGINT, estimate_method STRING, histogram ARRAY<DOUBLE>, "
                + "raw_histogram ARRAY<DOUBLE>, reconstructed_histogram ARRAY<DOUBLE>, em_iterations INT, "
                + "cdf_points ARRAY<DOUBLE>, cdf_lower ARRAY<DOUBLE>, cdf_upper ARRAY<DOUBLE>>"))
public class LdpHistogram extends EstimateFunction {
  private static final long serialVersionUID = 1L;

  /** The bins of a call that does not give them: the DataStream aggregation's default. */
  static final Integer DEFAULT_BINS = LdpAggregation.DEFAULT_BINS;

  @Override
  CallLayout layout() {
    return CallLayout.LDP_HISTOGRAM;
  }

  @Override
  boolean reconstructs() {
    return true;
  }

  public void accumulate(LdpAccumulator acc, Double perturbed, Double lo, Double hi, Double eps) {
    accumulate(acc, perturbed, lo, hi, eps, SpecArguments.DEFAULT_DOMAIN);
  }

  public void accumulate(
      LdpAccumulator acc, Double perturbed, Double lo, Double hi, Double eps, String domain) {
    accumulate(acc, perturbed, lo, hi, eps, domain, SpecArguments.DEFAULT_MECHANISM);
  }

  public void accumulate(
      LdpAccumulator acc,
      Double perturbed,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism) {
    accumulate(acc, perturbed, lo, hi, eps, domain, mechanism, DEFAULT_BINS);
  }

  public void accumulate(
      LdpAccumulator acc,
      Double perturbed,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      Integer bins) {
    accumulate(
        acc, perturbed, lo, hi, eps, domain, mechanism, bins, SpecArguments.DEFAULT_OBJECTIVE);
  }

  public void accumulate(
      LdpAccumulator acc,
      Double perturbed,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      Integer bins,
      String objective) {
    change(acc, perturbed, lo, hi, eps, domain, mechanism, bins, objective, false);
  }

  public void retract(LdpAccumulator acc, Double perturbed, Double lo, Double hi, Double eps) {
    retract(acc, perturbed, lo, hi, eps, SpecArguments.DEFAULT_DOMAIN);
  }

  public void retract(
      LdpAccumulator acc, Double perturbed, Double lo, Double hi, Double eps, String domain) {
    retract(acc, perturbed, lo, hi, eps, domain, SpecArguments.DEFAULT_MECHANISM);
  }

  public void retract(
      LdpAccumulator acc,
      Double perturbed,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism) {
    retract(acc, perturbed, lo, hi, eps, domain, mechanism, DEFAULT_BINS);
  }

  public void retract(
      LdpAccumulator acc,
      Double perturbed,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      Integer bins) {
    retract(acc, perturbed, lo, hi, eps, domain, mechanism, bins, SpecArguments.DEFAULT_OBJECTIVE);
  }

  public void retract(
      LdpAccumulator acc,
      Double perturbed,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      Integer bins,
      String objective) {
    change(acc, perturbed, lo, hi, eps, domain, mechanism, bins, objective, true);
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
    boolean em = e.reconstructedHistogram() != null;
    CumulativeBand cdf = e.distribution() == null ? null : e.distribution().cdf();
    return Row.of(
        e.count(),
        (em ? EstimationMethod.EM : EstimationMethod.RAW).code(),
        array(em ? e.reconstructedHistogram() : e.rawHistogram()),
        array(e.rawHistogram()),
        array(e.reconstructedHistogram()),
        e.iterations(),
        array(cdf == null ? null : cdf.points()),
        array(cdf == null ? null : cdf.lower()),
        array(cdf == null ? null : cdf.upper()));
  }
}
