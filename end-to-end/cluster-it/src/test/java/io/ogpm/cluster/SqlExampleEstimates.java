package io.ogpm.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimate;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.util.HashMap;
import java.util.Map;

/**
 * What docs/sql.md's SQL example must write for each 10-second window and activity, computed here
 * in plain Java from the perturbed records the example itself committed: the estimators the SQL
 * aggregates and the DataStream aggregation share ({@link FieldEstimator}), with the example's
 * arguments ({@code accel_x}: OGPM on [-3, 3], eps 1, mean, and a 20-bin histogram with its median;
 * {@code roll}: circular OGPM on [-pi, pi), eps 1). The means' estimators have the aggregation's
 * default 50 bins, as LDP_MEAN and LDP_CIRCULAR_MEAN do: the linear interval reads the tails of the
 * outputs' histogram.
 */
final class SqlExampleEstimates {
  static final long WINDOW_MS = 10_000;
  static final FieldEstimator MEAN = estimator(Domain.Kind.CLASSICAL, 3.0, 50);
  static final FieldEstimator HISTOGRAM = estimator(Domain.Kind.CLASSICAL, 3.0, 20);
  static final FieldEstimator CIRCULAR = estimator(Domain.Kind.CIRCULAR, Math.PI, 50);

  /** One window and activity: its accumulators. */
  static final class Window {
    final FieldAccumulator mean = MEAN.newAccumulator();
    final FieldAccumulator histogram = HISTOGRAM.newAccumulator();
    final FieldAccumulator roll = CIRCULAR.newAccumulator();

    FieldEstimate mean() {
      return MEAN.estimate(mean, false);
    }

    FieldEstimate histogram() {
      return HISTOGRAM.estimate(histogram, HISTOGRAM.canReconstruct());
    }

    FieldEstimate roll() {
      return CIRCULAR.estimate(roll, false);
    }
  }

  private SqlExampleEstimates() {}

  private static FieldEstimator estimator(Domain.Kind kind, double half, int bins) {
    return FieldEstimator.of(
        MechanismCatalog.of(
            MechanismSpec.builder()
                .type(MechanismType.OGPM)
                .domain(Domain.of(kind, -half, half))
                .epsilon(1.0)
                .objective(Objective.L1)
                .build()),
        bins);
  }

  /** The records' windows, keyed {@code windowStartMillis/activity}. */
  static Map<String, Window> of(Iterable<JsonNode> perturbed) {
    Map<String, Window> windows = new HashMap<>();
    for (JsonNode r : perturbed) {
      long start = Math.floorDiv(r.get("ts").asLong(), WINDOW_MS) * WINDOW_MS;
      Window w =
          windows.computeIfAbsent(start + "/" + r.get("activity").asText(), k -> new Window());
      JsonNode x = r.get("accel_x");
      if (x != null && x.isNumber()) {
        w.mean.add(x.asDouble(), MEAN.binning());
        w.histogram.add(x.asDouble(), HISTOGRAM.binning());
      }
      JsonNode roll = r.get("roll");
      if (roll != null && roll.isNumber()) {
        w.roll.add(roll.asDouble(), CIRCULAR.binning());
      }
    }
    return windows;
  }
}
