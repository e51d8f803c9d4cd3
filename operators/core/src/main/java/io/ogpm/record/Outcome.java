package io.ogpm.record;

import io.ogpm.annotation.Internal;

/** What became of one input record: perturbed, or rejected with a dead letter. */
@Internal
public sealed interface Outcome {
  /**
   * A perturbed record.
   *
   * @param key the record id when it is passed through (the Kafka message key), else null
   * @param value the output JSON object, UTF-8: perturbed fields and passthrough fields only
   * @param epsilon the record's privacy cost: the sum of its fields' epsilons
   * @param user the user the record belongs to (for the privacy budget), else null
   */
  record Perturbed(byte[] key, byte[] value, double epsilon, String user) implements Outcome {}

  /** A rejected record. */
  record Rejected(DeadLetter deadLetter) implements Outcome {}
}
