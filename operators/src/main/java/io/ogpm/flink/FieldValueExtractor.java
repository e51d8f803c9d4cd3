package io.ogpm.flink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.record.JsonFields;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;

/**
 * Splits a perturbed record into one {@link FieldValue} per configured field, grouped by an
 * optional passthrough field. Values that are missing, not numbers or outside the mechanism's
 * output domain (which a perturbed value never is) are skipped and counted ({@code
 * valuesSkipped}): the perturbed topic may carry records from elsewhere.
 */
public final class FieldValueExtractor extends RichFlatMapFunction<TimedValue, FieldValue> {
  private static final long serialVersionUID = 1L;

  private final PrivacyConfig config;
  private final String groupField;

  private transient ObjectMapper json;
  private transient double[] outputLo;
  private transient double[] outputHi;
  private transient List<String> groupPath;
  private transient Counter skipped;

  /** @param groupField dotted name of the grouping field, or null for one global group */
  public FieldValueExtractor(PrivacyConfig config, String groupField) {
    this.config = config;
    this.groupField = groupField;
  }

  @Override
  public void open(OpenContext context) {
    json = new ObjectMapper();
    List<FieldConfig> fields = config.fields();
    outputLo = new double[fields.size()];
    outputHi = new double[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      Mechanism m = MechanismCatalog.of(fields.get(i).spec());
      outputLo[i] = m.outputLo();
      outputHi[i] = m.outputHi();
    }
    groupPath = groupField == null ? null : List.of(groupField.split("\\.", -1));
    skipped = getRuntimeContext().getMetricGroup().counter("valuesSkipped");
  }

  @Override
  public void flatMap(TimedValue in, Collector<FieldValue> out) {
    JsonNode root;
    try {
      root = json.readTree(in.getValue());
    } catch (java.io.IOException | RuntimeException e) {
      skipped.inc();
      return;
    }
    if (root == null || !root.isObject()) {
      skipped.inc();
      return;
    }
    String group = null;
    if (groupPath != null) {
      JsonNode g = JsonFields.at(root, groupPath);
      group = g == null || g.isNull() ? null : g.isValueNode() ? g.asText() : g.toString();
    }
    List<FieldConfig> fields = config.fields();
    for (int i = 0; i < fields.size(); i++) {
      JsonNode v = JsonFields.at(root, fields.get(i).path());
      if (v == null || !v.isNumber() || !(v.asDouble() >= outputLo[i] && v.asDouble() < outputHi[i])) {
        skipped.inc();
        continue;
      }
      out.collect(new FieldValue(group, fields.get(i).name(), v.asDouble(), in.getEventTime()));
    }
  }
}
