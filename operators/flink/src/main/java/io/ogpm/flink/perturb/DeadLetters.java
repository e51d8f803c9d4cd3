package io.ogpm.flink.perturb;

import io.ogpm.flink.DeadLetterRecord;
import io.ogpm.record.DeadLetter;
import java.nio.charset.StandardCharsets;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.OutputTag;

/**
 * The dead letters of a perturbation: the side output that the perturb and the budget operators
 * write them to, and the record of a dead letter (its JSON, which names a reason and a field, never
 * a value).
 */
@Internal
public final class DeadLetters {
  /** Dead letters, one per rejected record. */
  public static final OutputTag<DeadLetterRecord> TAG =
      new OutputTag<>("dead-letters", TypeInformation.of(DeadLetterRecord.class));

  private DeadLetters() {}

  /** The record of a dead letter, with this timestamp (0: none, the sink's clock stamps it). */
  public static DeadLetterRecord record(DeadLetter d, long timestamp) {
    return new DeadLetterRecord(
        d.toJson().toString().getBytes(StandardCharsets.UTF_8), d.reason().code(), timestamp);
  }
}
