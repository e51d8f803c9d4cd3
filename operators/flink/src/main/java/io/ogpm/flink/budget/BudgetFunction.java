package io.ogpm.flink.budget;

import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.LdpPerturbation;
import io.ogpm.flink.PerturbedRecord;
import org.apache.flink.annotation.Internal;

/**
 * The per-user privacy budget of perturbed Kafka records ({@link KafkaRecordBudget}), emitting the
 * released records; the refused ones' dead letters go to the side output. Internal: use {@link
 * LdpPerturbation}.
 */
@Internal
public final class BudgetFunction extends KafkaRecordBudget<PerturbedRecord> {
  private static final long serialVersionUID = 1L;

  /**
   * @param fingerprint the {@link io.ogpm.config.ConfigFingerprint} value set on each released
   *     record
   */
  public BudgetFunction(BudgetConfig budget, String fingerprint) {
    super(budget, fingerprint);
  }

  @Override
  PerturbedRecord released(PerturbedRecord r) {
    return stamped(r);
  }
}
