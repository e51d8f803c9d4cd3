package io.ogpm.flink;

import io.ogpm.config.BudgetConfig;
import io.ogpm.record.DeadLetter;
import io.ogpm.record.Outcome;
import io.ogpm.record.ReasonCode;
import io.ogpm.record.Source;
import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The per-user privacy budget: keyed by user, it lets a perturbed record through only while the
 * user's spending in the current period plus the record's epsilon stays within the budget, and
 * dead-letters the rest as {@code budget-exhausted}. Periods are fixed intervals of the records'
 * Kafka timestamps ({@code floor(timestamp / period)}), so a replay after a failure or from a
 * savepoint counts the same records against the same period.
 *
 * <p>The spending lives in Flink keyed state: it is checkpointed, survives failures, restores from
 * checkpoints and savepoints, and expires (state TTL of two periods) once a user has been silent
 * that long, so the state of past users does not grow without bound.
 *
 * <p>Rounding: a record fits if {@code spent + epsilon <= budget (1 + 1e-12)}, so that budgets that
 * are exact multiples of the per-record cost (0.1 + 0.2 > 0.3 in doubles) are usable to the end.
 */
public final class BudgetFunction extends KeyedProcessFunction<String, PerturbedRecord, PerturbedRecord> {
  private static final long serialVersionUID = 1L;

  private final BudgetConfig budget;
  private transient ValueState<BudgetState> state;
  private transient Counter exhausted;

  public BudgetFunction(BudgetConfig budget) {
    this.budget = budget;
  }

  @Override
  public void open(OpenContext context) {
    ValueStateDescriptor<BudgetState> descriptor = new ValueStateDescriptor<>("budget", BudgetState.class);
    Duration ttl = budget.period().multipliedBy(2);
    descriptor.enableTimeToLive(StateTtlConfig.newBuilder(ttl)
        .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
        .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
        .build());
    state = getRuntimeContext().getState(descriptor);
    exhausted = getRuntimeContext().getMetricGroup().addGroup("reason", ReasonCode.BUDGET_EXHAUSTED.code())
        .counter("recordsDeadLettered");
  }

  @Override
  public void processElement(PerturbedRecord r, Context ctx, Collector<PerturbedRecord> out) throws Exception {
    long period = Math.floorDiv(r.getTimestamp(), budget.period().toMillis());
    BudgetState s = state.value();
    double spent = s == null || s.getPeriod() != period ? 0 : s.getSpent();
    if (spent + r.getEpsilon() <= budget.epsilon() * (1 + 1e-12)) {
      state.update(new BudgetState(period, spent + r.getEpsilon()));
      out.collect(r);
    } else {
      exhausted.inc();
      DeadLetter d = new DeadLetter(ReasonCode.BUDGET_EXHAUSTED, null,
          "the user's privacy budget of " + budget.epsilon() + " per " + budget.period() + " is spent",
          Source.kafka(r.getSourceTopic(), r.getSourcePartition(), r.getSourceOffset()));
      ctx.output(PerturbFunction.DEAD_LETTERS, PerturbFunction.deadLetter(new Outcome.Rejected(d), r.getTimestamp()));
    }
  }
}
