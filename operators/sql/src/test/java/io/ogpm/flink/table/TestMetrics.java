package io.ogpm.flink.table;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.util.InterceptingOperatorMetricGroup;

/**
 * An operator metric group that keeps its counters, and those of its {@code reason=} subgroups, for
 * a test.
 */
final class TestMetrics extends InterceptingOperatorMetricGroup {
  private final Map<String, TestMetrics> children = new ConcurrentHashMap<>();

  @Override
  public MetricGroup addGroup(String key, String value) {
    return children.computeIfAbsent(key + "=" + value, k -> new TestMetrics());
  }

  /** The count of an operator counter, 0 if it was never registered. */
  long count(String counter) {
    Metric m = get(counter);
    return m == null ? 0 : ((Counter) m).getCount();
  }

  /** The count of a counter in the subgroup {@code reason=<code>}, 0 if it was never registered. */
  long count(String counter, String reason) {
    TestMetrics group = children.get("reason=" + reason);
    return group == null ? 0 : group.count(counter);
  }
}
