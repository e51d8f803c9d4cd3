package io.ogpm.flink.table;

import io.ogpm.estimate.DistributionQuery;
import io.ogpm.estimate.FieldBinning;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;

/**
 * What an aggregate call compiles once per argument tuple: the mechanism, the DataStream
 * aggregation's {@link FieldEstimator} for it and its binning, reporting the quantiles of a {@link
 * DistributionQuery}, and which numbers can be perturbed values (as the DataStream aggregation's
 * readers decide: in the output domain and within the reach). Immutable.
 */
final class Estimation {
  /**
   * What an estimation is compiled from: a call's arguments, and the quantiles its estimates report
   * (the aggregation's default, or {@code LDP_QUANTILE}'s p). The query changes no binning, so
   * values accumulated under one query estimate under another.
   */
  record Key(EstimateArguments arguments, DistributionQuery query) {}

  final FieldEstimator estimator;
  final FieldBinning binning;
  private final double outputLo;
  private final double outputHi;

  private Estimation(Mechanism mechanism, int bins, DistributionQuery query) {
    this.estimator = FieldEstimator.of(mechanism, bins, query);
    this.binning = estimator.binning();
    this.outputLo = mechanism.outputLo();
    this.outputHi = mechanism.outputHi();
  }

  /**
   * Compiles the arguments.
   *
   * @throws IllegalArgumentException naming the argument that is NULL or invalid
   */
  static Estimation of(Key key) {
    EstimateArguments a = key.arguments();
    Integer bins = a.bins();
    if (bins == null) {
      throw new IllegalArgumentException("bins must not be NULL");
    }
    if (bins < 1 || bins > CallLayout.MAX_BINS) {
      throw new IllegalArgumentException(
          "bins must be in [1, " + CallLayout.MAX_BINS + "], got " + bins);
    }
    return new Estimation(MechanismCatalog.of(a.arguments().spec()), bins, key.query());
  }

  /** Whether y can be a value perturbed by the mechanism (false for NaN and infinities). */
  boolean accepts(double y) {
    return y >= outputLo && y < outputHi && binning.accepts(y);
  }
}
