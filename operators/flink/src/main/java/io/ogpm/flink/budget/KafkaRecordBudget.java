package io.ogpm.flink.budget;

import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.LdpPerturbation;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.record.Source;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.common.record.TimestampType;

/**
 * The per-user privacy budget ({@link PerUserBudget}) of perturbed Kafka records: each carries its
 * cost, its user, the Kafka timestamp with its type, and where it was read. The released ones get
 * the configuration's fingerprint here, not in the perturb operator, so that the same string does
 * not cross the shuffle by user with every record. What it emits is its subclasses' ({@link
 * BudgetFunction}: the released records; {@link OrderedBudgetFunction}: each record's outcome at
 * its place in its raw partition). Internal: use {@link LdpPerturbation}.
 */
@Internal
public abstract class KafkaRecordBudget<O> extends PerUserBudget<PerturbedRecord, O> {
  private static final long serialVersionUID = 1L;

  private final String fingerprint;

  /**
   * @param fingerprint the {@link io.ogpm.config.ConfigFingerprint} value set on each released
   *     record
   */
  KafkaRecordBudget(BudgetConfig budget, String fingerprint) {
    super(budget);
    this.fingerprint =
        Objects.requireNonNull(
            fingerprint, "fingerprint: required (ConfigFingerprint.of(config).value())");
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

  /** The released record, stamped with the configuration's fingerprint. */
  PerturbedRecord stamped(PerturbedRecord r) {
    r.setFingerprint(fingerprint);
    return r;
  }
}
