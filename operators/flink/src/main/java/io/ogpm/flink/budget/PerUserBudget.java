package io.ogpm.flink.budget;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.LdpPerturbation;
import io.ogpm.flink.perturb.DeadLetterCounters;
import io.ogpm.flink.perturb.DeadLetters;
import io.ogpm.flink.perturb.ReleasedRecords;
import io.ogpm.record.DeadLetter;
import io.ogpm.record.ReasonCode;
import io.ogpm.record.Source;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.kafka.common.record.TimestampType;

/**
 * The per-user privacy budget: keyed by user, it releases a perturbed record only if the user's
 * spending in the record's period plus the record's epsilon stays within the budget.
 *
 * <p>Periods come from a clock the producer does not control ({@link BudgetClock}): the broker's
 * LogAppendTime (records with any other timestamp are refused as {@code untrusted-time}), or the
 * processing time of this operator. The spending of every period still open is kept, each period on
 * its own (one value per user holding its periods and their spending, {@link PeriodSpending}, in
 * Flink keyed state, checkpointed with the timers that clear it), so a record from an earlier or
 * later period (a user's records spread over partitions read at different paces, a backlog) is
 * charged to its own period and never resets another. A period closes {@code max-lag} after its end
 * by this operator's clock; records for a closed period are refused ({@code budget-period-closed}),
 * and a timer forgets its spending one period later ({@link BudgetPeriods}). Hence the spending of
 * a period is never dropped while the period can still be charged, and no period's spending ever
 * exceeds the budget.
 *
 * <p>Rounding: a record fits if {@code spent + epsilon <= budget (1 + 1e-12)}, so that budgets that
 * are exact multiples of the per-record cost (0.1 + 0.2 > 0.3 in doubles) are usable to the end.
 *
 * <p>State migration: savepoints written before the one-value layout hold a map state {@code
 * epsilon-spent-by-period} (period to epsilon). It is still declared, so that those savepoints
 * restore; a user's map is moved into the value, and emptied, the first time the user's state is
 * read with no value (a record or a timer), so it costs one more lookup only then.
 *
 * <p>Metrics: {@code recordsPerturbed} and {@code epsilonSpent} of the released records ({@link
 * ReleasedRecords}), {@code recordsDeadLettered} under {@code reason=<code>} for the refused ones.
 *
 * <p>Keyed by user; {@code I} is what the perturb operator emits, {@code O} what is released: the
 * subclasses say where a record's cost, time and origin are ({@link BudgetFunction} for Kafka
 * records, {@link ObjectBudgetFunction} for the user's own objects). Internal: use {@link
 * LdpPerturbation}.
 */
@Internal
public abstract class PerUserBudget<I, O> extends KeyedProcessFunction<String, I, O> {
  private static final long serialVersionUID = 1L;

  /** The reasons this operator refuses a record for. */
  static final List<ReasonCode> REASONS =
      List.of(
          ReasonCode.BUDGET_EXHAUSTED, ReasonCode.BUDGET_PERIOD_CLOSED, ReasonCode.UNTRUSTED_TIME);

  private final BudgetConfig budget;
  private transient BudgetPeriods periods;
  private transient ValueState<long[]> spendingByPeriod;

  /**
   * The former layout, read only to move a restored user's spending into {@link #spendingByPeriod}.
   */
  private transient MapState<Long, Double> formerSpentByPeriod;

  private transient ReleasedRecords released;
  private transient DeadLetterCounters refused;

  /**
   * The latest time this instance has seen, from its clock or its timers: the clock used is never
   * earlier, so a wall clock stepped back cannot reopen a period whose spending a timer dropped.
   */
  private transient long latest;

  PerUserBudget(BudgetConfig budget) {
    this.budget = budget;
  }

  /** The record's privacy cost. */
  abstract double epsilon(I record);

  /** The record's Kafka timestamp and its type (who set it), for the log-append-time clock. */
  abstract long timestamp(I record);

  abstract TimestampType timestampType(I record);

  /** Where the record came from, for its dead letter. */
  abstract Source source(I record);

  /** The released record. */
  abstract O released(I record);

  @Override
  public void open(OpenContext context) {
    periods = new BudgetPeriods(budget);
    spendingByPeriod =
        getRuntimeContext()
            .getState(
                new ValueStateDescriptor<>(
                    "spending-by-period", PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO));
    formerSpentByPeriod =
        getRuntimeContext()
            .getMapState(
                new MapStateDescriptor<>("epsilon-spent-by-period", Types.LONG, Types.DOUBLE));
    MetricGroup metrics = getRuntimeContext().getMetricGroup();
    released = ReleasedRecords.register(metrics);
    refused = new DeadLetterCounters(metrics, REASONS);
    latest = Long.MIN_VALUE;
  }

  @Override
  public void processElement(I r, Context ctx, Collector<O> out) throws Exception {
    long now = now(ctx.timerService().currentProcessingTime());
    long time;
    if (budget.clock() == BudgetClock.INGESTION_TIME) {
      time = now;
    } else if (timestampType(r) != TimestampType.LOG_APPEND_TIME) {
      refuse(
          ctx,
          r,
          ReasonCode.UNTRUSTED_TIME,
          0,
          "the record's Kafka timestamp is "
              + (timestampType(r) == null ? "missing" : timestampType(r).name)
              + ", set by the producer,"
              + " while the budget's clock is log-append-time: configure topic "
              + source(r).topic()
              + " with "
              + BudgetClock.TOPIC_SETTING
              + "="
              + BudgetClock.LOG_APPEND_TIME_VALUE
              + " (or the budget with clock: ingestion-time)");
      return;
    } else {
      time = timestamp(r);
    }
    long period = periods.of(time);
    if (periods.ahead(period, now)) {
      refuse(
          ctx,
          r,
          ReasonCode.UNTRUSTED_TIME,
          0,
          "the record's log-append time is more than a budget period"
              + " ahead of the job's clock: check the clocks of the brokers and task managers");
      return;
    }
    if (periods.closed(period, now)) {
      refuse(
          ctx,
          r,
          ReasonCode.BUDGET_PERIOD_CLOSED,
          time,
          "the record's budget period ended more than "
              + budget.maxLag()
              + " (the budget's max-lag) ago, its spending is no longer kept");
      return;
    }
    long[] before = spending();
    double spent = PeriodSpending.spent(before, period);
    double epsilon = epsilon(r);
    if (spent + epsilon <= budget.epsilon() * (1 + 1e-12)) {
      spendingByPeriod.update(PeriodSpending.with(before, period, spent + epsilon));
      if (!PeriodSpending.has(before, period)) {
        ctx.timerService().registerProcessingTimeTimer(periods.forgetAt(period));
      }
      out.collect(released(r));
      released.add(epsilon);
    } else {
      refuse(
          ctx,
          r,
          ReasonCode.BUDGET_EXHAUSTED,
          time,
          "the user's privacy budget of "
              + budget.epsilon()
              + " per "
              + budget.period()
              + " is spent for the record's period");
    }
  }

  /** Forgets the spending of every period whose time has come (closed a period ago). */
  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<O> out) throws Exception {
    now(timestamp);
    long[] before = spending();
    if (before == null) {
      return;
    }
    long[] kept = PeriodSpending.keptAt(before, periods, timestamp);
    if (kept == null) {
      spendingByPeriod.clear();
    } else if (kept != before) {
      spendingByPeriod.update(kept);
    }
  }

  /**
   * The user's spending (null: none), moved first from the former layout if a savepoint had it
   * there.
   */
  private long[] spending() throws Exception {
    long[] value = spendingByPeriod.value();
    if (value == null && !formerSpentByPeriod.isEmpty()) {
      value = PeriodSpending.of(formerSpentByPeriod.entries());
      formerSpentByPeriod.clear();
      spendingByPeriod.update(value);
    }
    return value;
  }

  private long now(long clock) {
    latest = Math.max(latest, clock);
    return latest;
  }

  /**
   * Dead-letters a refused record; {@code time} is the dead letter's timestamp (0: the sink's
   * clock), never a producer's time.
   */
  private void refuse(Context ctx, I r, ReasonCode reason, long time, String message) {
    refused.inc(reason);
    ctx.output(
        DeadLetters.TAG,
        DeadLetters.record(new DeadLetter(reason, null, message, source(r)), time));
  }
}
