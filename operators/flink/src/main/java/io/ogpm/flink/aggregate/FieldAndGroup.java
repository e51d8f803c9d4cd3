package io.ogpm.flink.aggregate;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.java.functions.KeySelector;

/** The key of the merge of partial aggregates ({@link WindowEstimateOperator}): field and group. */
@Internal
public final class FieldAndGroup implements KeySelector<PartialAggregate, String> {
  private static final long serialVersionUID = 1L;

  @Override
  public String getKey(PartialAggregate partial) {
    return partial.key();
  }
}
