package io.ogpm.flink;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldBinning;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.AggregateFunction;

/**
 * Adds a window's values of one field into a {@link FieldAccumulator}: a histogram over the output
 * bins, sums for linear and circular means. Small, mergeable (session windows, two-phase
 * aggregation), and a Flink POJO. Window aggregate functions cannot be rich, so each field's
 * binning is built on first use and cached.
 */
public final class FieldAggregate implements AggregateFunction<FieldValue, FieldAccumulator, FieldAccumulator> {
  private static final long serialVersionUID = 1L;

  private final PrivacyConfig config;
  private final int bins;
  private transient Map<String, FieldBinning> binnings;

  public FieldAggregate(PrivacyConfig config, int bins) {
    this.config = config;
    this.bins = bins;
  }

  @Override
  public FieldAccumulator createAccumulator() {
    return new FieldAccumulator();
  }

  @Override
  public FieldAccumulator add(FieldValue value, FieldAccumulator acc) {
    return acc.add(value.getValue(), binning(value.getField()));
  }

  @Override
  public FieldAccumulator getResult(FieldAccumulator acc) {
    return acc;
  }

  @Override
  public FieldAccumulator merge(FieldAccumulator a, FieldAccumulator b) {
    return a.merge(b);
  }

  private FieldBinning binning(String field) {
    if (binnings == null) {
      binnings = new HashMap<>();
    }
    return binnings.computeIfAbsent(field, f -> FieldBinning.of(MechanismCatalog.of(config.field(f).orElseThrow().spec()), bins));
  }
}
