package io.ogpm.flink.table;

import org.apache.flink.annotation.Internal;

/**
 * The accumulator of {@link LdpQuantile}: the values in an {@link LdpAccumulator}, as {@link
 * LdpHistogram} keeps them, and the probability {@code p} of its first value (null until then).
 * {@code p} lives here, not in the function, because a window's result may be asked of an instance
 * that never saw its values (two-phase aggregation, a restore); it stays out of {@link
 * LdpAccumulator} so that the other functions' state keeps its type. Invariant: {@code probability}
 * is set exactly when {@code values} is bound. A structured type for Flink SQL: no Kryo, no RAW
 * type.
 */
@Internal
public class LdpQuantileAccumulator {
  public Double probability;
  public LdpAccumulator values = new LdpAccumulator();
}
