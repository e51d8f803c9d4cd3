package io.ogpm.flink;

/**
 * One field's perturbed value from one record, with the record's group and event time: what the
 * window aggregation is keyed on ({@link #key()}). A Flink POJO.
 */
public class FieldValue {
  private String group;
  private String field;
  private double value;
  private long eventTime;

  public FieldValue() {}

  public FieldValue(String group, String field, double value, long eventTime) {
    this.group = group;
    this.field = field;
    this.value = value;
    this.eventTime = eventTime;
  }

  /** The window key: field and group. */
  public String key() {
    return field + '\u0000' + (group == null ? "" : group);
  }

  /** The field of a key. */
  public static String fieldOf(String key) {
    return key.substring(0, key.indexOf('\u0000'));
  }

  /** The group of a key, or null for the global group. */
  public static String groupOf(String key) {
    String g = key.substring(key.indexOf('\u0000') + 1);
    return g.isEmpty() ? null : g;
  }

  public String getGroup() {
    return group;
  }

  public void setGroup(String group) {
    this.group = group;
  }

  public String getField() {
    return field;
  }

  public void setField(String field) {
    this.field = field;
  }

  public double getValue() {
    return value;
  }

  public void setValue(double value) {
    this.value = value;
  }

  public long getEventTime() {
    return eventTime;
  }

  public void setEventTime(long eventTime) {
    this.eventTime = eventTime;
  }
}
