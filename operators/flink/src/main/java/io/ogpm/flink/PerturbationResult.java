package io.ogpm.flink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * What {@link LdpPerturbation} adds to a stream: the released records, perturbed, and the dead
 * letters of the records it refused (one per refused record, with a reason code and never an input
 * value). Every input record ends in exactly one of the two.
 */
@PublicEvolving
public final class PerturbationResult<T> {
  private final DataStream<T> perturbed;
  private final DataStream<DeadLetterRecord> deadLetters;

  PerturbationResult(DataStream<T> perturbed, DataStream<DeadLetterRecord> deadLetters) {
    this.perturbed = perturbed;
    this.deadLetters = deadLetters;
  }

  /**
   * The released records: perturbed fields and passthrough fields only, within the budget if one is
   * set.
   */
  public DataStream<T> perturbed() {
    return perturbed;
  }

  /** The dead letters of refused records (a record's JSON: reason, field, message, source). */
  public DataStream<DeadLetterRecord> deadLetters() {
    return deadLetters;
  }
}
