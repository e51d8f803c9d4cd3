package io.ogpm.flink.aggregate;

import io.ogpm.flink.PerturbedValues;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * Reads one perturbed record for the aggregation, by the same rules wherever it comes from: its
 * configuration fingerprint checked ({@link ConfigCheck}: records of another configuration are
 * counted and skipped), its values, group and event time read in one pass ({@link
 * PerturbedValuesReader}), the values it lacked counted ({@code valuesSkipped}; a record that is
 * not a JSON object counts once). The Kafka deserializer passes the record's header and timestamp,
 * {@link PerturbedRecordParser} those of a perturbed record of the same job.
 *
 * <p>Not thread-safe; one per subtask, made where its metrics are registered ({@code open}).
 */
@Internal
public final class PerturbedRecordReader {
  private final PerturbedValuesReader reader;
  private final ConfigCheck check;
  private final Counter valuesSkipped;

  /** Registers the metrics ({@code recordsSkipped} by {@code reason}, {@code valuesSkipped}). */
  public PerturbedRecordReader(AggregationFields spec, MetricGroup metrics) {
    this.reader = new PerturbedValuesReader(spec);
    this.check = new ConfigCheck(spec.fingerprint());
    check.open(metrics);
    this.valuesSkipped = metrics.counter("valuesSkipped");
  }

  /**
   * The record's values, or null when it gives none (another configuration, not a JSON object, no
   * usable value).
   *
   * @param fingerprint the configuration fingerprint the record carries, or null for none
   * @param json the record's JSON
   * @param timestamp its time when the time field is absent or unreadable
   */
  public PerturbedValues read(String fingerprint, byte[] json, long timestamp) {
    if (!check.accepts(fingerprint)) {
      return null;
    }
    PerturbedValuesReader.Reading r = reader.read(json, timestamp);
    valuesSkipped.inc(r.malformed() ? 1 : r.skipped());
    return r.values();
  }
}
