package io.ogpm.flink;

import io.ogpm.flink.typeutils.PerturbedRecordTypeInfo;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInfo;
import org.apache.kafka.common.record.TimestampType;

/**
 * A perturbed record on its way to the perturbed topic: key (the record id when it is passed
 * through, else null), value (output JSON), the record's epsilon cost (sent as a header), the user
 * (for the privacy budget; never written out) and the input's timestamp with its type (who set it:
 * the budget trusts only the broker's LogAppendTime), and the fingerprint of the configuration that
 * perturbed it ({@link io.ogpm.config.ConfigFingerprint}: what its values mean). A Flink POJO in
 * shape, with its own Flink type ({@link PerturbedRecordTypeInfo}): between operators (the shuffle
 * by user to the budget) it is written by {@link
 * io.ogpm.flink.typeutils.PerturbedRecordTypeSerializer}, field by field without reflection, not by
 * Flink's POJO serializer.
 */
@PublicEvolving
@TypeInfo(PerturbedRecordTypeInfo.Factory.class)
public class PerturbedRecord {
  private byte[] key;
  private byte[] value;
  private double epsilon;
  private String user;
  private long timestamp;
  private TimestampType timestampType;
  private String sourceTopic;
  private int sourcePartition;
  private long sourceOffset;
  private String fingerprint;
  private long sequence = NO_SEQUENCE;

  /** The {@link #getSequence()} of a record whose raw partition's order is not restored later. */
  public static final long NO_SEQUENCE = -1;

  public PerturbedRecord() {}

  public PerturbedRecord(
      byte[] key,
      byte[] value,
      double epsilon,
      String user,
      long timestamp,
      TimestampType timestampType) {
    this.key = key;
    this.value = value;
    this.epsilon = epsilon;
    this.user = user;
    this.timestamp = timestamp;
    this.timestampType = timestampType;
  }

  /** Where the input came from, for a dead letter if the budget rejects the record later. */
  public PerturbedRecord from(String topic, int partition, long offset) {
    this.sourceTopic = topic;
    this.sourcePartition = partition;
    this.sourceOffset = offset;
    return this;
  }

  /** The {@link io.ogpm.config.ConfigFingerprint} value of the configuration that perturbed it. */
  public String getFingerprint() {
    return fingerprint;
  }

  public void setFingerprint(String fingerprint) {
    this.fingerprint = fingerprint;
  }

  /**
   * The record's place among the records of its raw partition that the perturbation passed on: 0,
   * 1, 2... in the partition's order, across restores; {@link #NO_SEQUENCE} when no later stage
   * restores that order. Set by the perturbation when a budget, keyed by user, would otherwise mix
   * the order; read by the stage that restores it before the sink.
   */
  public long getSequence() {
    return sequence;
  }

  public void setSequence(long sequence) {
    this.sequence = sequence;
  }

  public String getSourceTopic() {
    return sourceTopic;
  }

  public void setSourceTopic(String sourceTopic) {
    this.sourceTopic = sourceTopic;
  }

  public int getSourcePartition() {
    return sourcePartition;
  }

  public void setSourcePartition(int sourcePartition) {
    this.sourcePartition = sourcePartition;
  }

  public long getSourceOffset() {
    return sourceOffset;
  }

  public void setSourceOffset(long sourceOffset) {
    this.sourceOffset = sourceOffset;
  }

  public byte[] getKey() {
    return key;
  }

  public void setKey(byte[] key) {
    this.key = key;
  }

  public byte[] getValue() {
    return value;
  }

  public void setValue(byte[] value) {
    this.value = value;
  }

  public double getEpsilon() {
    return epsilon;
  }

  public void setEpsilon(double epsilon) {
    this.epsilon = epsilon;
  }

  public String getUser() {
    return user;
  }

  public void setUser(String user) {
    this.user = user;
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
