package io.ogpm.flink.order;

import io.ogpm.flink.DeadLetterRecord;
import io.ogpm.flink.PerturbedRecord;
import org.apache.flink.annotation.Internal;

/**
 * What the budget made of a perturbed record, at the record's place in its raw partition: the
 * record released, or its dead letter. A Flink POJO (the record with its own type information, the
 * dead letter a POJO), exactly one of the two set; refused records never carry their perturbed
 * value here, so nothing but a dead letter can come of them.
 */
@Internal
public class Placed {
  private String topic;
  private int partition;
  private long sequence;
  private PerturbedRecord record;
  private DeadLetterRecord deadLetter;

  public Placed() {}

  private Placed(PerturbedRecord from, PerturbedRecord record, DeadLetterRecord deadLetter) {
    this.topic = from.getSourceTopic();
    this.partition = from.getSourcePartition();
    this.sequence = from.getSequence();
    this.record = record;
    this.deadLetter = deadLetter;
  }

  /** A record the budget released, at its place. */
  public static Placed released(PerturbedRecord record) {
    return new Placed(record, record, null);
  }

  /** The dead letter of a record the budget refused, at the record's place. */
  public static Placed refused(PerturbedRecord refused, DeadLetterRecord deadLetter) {
    return new Placed(refused, null, deadLetter);
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

  public long getSequence() {
    return sequence;
  }

  public void setSequence(long sequence) {
    this.sequence = sequence;
  }

  /** The released record, or null for a refused one. */
  public PerturbedRecord getRecord() {
    return record;
  }

  public void setRecord(PerturbedRecord record) {
    this.record = record;
  }

  /** The dead letter of a refused record, or null for a released one. */
  public DeadLetterRecord getDeadLetter() {
    return deadLetter;
  }

  public void setDeadLetter(DeadLetterRecord deadLetter) {
    this.deadLetter = deadLetter;
  }
}
