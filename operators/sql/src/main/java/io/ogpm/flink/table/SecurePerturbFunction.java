package io.ogpm.flink.table;

import io.ogpm.mechanism.random.AesCtrSource;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.table.types.inference.TypeInference;

/**
 * What {@link LdpPerturb} and {@link OgpmPerturb} share: each instance (one per call and subtask)
 * draws from its own AES-CTR stream keyed from {@link java.security.SecureRandom} when the task
 * opens it; the planner is told the function is not deterministic, so it never evaluates a call
 * with literal arguments once while planning and reuses that one draw.
 */
@Internal
abstract class SecurePerturbFunction extends ScalarFunction {
  private static final long serialVersionUID = 1L;

  /** A seed for reproducible tests; null (always, outside this package's tests): secure random. */
  private final Long seed;

  transient ValuePerturber perturber;

  SecurePerturbFunction(Long seed) {
    this.seed = seed;
  }

  /** Where the function's calls hold their mechanism arguments. */
  abstract CallLayout layout();

  @Override
  public void open(FunctionContext context) {
    open(context.getMetricGroup());
  }

  /** Opens with an operator's metric group. */
  void open(MetricGroup metrics) {
    perturber =
        ValuePerturber.withStream(
            seed == null ? AesCtrSource.secure() : AesCtrSource.seeded(seed),
            FunctionMetrics.of(metrics));
  }

  @Override
  public boolean isDeterministic() {
    return false;
  }

  @Override
  public TypeInference getTypeInference(DataTypeFactory typeFactory) {
    return ConstantArguments.wrap(super.getTypeInference(typeFactory), layout());
  }
}
