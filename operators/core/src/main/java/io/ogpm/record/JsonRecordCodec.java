package io.ogpm.record;

import com.fasterxml.jackson.core.JsonFactory;
import io.ogpm.annotation.Internal;
import io.ogpm.config.PrivacyConfig;
import java.nio.charset.StandardCharsets;

/**
 * A configuration's JSON records, read and written: a record's configured values into {@link
 * RecordValues} and its passthrough values into a buffer ({@link JsonRecordReader}), then the
 * output record from the values' outputs and those passthrough values ({@link JsonRecordWriter}),
 * and its Kafka key. What comes between the read and the write, the outputs, is the caller's:
 * {@link RecordPerturber} sets them by its {@link PerturbationPlan}.
 *
 * <p>Not thread-safe (the reader and writer reuse their buffers): one per Flink subtask.
 */
@Internal
public final class JsonRecordCodec {
  private final JsonRecordReader reader;
  private final JsonRecordWriter writer;
  private final boolean idPassedThrough;

  /** The codec of a configuration's records, up to {@link RecordPerturber#DEFAULT_MAX_BYTES}. */
  public JsonRecordCodec(PrivacyConfig config) {
    this(config, RecordPerturber.DEFAULT_MAX_BYTES);
  }

  JsonRecordCodec(PrivacyConfig config, int maxBytes) {
    JsonFactory json = RecordPerturber.factory(maxBytes);
    JsonShape shape = new JsonShape(config, json);
    this.reader = new JsonRecordReader(json, shape, maxBytes);
    this.writer = new JsonRecordWriter(shape);
    this.idPassedThrough = config.idField().map(config.passthrough()::contains).orElse(false);
  }

  /**
   * Reads a record into {@code values} (cleared first) and the passthrough buffer.
   *
   * @return null for a JSON object, else why the record is refused
   */
  public DeadLetter read(byte[] input, RecordValues values, Source source) {
    return reader.read(input, values, source);
  }

  /** The output record of the last record read: {@code values}' outputs and its passthroughs. */
  public byte[] write(RecordValues values) {
    return writer.write(values, reader);
  }

  /**
   * The record's Kafka key: its id's UTF-8 bytes where the id is passed through, else null (and
   * null without an id).
   */
  public byte[] key(RecordValues values) {
    return idPassedThrough && values.id() != null
        ? values.id().text().getBytes(StandardCharsets.UTF_8)
        : null;
  }

  /** The reader, for the counts of its reads. */
  JsonRecordReader reader() {
    return reader;
  }
}
