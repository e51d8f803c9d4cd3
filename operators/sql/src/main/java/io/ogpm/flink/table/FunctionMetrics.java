package io.ogpm.flink.table;

import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The counters of the SQL functions in one operator. A query may call a function several times in
 * one operator (two perturbed columns in one SELECT): every call's instance registers in the same
 * operator metric group, where a second counter of the same name would not be reported. So the
 * counters are shared by metric group: each call adds to the operator's one {@code valuesPerturbed}
 * (and so on), whatever the number of calls. Counters are incremented by the task thread only.
 */
final class FunctionMetrics {
  private static final Map<MetricGroup, FunctionMetrics> SHARED = new WeakHashMap<>();

  private final MetricGroup group;
  private final Map<String, Counter> counters = new HashMap<>();
  private final Map<String, Counter> byReason = new HashMap<>();

  private FunctionMetrics(MetricGroup group) {
    this.group = group;
  }

  /** The counters of an operator's metric group. */
  static FunctionMetrics of(MetricGroup group) {
    synchronized (SHARED) {
      return SHARED.computeIfAbsent(group, FunctionMetrics::new);
    }
  }

  /** The counter {@code name} of the operator. */
  Counter counter(String name) {
    synchronized (this) {
      return counters.computeIfAbsent(name, group::counter);
    }
  }

  /** The counter {@code name} in the operator's subgroup {@code reason=<code>}. */
  Counter counter(String name, Reason reason) {
    return counter(name, reason.code());
  }

  /** The counter {@code name} in the operator's subgroup {@code reason=<code>}. */
  Counter counter(String name, String reason) {
    synchronized (this) {
      return byReason.computeIfAbsent(
          reason + "/" + name, k -> group.addGroup("reason", reason).counter(name));
    }
  }
}
