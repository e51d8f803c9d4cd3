package io.ogpm.flink.table;

import java.util.List;
import java.util.Optional;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.inference.ArgumentCount;
import org.apache.flink.table.types.inference.CallContext;
import org.apache.flink.table.types.inference.InputTypeStrategy;
import org.apache.flink.table.types.inference.Signature;

/**
 * The input strategy Flink extracted from a function's {@code eval} or {@code accumulate} methods
 * (which matches the overload and casts the arguments), with a check of the call's literal
 * arguments when the query is planned: a bad literal fails the query with a {@link
 * org.apache.flink.table.api.ValidationException} that names the function, the argument and its
 * value, instead of giving NULL for every row. The subclasses say what is checked ({@link
 * ConstantArguments} for the mechanism arguments, {@link BudgetArgumentCheck} for the budget's).
 */
abstract class PlannedArguments implements InputTypeStrategy {
  private final InputTypeStrategy extracted;
  private final String function;

  PlannedArguments(InputTypeStrategy extracted, String function) {
    this.extracted = extracted;
    this.function = function;
  }

  /**
   * Checks the literal arguments of a call whose types matched.
   *
   * @throws IllegalArgumentException naming the argument and its value
   */
  abstract void check(CallContext call);

  @Override
  public ArgumentCount getArgumentCount() {
    return extracted.getArgumentCount();
  }

  @Override
  public Optional<List<DataType>> inferInputTypes(CallContext call, boolean throwOnFailure) {
    Optional<List<DataType>> types = extracted.inferInputTypes(call, throwOnFailure);
    if (types.isEmpty()) {
      return types;
    }
    try {
      check(call);
    } catch (IllegalArgumentException e) {
      if (throwOnFailure) {
        // No format arguments: the message may hold a '%'.
        throw call.newValidationError(function + ": " + e.getMessage());
      }
      return Optional.empty();
    }
    return types;
  }

  @Override
  public List<Signature> getExpectedSignatures(FunctionDefinition definition) {
    return extracted.getExpectedSignatures(definition);
  }
}
