package io.ogpm.flink;

import java.util.Map;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.metrics.groups.InternalOperatorMetricGroup;
import org.apache.flink.runtime.metrics.groups.UnregisteredMetricGroups;
import org.apache.flink.runtime.metrics.util.InterceptingOperatorMetricGroup;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;

/** A mock task environment whose operator registers its top-level metrics where a test can read them. */
final class CapturedMetrics {
  final InterceptingOperatorMetricGroup operator = new InterceptingOperatorMetricGroup();
  final MockEnvironment environment = new MockEnvironmentBuilder()
      .setMetricGroup(new UnregisteredMetricGroups.UnregisteredTaskMetricGroup() {
        @Override
        public InternalOperatorMetricGroup getOrAddOperator(OperatorID id, String name, Map<String, String> attributes) {
          return operator;
        }
      })
      .build();
}
