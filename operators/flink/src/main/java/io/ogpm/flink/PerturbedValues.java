package io.ogpm.flink;

import java.util.Arrays;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * One perturbed record as the aggregation reads it: its perturbed values by field index of the
 * configuration ({@code NaN} where the record holds no usable value for a field), its group (the
 * text of the group-by field, or null) and its event time in epoch milliseconds. Parsed once per
 * record by the readers of an {@link LdpAggregation}: {@link LdpAggregation#parser} (a stream of
 * {@link PerturbedRecord}s in the same job), {@link LdpAggregation#fromRecords} (your own types) or
 * the Kafka deserializer of {@code io.ogpm.flink.kafka.AggregationKafka} (Kafka records); {@link
 * LdpAggregation#watermarks} assigns their event time.
 *
 * <p>A plain Flink POJO (no Kryo): what makes and reads one is the aggregation's. Mutable, as
 * Flink's records are; do not change one after emitting it.
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
