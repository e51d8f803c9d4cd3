package io.ogpm.flink.table;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.functions.TableSemantics;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.inference.CallContext;

/**
 * A call as the planner describes it to a type strategy: each argument a literal (a number, a
 * string, NULL) or a column; or, as when the planner derives an aggregate's types after validation,
 * a call that cannot say what is a literal.
 */
final class FakeCall implements CallContext {
  /** A column, not a literal. */
  static final Object COLUMN = new Object();

  /** The NULL literal. */
  static final Object NULL = new Object();

  private final List<DataType> types = new ArrayList<>();
  private final List<Object> values = new ArrayList<>();
  private final boolean literalsKnown;
  private TableSemantics table;

  private FakeCall(boolean literalsKnown, Object... arguments) {
    this.literalsKnown = literalsKnown;
    for (Object a : arguments) {
      values.add(a);
      types.add(
          a instanceof String
              ? DataTypes.CHAR(((String) a).length())
              : a instanceof Integer
                  ? DataTypes.INT()
                  : a instanceof BigDecimal d
                      ? DataTypes.DECIMAL(Math.max(d.precision(), d.scale() + 1), d.scale())
                      : DataTypes.DOUBLE());
    }
  }

  /** A call whose literal arguments the planner knows (SQL validation). */
  static FakeCall of(Object... arguments) {
    return new FakeCall(true, arguments);
  }

  /** A call whose planner cannot tell literals (an aggregate's types derived after validation). */
  static FakeCall withoutLiteralInformation(Object... arguments) {
    return new FakeCall(false, arguments);
  }

  /** The call with a table of this row type as its first argument. */
  FakeCall withTable(DataType row) {
    table =
        new TableSemantics() {
          @Override
          public DataType dataType() {
            return row;
          }

          @Override
          public int[] partitionByColumns() {
            return new int[] {0};
          }

          @Override
          public int[] orderByColumns() {
            return new int[0];
          }

          @Override
          public int timeColumn() {
            return -1;
          }

          @Override
          public Optional<ChangelogMode> changelogMode() {
            return Optional.empty();
          }
        };
    return this;
  }

  @Override
  public Optional<TableSemantics> getTableSemantics(int pos) {
    return pos == 0 ? Optional.ofNullable(table) : Optional.empty();
  }

  @Override
  public DataTypeFactory getDataTypeFactory() {
    throw new UnsupportedOperationException();
  }

  @Override
  public FunctionDefinition getFunctionDefinition() {
    throw new UnsupportedOperationException();
  }

  @Override
  public boolean isArgumentLiteral(int pos) {
    if (!literalsKnown) {
      throw new UnsupportedOperationException();
    }
    return values.get(pos) != COLUMN;
  }

  @Override
  public boolean isArgumentNull(int pos) {
    return values.get(pos) == NULL;
  }

  @Override
  public <T> Optional<T> getArgumentValue(int pos, Class<T> clazz) {
    Object v = values.get(pos);
    if (v == COLUMN || v == NULL) {
      return Optional.empty();
    }
    if (!clazz.isInstance(v)) {
      throw new IllegalArgumentException("asked for a " + clazz + " of " + v);
    }
    return Optional.of(clazz.cast(v));
  }

  @Override
  public String getName() {
    return "fake";
  }

  @Override
  public List<DataType> getArgumentDataTypes() {
    return types;
  }

  @Override
  public Optional<DataType> getOutputDataType() {
    return Optional.empty();
  }

  @Override
  public boolean isGroupedAggregation() {
    return false;
  }
}
