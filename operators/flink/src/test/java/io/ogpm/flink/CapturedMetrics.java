package io.ogpm.flink;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.metrics.groups.InternalOperatorMetricGroup;
import org.apache.flink.runtime.metrics.groups.UnregisteredMetricGroups;
import org.apache.flink.runtime.metrics.util.InterceptingOperatorMetricGroup;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;

/**
 * A mock task environment whose operator registers its metrics where a test can read them: those of
 * the operator's scope, and those of its key-value subgroups ({@code reason=<code>}).
 */
public final class CapturedMetrics {
  public final Group operator = new Group();
  public final MockEnvironment environment =
      new MockEnvironmentBuilder()
          .setMetricGroup(
              new UnregisteredMetricGroups.UnregisteredTaskMetricGroup() {
                @Override
                public InternalOperatorMetricGroup getOrAddOperator(
                    OperatorID id, String name, Map<String, String> attributes) {
                  return operator;
                }
              })
          .build();

  /** The count of a counter in the subgroup {@code key=value}, 0 if it was never registered. */
  public long count(String key, String value, String counter) {
    Group group = operator.children.get(key + "=" + value);
    Metric metric = group == null ? null : group.get(counter);
    return metric == null ? 0 : ((Counter) metric).getCount();
  }

  /**
   * An operator group that keeps its metrics, and its key-value subgroups, for the test to read.
   */
  public static final class Group extends InterceptingOperatorMetricGroup {
    public final Map<String, Group> children = new ConcurrentHashMap<>();

    @Override
    public MetricGroup addGroup(String key, String value) {
      return children.computeIfAbsent(key + "=" + value, k -> new Group());
    }
  }
}
