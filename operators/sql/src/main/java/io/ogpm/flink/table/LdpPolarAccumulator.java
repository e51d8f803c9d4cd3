package io.ogpm.flink.table;

import org.apache.flink.annotation.Internal;

/**
 * The accumulator of {@link LdpPolarMean}: one {@link LdpAccumulator} for the radius (as {@link
 * LdpMean} keeps it) and one for the angle (as {@link LdpCircularMean} keeps it). A structured type
 * for Flink SQL: no Kryo, no RAW type.
 */
@Internal
public class LdpPolarAccumulator {
  public LdpAccumulator radius = new LdpAccumulator();
  public LdpAccumulator angle = new LdpAccumulator();
}
