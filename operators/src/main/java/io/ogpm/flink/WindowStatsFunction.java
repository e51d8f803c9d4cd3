package io.ogpm.flink;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.EstimateJson;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Turns a window's accumulator into one JSON object for the stats topic: the window's start and
 * end, the group and field, and the estimates ({@link EstimateJson}: count, histogram, means with
 * 95 % intervals). The estimators (transition matrices for reconstruction) are built once per field
 * in {@code open()}.
 */
public final class WindowStatsFunction extends ProcessWindowFunction<FieldAccumulator, String, String, TimeWindow> {
  private static final long serialVersionUID = 1L;

  private final PrivacyConfig config;
  private final int bins;
  private final boolean reconstruct;
  private transient Map<String, FieldEstimator> estimators;
  private transient ObjectMapper json;

  public WindowStatsFunction(PrivacyConfig config, int bins, boolean reconstruct) {
    this.config = config;
    this.bins = bins;
    this.reconstruct = reconstruct;
  }

  @Override
  public void open(OpenContext context) {
    estimators = new HashMap<>();
    for (FieldConfig f : config.fields()) {
      estimators.put(f.name(), FieldEstimator.of(MechanismCatalog.of(f.spec()), bins));
    }
    json = new ObjectMapper();
  }

  @Override
  public void process(String key, Context context, Iterable<FieldAccumulator> accumulators, Collector<String> out)
      throws Exception {
    String field = FieldValue.fieldOf(key);
    FieldEstimator estimator = estimators.get(field);
    FieldAccumulator acc = estimator.newAccumulator();
    for (FieldAccumulator a : accumulators) {
      acc.merge(a);
    }
    TimeWindow w = context.window();
    ObjectNode o = json.createObjectNode();
    o.put("windowStart", Instant.ofEpochMilli(w.getStart()).toString());
    o.put("windowEnd", Instant.ofEpochMilli(w.getEnd()).toString());
    String group = FieldValue.groupOf(key);
    if (group == null) {
      o.putNull("group");
    } else {
      o.put("group", group);
    }
    o.put("field", field);
    o.put("bins", bins);
    o.setAll(EstimateJson.render(estimator.estimate(acc, reconstruct && estimator.canReconstruct()), reconstruct));
    out.collect(json.writeValueAsString(o));
  }
}
