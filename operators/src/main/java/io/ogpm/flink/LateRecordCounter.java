package io.ogpm.flink;

import io.ogpm.flink.FieldValue;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;

/** Counts values that arrived after their window's allowed lateness ({@code lateRecords}). */
public final class LateRecordCounter extends RichMapFunction<FieldValue, Boolean> {
  private static final long serialVersionUID = 1L;
  private transient Counter late;

  @Override
  public void open(OpenContext context) {
    late = getRuntimeContext().getMetricGroup().counter("lateRecords");
  }

  @Override
  public Boolean map(FieldValue value) {
    late.inc();
    return Boolean.TRUE;
  }
}
