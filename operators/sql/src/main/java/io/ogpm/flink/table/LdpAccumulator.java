package io.ogpm.flink.table;

import io.ogpm.estimate.FieldAccumulator;
import org.apache.flink.annotation.Internal;

/**
 * The accumulator of {@link LdpHistogram}, {@link LdpMean} and {@link LdpCircularMean} (and, inside
 * theirs, of {@link LdpQuantile} and {@link LdpPolarMean}): the arguments of the mechanism its
 * values were perturbed with (null until the first value) and the exact, mergeable {@link
 * FieldAccumulator} of the DataStream aggregation. A structured type for Flink SQL (public fields,
 * the field accumulator's getters and setters): no Kryo, no RAW type.
 */
@Internal
public class LdpAccumulator {
  public Double lo;
  public Double hi;
  public Double eps;
  public String domain;
  public String mechanism;
  public String objective;
  public Integer bins;
  public FieldAccumulator values = new FieldAccumulator();

  /** Whether a mechanism is bound (a value or a merge has been taken). */
  boolean bound() {
    return eps != null;
  }

  /** Whether values of this mechanism and binning belong here. */
  boolean holds(EstimateArguments a) {
    return a.arguments().matches(lo, hi, eps, domain, mechanism, objective)
        && java.util.Objects.equals(a.bins(), bins);
  }

  /** Binds the accumulator to a mechanism and binning. */
  void bind(EstimateArguments a) {
    SpecArguments s = a.arguments();
    lo = s.lo();
    hi = s.hi();
    eps = s.eps();
    domain = s.domain();
    mechanism = s.mechanism();
    objective = s.objective();
    bins = a.bins();
  }

  /** The arguments it is bound to. */
  EstimateArguments arguments() {
    return new EstimateArguments(
        new SpecArguments(lo, hi, eps, domain, mechanism, objective), bins);
  }
}
