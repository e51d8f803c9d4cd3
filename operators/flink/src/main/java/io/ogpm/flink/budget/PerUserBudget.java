package io.ogpm.flink.budget;

import io.ogpm.budget.BudgetDecision;
import io.ogpm.budget.BudgetRule;
import io.ogpm.budget.TaskClock;
import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.DeadLetterRecord;
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
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.kafka.common.record.TimestampType;

/**
 * The per-user privacy budget: keyed by user, it releases a perturbed record only if the user's
 * spending in the record's period plus the record's epsilon stays within the budget. The decision
 * is {@link BudgetRule}'s, on the clock of this instance ({@link TaskClock}, which its timers
 * advance too); this operator keeps the spending and reports the refusals.
 *
 * <p>Periods come from a clock the producer does not control ({@link BudgetClock}): the broker's
 * LogAppendTime (records with any other timestamp are refused as {@code untrusted-time}), or the
 * processing time of this operator. The spending of every period still open is kept, each period on
 * its own (one value per user holding its periods and their spending, {@link PeriodSpending}, in
 * Flink keyed state, checkpointed with the timers that clear it), so a record from an earlier or
 * later period (a user's records spread over partitions read at different paces, a backlog) is
 * charged to its own period and never resets another. A period closes {@code max-lag} after its end
 * by this operator's clock; records for a closed period are refused ({@code budget-period-closed}),
 * and a timer forgets its spending one period later ({@link io.ogpm.budget.BudgetPeriods}). Hence
 * the spending of a period is never dropped while the period can still be charged, and no period's
 * spending ever exceeds the budget.
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
  private transient BudgetRule rule;
  private transient TaskClock clock;
  private transient ValueState<long[]> spendingByPeriod;
  private transient ReleasedRecords released;
  private transient DeadLetterCounters refused;

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
    rule = new BudgetRule(budget);
    clock = new TaskClock();
    spendingByPeriod =
        getRuntimeContext()
            .getState(
                new ValueStateDescriptor<>(
                    "spending-by-period", PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO));
    MetricGroup metrics = getRuntimeContext().getMetricGroup();
    released = ReleasedRecords.register(metrics);
    refused = new DeadLetterCounters(metrics, REASONS);
  }

  @Override
  public void processElement(I r, Context ctx, Collector<O> out) throws Exception {
    long now = clock.now(ctx.timerService().currentProcessingTime());
    TimestampType type = timestampType(r);
    // Read once, before the decision: a released record, the common case, then costs one read and
    // one write of its user's value.
    long[] before = spendingByPeriod.value();
    double epsilon = epsilon(r);
    BudgetDecision decision =
        rule.decide(
            now,
            timestamp(r),
            type == null ? null : type.name,
            period -> PeriodSpending.spent(before, period),
            epsilon);
    if (decision instanceof BudgetDecision.Released release) {
      spendingByPeriod.update(PeriodSpending.with(before, release.period(), release.spent()));
      if (!PeriodSpending.has(before, release.period())) {
        ctx.timerService().registerProcessingTimeTimer(rule.periods().forgetAt(release.period()));
      }
      out.collect(released(r));
      released.add(epsilon);
    } else {
      BudgetDecision.Refused refusal = (BudgetDecision.Refused) decision;
      refused.inc(refusal.reason());
      DeadLetter letter =
          new DeadLetter(refusal.reason(), null, message(refusal, r, type), source(r));
      refuse(r, DeadLetters.record(letter, refusal.time()), ctx, out);
    }
  }

  /** Passes on a refused record's dead letter: to the dead letters' side output. */
  void refuse(I r, DeadLetterRecord deadLetter, Context ctx, Collector<O> out) {
    ctx.output(DeadLetters.TAG, deadLetter);
  }

  /** Forgets the spending of every period whose time has come (closed a period ago). */
  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<O> out) throws Exception {
    clock.now(timestamp);
    long[] before = spendingByPeriod.value();
    if (before == null) {
      return;
    }
    long[] kept = PeriodSpending.keptAt(before, rule.periods(), timestamp);
    if (kept == null) {
      spendingByPeriod.clear();
    } else if (kept != before) {
      spendingByPeriod.update(kept);
    }
  }

  /** The dead letter's message: what to fix, never a value of the record. */
  private String message(BudgetDecision.Refused refusal, I r, TimestampType type) {
    return switch (refusal.refusal()) {
      case TIME_SET_BY_PRODUCER ->
          "the record's Kafka timestamp is "
              + (type == null ? "missing" : type.name)
              + ", set by the producer,"
              + " while the budget's clock is log-append-time: configure topic "
              + source(r).topic()
              + " with "
              + BudgetClock.TOPIC_SETTING
              + "="
              + BudgetClock.LOG_APPEND_TIME_VALUE
              + " (or the budget with clock: ingestion-time)";
      case TIME_AHEAD ->
          "the record's log-append time is more than a budget period"
              + " ahead of the job's clock: check the clocks of the brokers and task managers";
      case PERIOD_CLOSED ->
          "the record's budget period ended more than "
              + budget.maxLag()
              + " (the budget's max-lag) ago, its spending is no longer kept";
      case BUDGET_EXHAUSTED ->
          "the user's privacy budget of "
              + budget.epsilon()
              + " per "
              + budget.period()
              + " is spent for the record's period";
      case ALLOWANCE_SPENT ->
          "the user's paced allowance is spent for now: the budget of "
              + budget.epsilon()
              + " per "
              + budget.period()
              + " is released in slices every "
              + budget.pacing().orElseThrow()
              + ", and the next slice releases more";
    };
  }
}
