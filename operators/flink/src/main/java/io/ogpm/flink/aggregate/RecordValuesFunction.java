package io.ogpm.flink.aggregate;

import io.ogpm.config.FieldConfig;
import io.ogpm.flink.FieldReader;
import io.ogpm.flink.PerturbedValues;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * {@link io.ogpm.flink.LdpAggregation#fromRecords}: your own records to their perturbed values,
 * read by name through a {@link FieldReader}; the event time is the record's timestamp in the
 * stream. A value that is absent, not a number or not a possible perturbed value of its field is
 * skipped and counted ({@code valuesSkipped}); a record with none gives nothing. With field
 * sampling a record holds NaN (or nothing) for the fields it did not report: those are left out,
 * not counted.
 */
@Internal
public final class RecordValuesFunction<T> extends ProcessFunction<T, PerturbedValues> {
  private static final long serialVersionUID = 1L;

  private final AggregationFields spec;
  private final FieldReader<T> reader;
  private transient String[] names;
  private transient ValueRanges ranges;
  private transient Counter valuesSkipped;
  private transient boolean sampled;

  public RecordValuesFunction(AggregationFields spec, FieldReader<T> reader) {
    this.spec = spec;
    this.reader = java.util.Objects.requireNonNull(reader, "reader: a FieldReader is required");
  }

  @Override
  public void open(OpenContext context) {
    List<FieldConfig> fields = spec.config().fields();
    names = fields.stream().map(FieldConfig::name).toArray(String[]::new);
    ranges = new ValueRanges(spec.config());
    sampled = spec.config().samplesFields();
    valuesSkipped = getRuntimeContext().getMetricGroup().counter("valuesSkipped");
  }

  @Override
  public void processElement(T record, Context context, Collector<PerturbedValues> out) {
    double[] values = new double[names.length];
    Arrays.fill(values, Double.NaN);
    int skipped = 0;
    int absent = 0;
    for (int i = 0; i < names.length; i++) {
      Object v = reader.read(record, names[i]);
      values[i] = v instanceof Number n ? ranges.usable(i, n.doubleValue()) : Double.NaN;
      if (sampled && (v == null || v instanceof Double d && d.isNaN())) {
        absent++;
      } else if (Double.isNaN(values[i])) {
        skipped++;
      }
    }
    valuesSkipped.inc(skipped);
    if (skipped + absent == names.length) {
      return;
    }
    Object group = spec.groupField() == null ? null : reader.read(record, spec.groupField());
    Long time = context.timestamp();
    out.collect(
        new PerturbedValues(
            values, group == null ? null : group.toString(), time == null ? Long.MIN_VALUE : time));
  }
}
