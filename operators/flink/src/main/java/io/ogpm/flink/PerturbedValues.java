package io.ogpm.flink;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.aggregate.AggregationFields;
import io.ogpm.flink.aggregate.PerturbedRecordParser;
import io.ogpm.flink.aggregate.RecordValuesFunction;
import io.ogpm.flink.aggregate.SilenceAwareWatermarks;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.clock.SystemClock;

/**
 * One perturbed record as the aggregation reads it: its perturbed values by field index of the
 * configuration ({@code NaN} where the record holds no usable value for a field), its group (the
 * text of the group-by field, or null) and its event time in epoch milliseconds. Parsed once per
 * record, by {@link io.ogpm.flink.kafka.PerturbedValuesDeserializer} (Kafka records), {@link
 * #parser} (a stream of {@link PerturbedRecord}s in the same job) or {@link #fromRecords} (your own
 * types).
 *
 * <p>A Flink POJO (no Kryo). Mutable, as Flink's records are; do not change one after emitting it.
 */
@PublicEvolving
public class PerturbedValues {
  private double[] values;
  private String group;
  private long eventTime;

  /** For Flink. */
  public PerturbedValues() {}

  /**
   * @param values perturbed values by field index, NaN where there is none
   * @param group the group, or null for the one global group
   * @param eventTime epoch milliseconds
   */
  public PerturbedValues(double[] values, String group, long eventTime) {
    this.values = values;
    this.group = group;
    this.eventTime = eventTime;
  }

  /**
   * A function from perturbed records of this job's perturbation to their values (one parse of each
   * record's JSON), under the same rules as {@link
   * io.ogpm.flink.kafka.PerturbedValuesDeserializer}: records of another configuration ({@link
   * PerturbedRecord#getFingerprint()}) are counted and skipped; the event time comes from the time
   * field, else the record's timestamp. Assign timestamps and watermarks after it (for example
   * {@link #watermarks}).
   *
   * @param groupField dotted name of a passthrough field to group by, or null
   * @param timeField dotted name of a passthrough field with the event time, or null
   * @throws IllegalArgumentException naming the option if a field is not passed through
   */
  public static FlatMapFunction<PerturbedRecord, PerturbedValues> parser(
      PrivacyConfig config, String groupField, String timeField) {
    return new PerturbedRecordParser(AggregationFields.checked(config, groupField, timeField));
  }

  /**
   * A function from your own records (POJOs, {@code Row}s) to their perturbed values: each
   * configured field read by its dotted name through {@code reader}; a value that is absent, not a
   * number or outside the field's output domain is skipped and counted ({@code valuesSkipped}). The
   * event time is the record's timestamp in the stream (assign it before), the group the text of
   * the group field.
   */
  public static <T>
      org.apache.flink.streaming.api.functions.ProcessFunction<T, PerturbedValues> fromRecords(
          PrivacyConfig config, String groupField, FieldReader<T> reader) {
    return new RecordValuesFunction<>(AggregationFields.checked(config, groupField, null), reader);
  }

  /** Bounded out-of-orderness watermarks on {@link #getEventTime()}. */
  public static WatermarkStrategy<PerturbedValues> watermarks(Duration outOfOrderness) {
    return WatermarkStrategy.<PerturbedValues>forBoundedOutOfOrderness(outOfOrderness)
        .withTimestampAssigner((v, previous) -> v.getEventTime());
  }

  /**
   * Bounded out-of-orderness watermarks on {@link #getEventTime()} per source split, which keep
   * event time moving when a split falls silent: after {@code idleTimeout} without records, a
   * split's watermark advances with the wall clock from its last record, so the last window of a
   * replay or of a stream that stops closes (bounded sources close it at their end anyway); a split
   * that never had a record stops holding the others back after {@code idleTimeout}, as with {@code
   * withIdleness}. Use this instead of {@code watermarks(..).withIdleness(..)}.
   */
  public static WatermarkStrategy<PerturbedValues> watermarks(
      Duration outOfOrderness, Duration idleTimeout) {
    long ooo = outOfOrderness.toMillis();
    long idle = idleTimeout.toMillis();
    new SilenceAwareWatermarks<PerturbedValues>(
        outOfOrderness, idleTimeout, SystemClock.getInstance()); // validates
    return WatermarkStrategy.<PerturbedValues>forGenerator(
            context ->
                new SilenceAwareWatermarks<>(
                    Duration.ofMillis(ooo), Duration.ofMillis(idle), SystemClock.getInstance()))
        .withTimestampAssigner((v, previous) -> v.getEventTime());
  }

  public double[] getValues() {
    return values;
  }

  public void setValues(double[] values) {
    this.values = values;
  }

  public String getGroup() {
    return group;
  }

  public void setGroup(String group) {
    this.group = group;
  }

  public long getEventTime() {
    return eventTime;
  }

  public void setEventTime(long eventTime) {
    this.eventTime = eventTime;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PerturbedValues v
        && Arrays.equals(v.values, values)
        && Objects.equals(v.group, group)
        && v.eventTime == eventTime;
  }

  @Override
  public int hashCode() {
    return Objects.hash(Arrays.hashCode(values), group, eventTime);
  }

  @Override
  public String toString() {
    return "PerturbedValues{"
        + Arrays.toString(values)
        + ", group="
        + group
        + ", eventTime="
        + eventTime
        + "}";
  }
}
