package io.ogpm.flink.table;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import io.ogpm.record.ReasonCode;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.ArgumentTrait;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.FunctionHint;
import org.apache.flink.table.annotation.StateHint;
import org.apache.flink.table.api.dataview.MapView;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.ProcessTableFunction;
import org.apache.flink.table.functions.TableSemantics;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.inference.StateTypeStrategy;
import org.apache.flink.table.types.inference.TypeInference;
import org.apache.flink.types.Row;

/**
 * {@code LDP_BUDGET(input => TABLE t PARTITION BY user, cost => c, budget => b, budget_period => p
 * [, clock => 'log-append-time' | 'ingestion-time'] [, max_lag => l] [, time_column => ...] [,
 * time_type_column => ...] [, pacing => s])}: the per-user privacy budget in SQL, a process table
 * function. It passes a row of the input through (all its columns, plus {@code ldp_budget_spent},
 * the user's spending in the row's period with it) only if the user's spending in that period plus
 * the row's {@code cost} stays within {@code budget}; other rows are dropped and counted ({@code
 * recordsRefused} under {@code reason}: {@code budget-exhausted}, {@code budget-period-closed},
 * {@code untrusted-time}, {@code missing-field} for a NULL user). Released rows are counted in
 * {@code recordsReleased}. The rule, the calendar of periods and the clocks are the DataStream
 * budget's ({@link io.ogpm.budget.BudgetRule}).
 *
 * <p>{@code cost} is the epsilon one row spends: the sum of the {@code eps} of the columns the
 * query perturbs from it (sequential composition). With {@code pacing} the budget is released in
 * slices of the period ({@link io.ogpm.config.BudgetConfig#withPacing}). {@code period}, {@code
 * max_lag} and {@code pacing} are written as in the configuration file ({@code '1d'}, {@code
 * '12h'}, {@code 'PT30M'}). With the default clock {@code log-append-time} the input must carry the
 * record's Kafka timestamp and timestamp type, by default in the columns {@code kafka_timestamp}
 * ({@code TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'}) and {@code kafka_timestamp_type} ({@code
 * STRING METADATA FROM 'timestamp-type'}) of a raw topic with {@code
 * message.timestamp.type=LogAppendTime}; rows stamped by their producer are refused. Every scalar
 * argument must be a literal; a bad one fails the query when it is planned.
 *
 * <p>State: per user (the PARTITION BY key) a map from period to spending, each entry kept for
 * {@code 3 period + max_lag} after its last write (state TTL), checkpointed with the job.
 *
 * <p>Its arguments are read as the configuration file reads a budget ({@link BudgetArguments}) and
 * checked when the query is planned ({@link BudgetArgumentCheck}); its state's time-to-live comes
 * from them too ({@link BudgetStateTimeToLive}); the spending is the {@link BudgetLedger}'s.
 */
@PublicEvolving
@FunctionHint(output = @DataTypeHint("ROW<ldp_budget_spent DOUBLE>"))
public class LdpBudget extends ProcessTableFunction<Row> {
  private static final long serialVersionUID = 1L;

  /** The default column of the Kafka timestamp (log-append-time clock). */
  public static final String DEFAULT_TIME_COLUMN = "kafka_timestamp";

  /** The default column of the Kafka timestamp type (log-append-time clock). */
  public static final String DEFAULT_TIME_TYPE_COLUMN = "kafka_timestamp_type";

  static final String INPUT = "input";
  static final String STATE = "spent_by_period";

  private transient BudgetLedger ledger;
  private transient double cost;
  private transient int timeIndex;
  private transient int typeIndex;
  private transient int[] keys;
  private transient Counter released;
  private transient Map<ReasonCode, Counter> refused;
  private transient FunctionMetrics metrics;

  @Override
  public void open(FunctionContext context) {
    open(context.getMetricGroup());
  }

  void open(MetricGroup group) {
    metrics = FunctionMetrics.of(group);
    released = metrics.counter("recordsReleased");
    refused = new EnumMap<>(ReasonCode.class);
    ledger = null;
  }

  public void eval(
      Context ctx,
      @StateHint(name = STATE) MapView<Long, Double> spentByPeriod,
      @ArgumentHint(
              value = {ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.PASS_COLUMNS_THROUGH},
              name = INPUT)
          Row input,
      @ArgumentHint(name = "cost") String cost,
      @ArgumentHint(name = "budget") String budget,
      @ArgumentHint(name = "budget_period") String period,
      @ArgumentHint(name = "clock", isOptional = true) String clock,
      @ArgumentHint(name = "max_lag", isOptional = true) String maxLag,
      @ArgumentHint(name = "time_column", isOptional = true) String timeColumn,
      @ArgumentHint(name = "time_type_column", isOptional = true) String timeTypeColumn,
      @ArgumentHint(name = "pacing", isOptional = true) String pacing)
      throws Exception {
    if (ledger == null) {
      // The arguments are literals, checked when the query was planned: the same for every row.
      TableSemantics semantics = ctx.tableSemanticsFor(INPUT);
      List<String> names = DataType.getFieldNames(semantics.dataType());
      bind(
          BudgetArguments.config(
              BudgetArguments.number("budget", budget), period, clock, maxLag, pacing),
          BudgetArguments.number("cost", cost),
          names.indexOf(BudgetCall.timeColumn(timeColumn)),
          names.indexOf(BudgetCall.timeTypeColumn(timeTypeColumn)),
          semantics.partitionByColumns());
    }
    Row out = decide(spentByPeriod, input);
    if (out != null) {
      collect(out);
    }
  }

  /** The output row of a released record, or null (counted), at the task's clock now. */
  Row decide(MapView<Long, Double> spentByPeriod, Row input) throws Exception {
    return decide(spentByPeriod, input, System.currentTimeMillis());
  }

  /** The output row of a released record, or null (counted), at {@code clock} (epoch ms). */
  Row decide(MapView<Long, Double> spentByPeriod, Row input, long clock) throws Exception {
    for (int k : keys) {
      if (input.getField(k) == null) {
        return refuse(ReasonCode.MISSING_FIELD);
      }
    }
    boolean logAppend = ledger.budget().clock() == BudgetClock.LOG_APPEND_TIME;
    Instant time = logAppend && timeIndex >= 0 ? (Instant) input.getField(timeIndex) : null;
    String type = logAppend && typeIndex >= 0 ? (String) input.getField(typeIndex) : null;
    ReasonCode refusal = ledger.charge(spentByPeriod, clock, time, type, cost);
    if (refusal != null) {
      return refuse(refusal);
    }
    released.inc();
    return Row.of(ledger.spentAfter());
  }

  /**
   * Binds a ledger, as {@link #eval} does on its first row: the budget, the cost of a row, the
   * positions of the time columns (-1: absent) and of the PARTITION BY columns.
   */
  void bind(BudgetConfig budget, double cost, int timeIndex, int typeIndex, int[] keys) {
    this.ledger = new BudgetLedger(budget);
    this.cost = cost;
    this.timeIndex = timeIndex;
    this.typeIndex = typeIndex;
    this.keys = keys;
  }

  private Row refuse(ReasonCode reason) {
    refused.computeIfAbsent(reason, r -> metrics.counter("recordsRefused", r.code())).inc();
    return null;
  }

  /**
   * The extracted type inference, with the arguments checked when the query is planned and the
   * state's time-to-live from the call's budget.
   */
  @Override
  public TypeInference getTypeInference(DataTypeFactory typeFactory) {
    TypeInference extracted = super.getTypeInference(typeFactory);
    LinkedHashMap<String, StateTypeStrategy> states = new LinkedHashMap<>();
    extracted
        .getStateTypeStrategies()
        .forEach((name, s) -> states.put(name, new BudgetStateTimeToLive(s)));
    TypeInference.Builder b =
        TypeInference.newBuilder()
            .inputTypeStrategy(new BudgetArgumentCheck(extracted.getInputTypeStrategy()))
            .stateTypeStrategies(states)
            .outputTypeStrategy(extracted.getOutputTypeStrategy());
    extracted.getStaticArguments().ifPresent(b::staticArguments);
    return b.build();
  }
}
