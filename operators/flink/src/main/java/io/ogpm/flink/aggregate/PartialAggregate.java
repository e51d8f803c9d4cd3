package io.ogpm.flink.aggregate;

import io.ogpm.estimate.FieldAccumulator;
import org.apache.flink.annotation.Internal;

/**
 * What one pre-aggregating subtask has of one field of one group in one pane since it last flushed:
 * an exact {@link FieldAccumulator}, and the number of records it counts for (each record is
 * counted in the partial of its first field with a value, so that records dropped as late are
 * counted once). A Flink POJO.
 */
@Internal
public class PartialAggregate {
  private int field;
  private String group;
  private long pane;
  private long records;
  private FieldAccumulator accumulator;

  public PartialAggregate() {}

  PartialAggregate(int field, String group, long pane, long records, FieldAccumulator accumulator) {
    this.field = field;
    this.group = group;
    this.pane = pane;
    this.records = records;
    this.accumulator = accumulator;
  }

  /** The merge key: field index and group, the null group apart from the empty one. */
  static String key(int field, String group) {
    return group == null ? Integer.toString(field) : field + "=" + group;
  }

  static int fieldOf(String key) {
    int i = key.indexOf('=');
    return Integer.parseInt(i < 0 ? key : key.substring(0, i));
  }

  static String groupOf(String key) {
    int i = key.indexOf('=');
    return i < 0 ? null : key.substring(i + 1);
  }

  /** The merge key: field index and group. */
  public String key() {
    return key(field, group);
  }

  public int getField() {
    return field;
  }

  public void setField(int field) {
    this.field = field;
  }

  public String getGroup() {
    return group;
  }

  public void setGroup(String group) {
    this.group = group;
  }

  public long getPane() {
    return pane;
  }

  public void setPane(long pane) {
    this.pane = pane;
  }

  public long getRecords() {
    return records;
  }

  public void setRecords(long records) {
    this.records = records;
  }

  public FieldAccumulator getAccumulator() {
    return accumulator;
  }

  public void setAccumulator(FieldAccumulator accumulator) {
    this.accumulator = accumulator;
  }
}
