package io.ogpm.flink.budget;

import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.DeadLetterRecord;
import io.ogpm.flink.LdpPerturbation;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.order.Placed;
import org.apache.flink.annotation.Internal;
import org.apache.flink.util.Collector;

/**
 * The per-user privacy budget of perturbed Kafka records ({@link KafkaRecordBudget}), emitting
 * every record's outcome, released or dead-lettered, at its place in its raw partition ({@link
 * Placed}), for {@link io.ogpm.flink.order.RawPartitionOrder} to put back in order: a dead letter
 * holds its record's place as a released record does. Internal: use {@link LdpPerturbation}.
 */
@Internal
public final class OrderedBudgetFunction extends KafkaRecordBudget<Placed> {
  private static final long serialVersionUID = 1L;

  /**
   * @param fingerprint the {@link io.ogpm.config.ConfigFingerprint} value set on each released
   *     record
   */
  public OrderedBudgetFunction(BudgetConfig budget, String fingerprint) {
    super(budget, fingerprint);
  }

  @Override
  Placed released(PerturbedRecord r) {
    return Placed.released(stamped(r));
  }

  @Override
  void refuse(PerturbedRecord r, DeadLetterRecord deadLetter, Context ctx, Collector<Placed> out) {
    out.collect(Placed.refused(r, deadLetter));
  }
}
