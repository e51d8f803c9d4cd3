package io.ogpm.flink;

/** A perturbed record read back for aggregation: its JSON and its event time. A Flink POJO. */
public class TimedValue {
  private byte[] value;
  private long eventTime;

  public TimedValue() {}

  public TimedValue(byte[] value, long eventTime) {
    this.value = value;
    this.eventTime = eventTime;
  }

  public byte[] getValue() {
    return value;
  }

  public void setValue(byte[] value) {
    this.value = value;
  }

  public long getEventTime() {
    return eventTime;
  }

  public void setEventTime(long eventTime) {
    this.eventTime = eventTime;
  }
}
