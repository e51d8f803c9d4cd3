package io.ogpm.bench;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.record.DeadLetter;
import io.ogpm.record.JsonRecordCodec;
import io.ogpm.record.RecordPerturber;
import io.ogpm.record.RecordValues;
import io.ogpm.record.Source;

/**
 * A benchmark's baseline, never a pipeline's: {@link RecordPerturber}'s record path without the
 * privacy. Each record is read and written by the operator's {@link JsonRecordCodec} (the same
 * scanner and structure replay, the same strictness, the undeclared fields dropped), with each
 * configured value as read instead of perturbed: no checks of the values against their domains, no
 * mechanism, no randomness. {@code bench pipeline} runs it in place of the perturbation to measure
 * what the privacy itself costs a pipeline that reads and writes the records anyway.
 *
 * <p>Here, in the benchmarks, and not in the library: the privacy guarantees concern what the
 * library's operators, jobs and SQL functions write, and none of them reaches this class (the
 * modules' architecture rules say so); whoever holds raw records can write them without it.
 *
 * <p>Not thread-safe: one per Flink subtask.
 */
final class UnperturbedRecordPath {
  private final JsonRecordCodec codec;
  private final RecordValues values;
  private final String[] names;

  UnperturbedRecordPath(PrivacyConfig config) {
    this.codec = new JsonRecordCodec(config);
    this.names = config.fields().stream().map(f -> f.name()).toArray(String[]::new);
    this.values = new RecordValues(names.length);
  }

  /**
   * The record with its configured values as read.
   *
   * @throws IllegalArgumentException where the perturbation would have written a dead letter: the
   *     benchmark's input holds none, so a baseline that met one would not be comparable
   */
  byte[] rewrite(byte[] input, Source source) {
    DeadLetter refused = codec.read(input, values, source);
    if (refused != null) {
      throw new IllegalArgumentException(
          "not a record the perturbation accepts (" + refused.reason() + ", " + source + ")");
    }
    for (int i = 0; i < names.length; i++) {
      if (!values.present(i) || values.otherType(i) != null) {
        throw new IllegalArgumentException(
            "not a record the perturbation accepts ("
                + names[i]
                + " missing or not a"
                + " number, "
                + source
                + ")");
      }
      values.output(i, values.input(i));
    }
    return codec.write(values);
  }

  /** The last record's Kafka key, as the perturbation writes it ({@link JsonRecordCodec#key}). */
  byte[] key() {
    return codec.key(values);
  }

  /** The last record's user, or null. */
  String user() {
    return values.user() == null || values.user().isNone() ? null : values.user().text();
  }
}
