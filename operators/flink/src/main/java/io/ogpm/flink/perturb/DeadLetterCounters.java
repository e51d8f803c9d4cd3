package io.ogpm.flink.perturb;

import io.ogpm.record.ReasonCode;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The metric {@code recordsDeadLettered} of an operator, one counter per {@code reason=<code>}
 * subgroup, for the reasons that operator can refuse a record for.
 */
@Internal
public final class DeadLetterCounters {
  private final Map<ReasonCode, Counter> counters = new EnumMap<>(ReasonCode.class);

  public DeadLetterCounters(MetricGroup metrics, List<ReasonCode> reasons) {
    for (ReasonCode reason : reasons) {
      counters.put(
          reason, metrics.addGroup("reason", reason.code()).counter("recordsDeadLettered"));
    }
  }

  public void inc(ReasonCode reason) {
    counters.get(reason).inc();
  }
}
