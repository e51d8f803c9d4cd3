package io.ogpm.flink;

import io.ogpm.config.BudgetConfig;
import io.ogpm.record.Source;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.common.record.TimestampType;

/**
 * The per-user privacy budget ({@link PerUserBudget}) of perturbed Kafka records: each carries its
 * cost, its user, the Kafka timestamp with its type, and where it was read. Internal: use {@link
 * LdpPerturbation}.
 */
@Internal
public final class BudgetFunction extends PerUserBudget<PerturbedRecord, PerturbedRecord> {
  private static final long serialVersionUID = 1L;

  public BudgetFunction(BudgetConfig budget) {
    super(budget);
  }

  @Override
  double epsilon(PerturbedRecord r) {
    return r.getEpsilon();
  }

  @Override
  long timestamp(PerturbedRecord r) {
    return r.getTimestamp();
  }

  @Override
  TimestampType timestampType(PerturbedRecord r) {
    return r.getTimestampType();
  }

  @Override
  Source source(PerturbedRecord r) {
    return Source.kafka(r.getSourceTopic(), r.getSourcePartition(), r.getSourceOffset());
  }

  @Override
  PerturbedRecord released(PerturbedRecord r) {
    return r;
  }
}
