package io.ogpm.flink.budget;

import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.LdpPerturbation;
import io.ogpm.record.Source;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.kafka.common.record.TimestampType;

/**
 * The per-user privacy budget ({@link PerUserBudget}) of the user's own perturbed objects, which
 * reach it as (user, record) pairs and leave it as records. Every record costs the configuration's
 * epsilon per record. They carry no Kafka timestamp, so only the ingestion-time clock applies
 * ({@link LdpPerturbation} refuses a budget on the log-append-time clock for them). Internal: use
 * {@link LdpPerturbation}.
 */
@Internal
public final class ObjectBudgetFunction<T> extends PerUserBudget<Tuple2<String, T>, T> {
  private static final long serialVersionUID = 1L;

  private final double epsilonPerRecord;

  public ObjectBudgetFunction(BudgetConfig budget, double epsilonPerRecord) {
    super(budget);
    this.epsilonPerRecord = epsilonPerRecord;
  }

  @Override
  double epsilon(Tuple2<String, T> r) {
    return epsilonPerRecord;
  }

  @Override
  long timestamp(Tuple2<String, T> r) {
    return 0;
  }

  @Override
  TimestampType timestampType(Tuple2<String, T> r) {
    return null;
  }

  @Override
  Source source(Tuple2<String, T> r) {
    return Source.unknown();
  }

  @Override
  T released(Tuple2<String, T> r) {
    return r.f1;
  }
}
