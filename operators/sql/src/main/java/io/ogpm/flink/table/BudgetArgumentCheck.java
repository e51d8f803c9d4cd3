package io.ogpm.flink.table;

import static io.ogpm.flink.table.BudgetCall.COST;
import static io.ogpm.flink.table.BudgetCall.NOT_LITERAL;
import static io.ogpm.flink.table.BudgetCall.TIME_COLUMN;
import static io.ogpm.flink.table.BudgetCall.TIME_TYPE_COLUMN;
import static io.ogpm.flink.table.BudgetCall.literal;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import io.ogpm.config.ConfigException;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.functions.TableSemantics;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.inference.CallContext;
import org.apache.flink.table.types.inference.InputTypeStrategy;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Checks an {@code LDP_BUDGET} call when it is planned: literal arguments that define a budget, a
 * cost in (0, budget], and with the log-append-time clock the time columns with their types.
 */
final class BudgetArgumentCheck extends PlannedArguments {
  BudgetArgumentCheck(InputTypeStrategy extracted) {
    super(extracted, "LDP_BUDGET");
  }

  @Override
  void check(CallContext call) {
    BudgetConfig budget = BudgetCall.config(call);
    Object cost = literal(call, COST);
    if (budget == null || cost == NOT_LITERAL) {
      return;
    }
    Double c = BudgetArguments.number("cost", (String) cost);
    if (c == null || !(c > 0) || !(c <= budget.epsilon())) {
      throw new IllegalArgumentException(
          "cost must be > 0 and at most the budget "
              + budget.epsilon()
              + " (a record costing more could never be released), got "
              + c);
    }
    try {
      budget.checkSliceHolds(c, "cost");
    } catch (ConfigException e) {
      throw new IllegalArgumentException(BudgetArguments.argumentNames(e.getMessage()), e);
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
          BudgetCall.timeColumn((String) time),
          "time_column",
          LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
          "TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'");
    }
    if (type != NOT_LITERAL) {
      column(
          row,
          BudgetCall.timeTypeColumn((String) type),
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
