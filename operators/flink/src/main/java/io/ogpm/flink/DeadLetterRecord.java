package io.ogpm.flink;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A dead letter on its way to the dead-letter topic: its JSON ({@code reason}, {@code field},
 * {@code message}, {@code source}; never an input value), its reason code and a timestamp (0: none,
 * the sink's clock stamps it). A Flink POJO.
 */
@PublicEvolving
public class DeadLetterRecord {
  private byte[] value;
  private String reason;
  private long timestamp;

  public DeadLetterRecord() {}

  public DeadLetterRecord(byte[] value, String reason, long timestamp) {
    this.value = value;
    this.reason = reason;
    this.timestamp = timestamp;
  }

  public byte[] getValue() {
    return value;
  }

  public void setValue(byte[] value) {
    this.value = value;
  }

  public String getReason() {
    return reason;
  }

  public void setReason(String reason) {
    this.reason = reason;
  }

  public long getTimestamp() {
    return timestamp;
  }

  public void setTimestamp(long timestamp) {
    this.timestamp = timestamp;
  }
}
