package io.ogpm.flink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.kafka.common.record.TimestampType;

/**
 * An input message as it came from Kafka, not yet parsed: parsing happens in the perturbation
 * ({@link LdpPerturbation}), so that malformed input becomes a dead letter with its coordinates
 * instead of an exception in the source. The timestamp's type says who set it: the producer
 * (CreateTime) or the broker (LogAppendTime), which the budget needs. A Flink POJO.
 */
@PublicEvolving
public class RawRecord {
  private byte[] value;
  private String topic;
  private int partition;
  private long offset;
  private long timestamp;
  private TimestampType timestampType;

  public RawRecord() {}

  public RawRecord(
      byte[] value,
      String topic,
      int partition,
      long offset,
      long timestamp,
      TimestampType timestampType) {
    this.value = value;
    this.topic = topic;
    this.partition = partition;
    this.offset = offset;
    this.timestamp = timestamp;
    this.timestampType = timestampType;
  }

  public byte[] getValue() {
    return value;
  }

  public void setValue(byte[] value) {
    this.value = value;
  }

  public String getTopic() {
    return topic;
  }

  public void setTopic(String topic) {
    this.topic = topic;
  }

  public int getPartition() {
    return partition;
  }

  public void setPartition(int partition) {
    this.partition = partition;
  }

  public long getOffset() {
    return offset;
  }

  public void setOffset(long offset) {
    this.offset = offset;
  }

  public long getTimestamp() {
    return timestamp;
  }

  public void setTimestamp(long timestamp) {
    this.timestamp = timestamp;
  }

  public TimestampType getTimestampType() {
    return timestampType;
  }

  public void setTimestampType(TimestampType timestampType) {
    this.timestampType = timestampType;
  }
}
