package io.ogpm.flink.budget;

import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.PerturbedRecord;
import java.util.Iterator;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The budget's former state layout, kept for two uses: writing the migration fixture ({@link
 * BudgetStateMigrationTest}) with the state names, serializers and timers of that layout, and
 * measuring the layout side by side with today's ({@code BudgetBenchmark}). A map state per user
 * from period to epsilon, one timer per period; the rule is {@link PerUserBudget}'s for records
 * whose Kafka timestamp is a log-append time, without its refusals' dead letters and metrics
 * (refused records are dropped).
 */
public final class MapLayoutBudgetFunction
    extends KeyedProcessFunction<String, PerturbedRecord, PerturbedRecord> {
  private static final long serialVersionUID = 1L;

  private final BudgetConfig budget;
  private final String fingerprint;
  private transient BudgetPeriods periods;
  private transient MapState<Long, Double> spentByPeriod;

  public MapLayoutBudgetFunction(BudgetConfig budget, String fingerprint) {
    this.budget = budget;
    this.fingerprint = fingerprint;
  }

  @Override
  public void open(OpenContext context) {
    periods = new BudgetPeriods(budget);
    spentByPeriod =
        getRuntimeContext()
            .getMapState(
                new MapStateDescriptor<>("epsilon-spent-by-period", Types.LONG, Types.DOUBLE));
  }

  @Override
  public void processElement(PerturbedRecord r, Context ctx, Collector<PerturbedRecord> out)
      throws Exception {
    long now = ctx.timerService().currentProcessingTime();
    long period = periods.of(r.getTimestamp());
    if (periods.ahead(period, now) || periods.closed(period, now)) {
      return;
    }
    Double before = spentByPeriod.get(period);
    double spent = before == null ? 0 : before;
    if (spent + r.getEpsilon() <= budget.epsilon() * (1 + 1e-12)) {
      spentByPeriod.put(period, spent + r.getEpsilon());
      if (before == null) {
        ctx.timerService().registerProcessingTimeTimer(periods.forgetAt(period));
      }
      r.setFingerprint(fingerprint);
      out.collect(r);
    }
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<PerturbedRecord> out)
      throws Exception {
    for (Iterator<Map.Entry<Long, Double>> it = spentByPeriod.iterator(); it.hasNext(); ) {
      if (periods.forgetAt(it.next().getKey()) <= timestamp) {
        it.remove();
      }
    }
    if (spentByPeriod.isEmpty()) {
      spentByPeriod.clear();
    }
  }
}
