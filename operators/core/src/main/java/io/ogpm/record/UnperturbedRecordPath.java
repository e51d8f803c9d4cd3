package io.ogpm.record;

import com.fasterxml.jackson.core.JsonFactory;
import io.ogpm.annotation.Internal;
import io.ogpm.config.PrivacyConfig;
import java.nio.charset.StandardCharsets;

/**
 * A benchmark's baseline, never a pipeline's: {@link RecordPerturber}'s record path without the
 * privacy. Each record is read by the operator's reader (the same scanner and structure replay, the
 * same strictness, the undeclared fields dropped) and written by the operator's writer, with each
 * configured value as read instead of perturbed: no checks of the values against their domains, no
 * mechanism, no randomness. {@code bench pipeline} runs it in place of the perturbation to measure
 * what the privacy itself costs a pipeline that reads and writes the records anyway.
 *
 * <p>{@link Internal}, for the {@code bench} command alone, and here because the reader and writer
 * it shares with {@link RecordPerturber} are package-private. The privacy guarantees concern what
 * the library's operators, jobs and SQL functions write, and none of them reaches this class (the
 * architecture tests say so); whoever holds raw records can write them without it.
 *
 * <p>Not thread-safe: one per Flink subtask.
 */
@Internal
public final class UnperturbedRecordPath {
  private final RecordValues values;
  private final JsonRecordReader reader;
  private final JsonRecordWriter writer;
  private final String[] names;
  private final boolean idPassedThrough;

  public UnperturbedRecordPath(PrivacyConfig config) {
    JsonFactory json = RecordPerturber.factory(RecordPerturber.DEFAULT_MAX_BYTES);
    JsonShape shape = new JsonShape(config, json);
    this.reader = new JsonRecordReader(json, shape, RecordPerturber.DEFAULT_MAX_BYTES);
    this.writer = new JsonRecordWriter(shape);
    this.names = config.fields().stream().map(f -> f.name()).toArray(String[]::new);
    this.values = new RecordValues(names.length);
    this.idPassedThrough = config.idField().map(config.passthrough()::contains).orElse(false);
  }

  /**
   * The record with its configured values as read.
   *
   * @throws IllegalArgumentException where the perturbation would have written a dead letter: the
   *     benchmark's input holds none, so a baseline that met one would not be comparable
   */
  public byte[] rewrite(byte[] input, Source source) {
    DeadLetter refused = reader.read(input, values, source);
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
    return writer.write(values, reader);
  }

  /**
   * The last record's Kafka key, as the perturbation writes it: its id's UTF-8 bytes where the id
   * is passed through.
   */
  public byte[] key() {
    return idPassedThrough && values.id() != null
        ? values.id().text().getBytes(StandardCharsets.UTF_8)
        : null;
  }

  /** The last record's user, or null. */
  public String user() {
    return values.user() == null || values.user().isNone() ? null : values.user().text();
  }
}
