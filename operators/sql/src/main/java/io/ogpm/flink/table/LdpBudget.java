package io.ogpm.flink.table;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import io.ogpm.config.ConfigException;
import io.ogpm.record.ReasonCode;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import org.apache.flink.table.types.inference.CallContext;
import org.apache.flink.table.types.inference.InputTypeStrategy;
import org.apache.flink.table.types.inference.StateTypeStrategy;
import org.apache.flink.table.types.inference.TypeInference;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.types.Row;

/**
 * {@code LDP_BUDGET(input => TABLE t PARTITION BY user, cost => c, budget => b, budget_period => p
 * [, clock => 'log-append-time' | 'ingestion-time'] [, max_lag => l] [, time_column => ...] [,
 * time_type_column => ...])}: the per-user privacy budget in SQL, a process table function. It
 * passes a row of the input through (all its columns, plus {@code ldp_budget_spent}, the user's
 * spending in the row's period with it) only if the user's spending in that period plus the row's
 * {@code cost} stays within {@code budget}; other rows are dropped and counted ({@code
 * recordsRefused} under {@code reason}: {@code budget-exhausted}, {@code budget-period-closed},
 * {@code untrusted-time}, {@code missing-field} for a NULL user). Released rows are counted in
 * {@code recordsReleased}. The rule, the calendar of periods and the clocks are the DataStream
 * budget's ({@link BudgetLedger}).
 *
 * <p>{@code cost} is the epsilon one row spends: the sum of the {@code eps} of the columns the
 * query perturbs from it (sequential composition). {@code period} and {@code max_lag} are written
 * as in the configuration file ({@code '1d'}, {@code '12h'}, {@code 'PT30M'}). With the default
 * clock {@code log-append-time} the input must carry the record's Kafka timestamp and timestamp
 * type, by default in the columns {@code kafka_timestamp} ({@code TIMESTAMP_LTZ(3) METADATA FROM
 * 'timestamp'}) and {@code kafka_timestamp_type} ({@code STRING METADATA FROM 'timestamp-type'}) of
 * a raw topic with {@code message.timestamp.type=LogAppendTime}; rows stamped by their producer are
 * refused. Every scalar argument must be a literal; a bad one fails the query when it is planned.
 *
 * <p>State: per user (the PARTITION BY key) a map from period to spending, each entry kept for
 * {@code 3 period + max_lag} after its last write (state TTL), checkpointed with the job.
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

  /** Positions of the scalar arguments in a call. */
  static final int COST = 1;

  static final int BUDGET = 2;
  static final int PERIOD = 3;
  static final int CLOCK = 4;
  static final int MAX_LAG = 5;
  static final int TIME_COLUMN = 6;
  static final int TIME_TYPE_COLUMN = 7;

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
      @ArgumentHint(name = "time_type_column", isOptional = true) String timeTypeColumn)
      throws Exception {
    if (ledger == null) {
      // The arguments are literals, checked when the query was planned: the same for every row.
      ledger = new BudgetLedger(config(number("budget", budget), period, clock, maxLag));
      this.cost = number("cost", cost);
      TableSemantics semantics = ctx.tableSemanticsFor(INPUT);
      List<String> names = DataType.getFieldNames(semantics.dataType());
      timeIndex = names.indexOf(orDefault(timeColumn, DEFAULT_TIME_COLUMN));
      typeIndex = names.indexOf(orDefault(timeTypeColumn, DEFAULT_TIME_TYPE_COLUMN));
      keys = semantics.partitionByColumns();
    }
    Row out = decide(spentByPeriod, input);
    if (out != null) {
      collect(out);
    }
  }

  /** The output row of a released record, or null (counted). */
  Row decide(MapView<Long, Double> spentByPeriod, Row input) throws Exception {
    for (int k : keys) {
      if (input.getField(k) == null) {
        return refuse(ReasonCode.MISSING_FIELD);
      }
    }
    boolean logAppend = ledger.budget().clock() == BudgetClock.LOG_APPEND_TIME;
    Instant time = logAppend && timeIndex >= 0 ? (Instant) input.getField(timeIndex) : null;
    String type = logAppend && typeIndex >= 0 ? (String) input.getField(typeIndex) : null;
    ReasonCode refusal = ledger.charge(spentByPeriod, System.currentTimeMillis(), time, type, cost);
    if (refusal != null) {
      return refuse(refusal);
    }
    released.inc();
    return Row.of(ledger.spentAfter());
  }

  /** Binds a ledger as {@link #eval} does on its first row (for tests). */
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
   * A number written as a string ({@code cost => '3.0'}), or null for NULL.
   *
   * <p>Strings, not DOUBLE: Flink 2.2 inserts a cast for a DECIMAL or INT literal passed to a
   * DOUBLE argument of a process table function, then generates code that casts the literal's value
   * ({@code DecimalData}) to {@code Double} without converting it, and fails to compile; and the
   * cast hides the literal from the state's time-to-live. Strings are passed as they are.
   *
   * @throws IllegalArgumentException naming the argument when it is not a number
   */
  static Double number(String name, String value) {
    if (value == null) {
      return null;
    }
    try {
      return Double.parseDouble(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          name + " must be a number written as a string, for example '1.5', got '" + value + "'");
    }
  }

  private static String orDefault(String value, String otherwise) {
    return value == null ? otherwise : value;
  }

  /**
   * The budget the arguments define.
   *
   * @throws IllegalArgumentException naming the argument and its value
   */
  static BudgetConfig config(Double budget, String period, String clock, String maxLag) {
    if (budget == null) {
      throw new IllegalArgumentException("budget must not be NULL");
    }
    if (period == null) {
      throw new IllegalArgumentException("budget_period must not be NULL");
    }
    try {
      BudgetClock c = clock == null ? BudgetClock.LOG_APPEND_TIME : BudgetClock.parse(clock);
      Duration lag = maxLag == null ? null : BudgetConfig.parseDuration("max-lag", maxLag);
      return BudgetConfig.of(budget, BudgetConfig.parsePeriod(period), c, lag);
    } catch (ConfigException e) {
      throw new IllegalArgumentException(argumentNames(e.getMessage()), e);
    }
  }

  /**
   * A budget configuration's message with the SQL arguments' names ({@code budget: period} is
   * {@code budget_period}).
   */
  static String argumentNames(String message) {
    String m = message.startsWith("budget: ") ? message.substring("budget: ".length()) : message;
    if (m.startsWith("period")) {
      return "budget_period" + m.substring("period".length());
    }
    if (m.startsWith("max-lag")) {
      return "max_lag" + m.substring("max-lag".length());
    }
    if (m.startsWith("epsilon")) {
      return "budget" + m.substring("epsilon".length());
    }
    return m;
  }

  @Override
  public TypeInference getTypeInference(DataTypeFactory typeFactory) {
    TypeInference extracted = super.getTypeInference(typeFactory);
    LinkedHashMap<String, StateTypeStrategy> states = new LinkedHashMap<>();
    extracted
        .getStateTypeStrategies()
        .forEach((name, s) -> states.put(name, new KeptForTheBudget(s)));
    TypeInference.Builder b =
        TypeInference.newBuilder()
            .inputTypeStrategy(new BudgetArguments(extracted.getInputTypeStrategy()))
            .stateTypeStrategies(states)
            .outputTypeStrategy(extracted.getOutputTypeStrategy());
    extracted.getStaticArguments().ifPresent(b::staticArguments);
    return b.build();
  }

  /**
   * A call's argument value: null when the call leaves it out or passes NULL; {@link #NOT_LITERAL}
   * when the planner cannot say (it validates a call again after casting its literals: {@code
   * CAST(1.0 AS DOUBLE)} is no literal).
   */
  static Object literal(CallContext call, int position) {
    if (position >= call.getArgumentDataTypes().size() || call.isArgumentNull(position)) {
      return null;
    }
    if (!call.isArgumentLiteral(position)) {
      return NOT_LITERAL;
    }
    Object v =
        call.getArgumentValue(
                position, call.getArgumentDataTypes().get(position).getConversionClass())
            .orElse(null);
    return v == null ? null : v.toString();
  }

  /** An argument that is not a literal (or not one the planner can read). */
  static final Object NOT_LITERAL = new Object();

  /** The budget of a call's literal arguments, or null when one of them is not a literal. */
  static BudgetConfig config(CallContext call) {
    Object budget = literal(call, BUDGET);
    Object period = literal(call, PERIOD);
    Object clock = literal(call, CLOCK);
    Object lag = literal(call, MAX_LAG);
    if (budget == NOT_LITERAL
        || period == NOT_LITERAL
        || clock == NOT_LITERAL
        || lag == NOT_LITERAL) {
      return null;
    }
    return config(number("budget", (String) budget), (String) period, (String) clock, (String) lag);
  }

  /**
   * Checks a call when it is planned: literal arguments that define a budget, a cost in (0,
   * budget], and with the log-append-time clock the time columns with their types.
   */
  static final class BudgetArguments extends PlannedArguments {
    BudgetArguments(InputTypeStrategy extracted) {
      super(extracted, "LDP_BUDGET");
    }

    @Override
    void check(CallContext call) {
      BudgetConfig budget = config(call);
      Object cost = literal(call, COST);
      if (budget == null || cost == NOT_LITERAL) {
        return;
      }
      Double c = number("cost", (String) cost);
      if (c == null || !(c > 0) || !(c <= budget.epsilon())) {
        throw new IllegalArgumentException(
            "cost must be > 0 and at most the budget "
                + budget.epsilon()
                + " (a record costing more could never be released), got "
                + c);
      }
      if (budget.clock() != BudgetClock.LOG_APPEND_TIME) {
        return;
      }
      Optional<TableSemantics> semantics = call.getTableSemantics(0);
      if (semantics.isEmpty()) {
        return;
      }
      DataType row = semantics.get().dataType();
      Object time = literal(call, TIME_COLUMN);
      Object type = literal(call, TIME_TYPE_COLUMN);
      if (time != NOT_LITERAL) {
        column(
            row,
            orDefault((String) time, DEFAULT_TIME_COLUMN),
            "time_column",
            LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
            "TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'");
      }
      if (type != NOT_LITERAL) {
        column(
            row,
            orDefault((String) type, DEFAULT_TIME_TYPE_COLUMN),
            "time_type_column",
            null,
            "STRING METADATA FROM 'timestamp-type'");
      }
    }

    private static void column(
        DataType row, String name, String argument, LogicalTypeRoot root, String declare) {
      List<String> names = DataType.getFieldNames(row);
      int i = names.indexOf(name);
      boolean ok =
          i >= 0
              && (root != null
                  ? DataType.getFieldDataTypes(row).get(i).getLogicalType().is(root)
                  : DataType.getFieldDataTypes(row)
                      .get(i)
                      .getLogicalType()
                      .is(LogicalTypeFamily.CHARACTER_STRING));
      if (!ok) {
        throw new IllegalArgumentException(
            "the clock log-append-time reads column '"
                + name
                + "' ("
                + argument
                + "): declare it in the Kafka table as "
                + name
                + " "
                + declare
                + ", or use clock => 'ingestion-time';"
                + " the input has "
                + names);
      }
    }
  }

  /** The state entry's time-to-live from the call's budget ({@link BudgetLedger#timeToLive}). */
  static final class KeptForTheBudget implements StateTypeStrategy {
    private final StateTypeStrategy extracted;

    KeptForTheBudget(StateTypeStrategy extracted) {
      this.extracted = extracted;
    }

    @Override
    public Optional<DataType> inferType(CallContext call) {
      return extracted.inferType(call);
    }

    @Override
    public Optional<Duration> getTimeToLive(CallContext call) {
      // Only the calendar matters here: budget_period, clock and max_lag, strings the planner
      // passes
      // as they are. (Numbers it casts to DOUBLE: no longer literals when the state is derived.)
      Object period = literal(call, PERIOD);
      Object clock = literal(call, CLOCK);
      Object lag = literal(call, MAX_LAG);
      if (period == NOT_LITERAL || clock == NOT_LITERAL || lag == NOT_LITERAL) {
        throw call.newValidationError(
            "LDP_BUDGET: budget_period, clock and max_lag must be literals");
      }
      BudgetConfig calendar = config(1.0, (String) period, (String) clock, (String) lag);
      return Optional.of(BudgetLedger.timeToLive(calendar));
    }
  }
}
