package io.ogpm.flink.budget;

import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.LdpPerturbation;
import io.ogpm.record.Source;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.kafka.common.record.TimestampType;

/**
 * The per-user privacy budget ({@link PerUserBudget}) of the user's own perturbed objects, which
 * reach it as (user, epsilon, record) triples and leave it as records. Every record costs what it
 * spends: the epsilons of the fields it reports. They carry no Kafka timestamp, so only the
 * ingestion-time clock applies ({@link LdpPerturbation} refuses a budget on the log-append-time
 * clock for them). Internal: use {@link LdpPerturbation}.
 */
@Internal
public final class ObjectBudgetFunction<T> extends PerUserBudget<Tuple3<String, Double, T>, T> {
  private static final long serialVersionUID = 1L;

  public ObjectBudgetFunction(BudgetConfig budget) {
    super(budget);
  }

  @Override
  double epsilon(Tuple3<String, Double, T> r) {
    return r.f1;
  }

  @Override
  long timestamp(Tuple3<String, Double, T> r) {
    return 0;
  }

  @Override
  TimestampType timestampType(Tuple3<String, Double, T> r) {
    return null;
  }

  @Override
  Source source(Tuple3<String, Double, T> r) {
    return Source.unknown();
  }

  @Override
  T released(Tuple3<String, Double, T> r) {
    return r.f2;
  }
}
