package io.ogpm.flink.table;

import static io.ogpm.flink.table.FakeCall.COLUMN;
import static io.ogpm.flink.table.FakeCall.NULL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.inference.ArgumentCount;
import org.apache.flink.table.types.inference.CallContext;
import org.apache.flink.table.types.inference.ConstantArgumentCount;
import org.apache.flink.table.types.inference.InputTypeStrategies;
import org.apache.flink.table.types.inference.InputTypeStrategy;
import org.apache.flink.table.types.inference.Signature;
import org.apache.flink.table.types.inference.TypeInference;
import org.apache.flink.table.types.inference.TypeStrategies;
import org.junit.jupiter.api.Test;

/**
 * The planning-time check of literal arguments: each literal on its own, the whole mechanism when
 * every argument is a literal; a message naming the function, the argument and its value; columns
 * (checked per row on the task) and calls that cannot say what is a literal pass.
 */
class ConstantArgumentsTest {
  static final Object X = COLUMN;

  private static InputTypeStrategy strategy(CallLayout layout) {
    TypeInference extracted =
        TypeInference.newBuilder()
            .inputTypeStrategy(InputTypeStrategies.WILDCARD)
            .outputTypeStrategy(TypeStrategies.explicit(DataTypes.DOUBLE()))
            .build();
    return ConstantArguments.wrap(extracted, layout).getInputTypeStrategy();
  }

  private static Optional<List<DataType>> infer(CallLayout layout, FakeCall call) {
    return strategy(layout).inferInputTypes(call, true);
  }

  private static void refused(CallLayout layout, String message, Object... arguments) {
    assertThatThrownBy(() -> infer(layout, FakeCall.of(arguments)))
        .isInstanceOf(ValidationException.class)
        .hasMessage(message);
    assertThat(strategy(layout).inferInputTypes(FakeCall.of(arguments), false)).isEmpty();
  }

  private static void accepted(CallLayout layout, Object... arguments) {
    FakeCall call = FakeCall.of(arguments);
    assertThat(infer(layout, call)).contains(call.getArgumentDataTypes());
  }

  @Test
  void badLiteralsAreRefusedNamingTheFunctionArgumentAndValue() {
    CallLayout p = CallLayout.LDP_PERTURB;
    refused(p, "LDP_PERTURB: eps must be > 0, got 0.0", X, 0, 1, 0);
    refused(p, "LDP_PERTURB: eps must be > 0, got -1.0", X, X, X, -1.0);
    refused(p, "LDP_PERTURB: eps must be a finite number, got NaN", X, X, X, Double.NaN);
    refused(p, "LDP_PERTURB: eps must be <= 700.0, got 800.0", X, 0, 1, 800);
    refused(
        p,
        "LDP_PERTURB: epsilon must be <= 20.0 for ogpm (above it its moments and bands are not exact"
            + " in doubles), got 30.0",
        X,
        0,
        1,
        30);
    refused(p, "LDP_PERTURB: lo must be < hi, got lo=1.0 and hi=1.0", X, 1, 1, 1);
    refused(p, "LDP_PERTURB: lo must be < hi, got lo=2.0 and hi=1.0", X, 2, 1, X);
    refused(
        p,
        "LDP_PERTURB: lo must be a finite number, got Infinity",
        X,
        Double.POSITIVE_INFINITY,
        X,
        X);
    refused(p, "LDP_PERTURB: hi must be a finite number, got NaN", X, X, Double.NaN, X);
    refused(p, "LDP_PERTURB: lo must not be NULL", X, NULL, 1, 1);
    refused(p, "LDP_PERTURB: hi must not be NULL", X, 0, NULL, 1);
    refused(p, "LDP_PERTURB: eps must not be NULL", X, 0, 1, NULL);
    refused(p, "LDP_PERTURB: domain must not be NULL", X, 0, 1, 1, NULL);
    refused(
        p, "LDP_PERTURB: domain must be classical or circular, got 'circle'", X, 0, 1, 1, "circle");
    refused(
        p,
        "LDP_PERTURB: objective must be l1 or l2, got 'l3'",
        X,
        0,
        1,
        1,
        "classical",
        "ogpm",
        "l3");
    refused(
        p,
        "LDP_PERTURB: mechanism purkayastha is not defined on a classical domain",
        X,
        0,
        1,
        1,
        "classical",
        "purkayastha");
    refused(
        p,
        "LDP_PERTURB: objective l2 applies to ogpm and staircase only, not pm",
        X,
        0,
        1,
        1,
        "classical",
        "pm",
        "l2");
    assertThatThrownBy(() -> infer(p, FakeCall.of(X, 0, 1, 1, "classical", "laplace")))
        .hasMessageStartingWith("LDP_PERTURB: mechanism must be auto or one of ogpm, ogpm-u, pm,")
        .hasMessageEndingWith(", got 'laplace'");
    // The mechanism is built as the task builds it: a grid finer than doubles is refused.
    assertThatThrownBy(() -> infer(p, FakeCall.of(X, 1e300, 1.0000000000000002e300, 1)))
        .hasMessageStartingWith("LDP_PERTURB: grid-bits 32 gives cells of");
    // A message with a '%' is not a format.
    refused(
        CallLayout.LDP_PERTURB,
        "LDP_PERTURB: domain must be classical or circular, got '100%s'",
        X,
        0,
        1,
        1,
        "100%s");
  }

  @Test
  void decimalAndIntegerLiteralsAreReadAsTheirValues() {
    accepted(
        CallLayout.LDP_PERTURB,
        X,
        new BigDecimal("-2.5"),
        new BigDecimal("2.5"),
        new BigDecimal("0.5"));
    assertThatThrownBy(
            () ->
                infer(
                    CallLayout.LDP_PERTURB,
                    FakeCall.of(X, new BigDecimal("2.5"), new BigDecimal("-2.5"), 1)))
        .hasMessage("LDP_PERTURB: lo must be < hi, got lo=2.5 and hi=-2.5");
  }

  @Test
  void goodLiteralsColumnsAndCallsWithoutLiteralInformationPass() {
    accepted(CallLayout.LDP_PERTURB, X, -2, 2, 1);
    accepted(CallLayout.LDP_PERTURB, X, -Math.PI, Math.PI, 2, "circular", "purkayastha");
    accepted(CallLayout.LDP_PERTURB, X, 0, 1, 1, "classical", "auto");
    accepted(CallLayout.LDP_PERTURB, X, X, X, X, X, X, X);
    accepted(CallLayout.LDP_PERTURB, X, 0, X, 1, "circular", X, "l2");
    accepted(CallLayout.OGPM_PERTURB, X, 0, 1, 1, "circular");
    accepted(CallLayout.LDP_PERTURB_KEYED, X, "x", X, 0, 1, 1, "classical", "ogpm", "l2");
    accepted(CallLayout.LDP_HISTOGRAM, X, 0, 1, 1, "classical", "ogpm", 10_000, "l2");
    accepted(CallLayout.LDP_QUANTILE, X, 0.5, 0, 1, 1, "classical", "ogpm", 10_000, "l2");
    accepted(CallLayout.LDP_MEAN, X, 0, 1, 1, "pm");
    accepted(CallLayout.LDP_CIRCULAR_MEAN, X, 0, 1, 1, "purkayastha");
    FakeCall bad = FakeCall.withoutLiteralInformation(X, 1, 0, 0);
    assertThatCode(() -> infer(CallLayout.LDP_MEAN, bad)).doesNotThrowAnyException();
  }

  @Test
  void eachFunctionReadsItsOwnPositionsAndFixesTheRest() {
    CallLayout k = CallLayout.LDP_PERTURB_KEYED;
    refused(k, "LDP_PERTURB_KEYED: eps must be > 0, got 0.0", X, "f", X, 0, 1, 0);
    refused(
        k,
        "LDP_PERTURB_KEYED: domain must be classical or circular, got 'x'",
        X,
        "f",
        X,
        0,
        1,
        1,
        "x");
    refused(
        k,
        "LDP_PERTURB_KEYED: objective must be l1 or l2, got 'l0'",
        X,
        "f",
        X,
        0,
        1,
        1,
        "classical",
        "ogpm",
        "l0");
    CallLayout o = CallLayout.OGPM_PERTURB;
    refused(o, "OGPM_PERTURB: lo must be < hi, got lo=3.0 and hi=1.0", X, 3, 1, 1, "circular");
    CallLayout h = CallLayout.LDP_HISTOGRAM;
    refused(
        h, "LDP_HISTOGRAM: bins must be in [1, 10000], got 0", X, 0, 1, 1, "classical", "ogpm", 0);
    refused(
        h,
        "LDP_HISTOGRAM: bins must be in [1, 10000], got 10001",
        X,
        0,
        1,
        1,
        "classical",
        "ogpm",
        10_001);
    refused(h, "LDP_HISTOGRAM: bins must not be NULL", X, 0, 1, 1, "classical", "ogpm", NULL);
    refused(
        h,
        "LDP_HISTOGRAM: objective must be l1 or l2, got 'x'",
        X,
        0,
        1,
        1,
        "classical",
        "ogpm",
        5,
        "x");
    accepted(h, X, 0, 1, 1, "classical", "ogpm", 1);
    // LDP_MEAN is classical: purkayastha is not defined there; LDP_CIRCULAR_MEAN is circular.
    refused(
        CallLayout.LDP_MEAN,
        "LDP_MEAN: mechanism purkayastha is not defined on a classical domain",
        X,
        0,
        1,
        1,
        "purkayastha");
    refused(
        CallLayout.LDP_MEAN,
        "LDP_MEAN: objective must be l1 or l2, got 'l9'",
        X,
        0,
        1,
        1,
        "ogpm",
        "l9");
    refused(
        CallLayout.LDP_CIRCULAR_MEAN,
        "LDP_CIRCULAR_MEAN: mechanism ogpm-u is not defined on a circular domain",
        X,
        0,
        1,
        1,
        "ogpm-u");
  }

  @Test
  void aQuantilesProbabilityIsRefusedOutsideZeroToOneNamingIt() {
    CallLayout q = CallLayout.LDP_QUANTILE;
    refused(q, "LDP_QUANTILE: p must be in (0, 1), got 1.5", X, 1.5, 0, 1, 1);
    refused(q, "LDP_QUANTILE: p must be in (0, 1), got 0.0", X, 0, 0, 1, 1);
    refused(q, "LDP_QUANTILE: p must be in (0, 1), got 1.0", X, 1, X, X, X);
    refused(q, "LDP_QUANTILE: p must be in (0, 1), got -0.25", X, -0.25, X, X, X);
    refused(q, "LDP_QUANTILE: p must be in (0, 1), got NaN", X, Double.NaN, 0, 1, 1);
    refused(q, "LDP_QUANTILE: p must not be NULL", X, NULL, 0, 1, 1);
    // p takes position 1: the mechanism's arguments follow as in LDP_HISTOGRAM.
    refused(q, "LDP_QUANTILE: eps must be > 0, got 0.0", X, 0.5, 0, 1, 0);
    refused(
        q,
        "LDP_QUANTILE: bins must be in [1, 10000], got 0",
        X,
        0.5,
        0,
        1,
        1,
        "classical",
        "ogpm",
        0);
    refused(
        q,
        "LDP_QUANTILE: objective must be l1 or l2, got 'x'",
        X,
        0.5,
        0,
        1,
        1,
        "classical",
        "ogpm",
        5,
        "x");
    accepted(q, X, 0.5, 0, 1, 1);
    accepted(q, X, new BigDecimal("0.9"), 0, 1, 1, "circular", "ogpm", 20, "l2");
    // A column's p is checked per row on the task.
    accepted(q, X, X, 0, 1, 1);
    // The other functions have no p: a number at position 1 is their lo.
    accepted(CallLayout.LDP_HISTOGRAM, X, 1.5, 2, 1);
  }

  @Test
  void theExtractedInferenceIsKeptAroundTheCheck() {
    List<Signature> signatures = List.of(Signature.of(Signature.Argument.of("DOUBLE")));
    InputTypeStrategy overloads =
        new InputTypeStrategy() {
          @Override
          public ArgumentCount getArgumentCount() {
            return ConstantArgumentCount.between(2, 3);
          }

          @Override
          public Optional<List<DataType>> inferInputTypes(
              CallContext call, boolean throwOnFailure) {
            return call.getArgumentDataTypes().size() == 4
                ? Optional.of(call.getArgumentDataTypes())
                : Optional.empty();
          }

          @Override
          public List<Signature> getExpectedSignatures(FunctionDefinition definition) {
            return signatures;
          }
        };
    TypeInference extracted =
        TypeInference.newBuilder()
            .inputTypeStrategy(overloads)
            .outputTypeStrategy(TypeStrategies.explicit(DataTypes.DOUBLE()))
            .build();
    TypeInference wrapped = ConstantArguments.wrap(extracted, CallLayout.LDP_PERTURB);
    assertThat(wrapped.getOutputTypeStrategy()).isSameAs(extracted.getOutputTypeStrategy());
    assertThat(wrapped.getStateTypeStrategies()).isEqualTo(extracted.getStateTypeStrategies());
    assertThat(wrapped.getInputTypeStrategy().getArgumentCount().getMinCount()).contains(2);
    assertThat(wrapped.getInputTypeStrategy().getArgumentCount().getMaxCount()).contains(3);
    assertThat(wrapped.getInputTypeStrategy().getExpectedSignatures(null)).isSameAs(signatures);
    // The overloads decide first: a call they refuse is refused whatever its literals.
    assertThat(wrapped.getInputTypeStrategy().inferInputTypes(FakeCall.of(X, 0, 1, 1), false))
        .isPresent();
    assertThat(
            wrapped
                .getInputTypeStrategy()
                .inferInputTypes(FakeCall.of(X, 0, 1, 1, "classical"), false))
        .isEmpty();
    assertThat(wrapped.getInputTypeStrategy().inferInputTypes(FakeCall.of(X, 0, 1, 0), false))
        .isEmpty();
    // Static arguments (named, optional) survive the wrapping.
    TypeInference named =
        ConstantArguments.wrap(
            TypeInference.newBuilder()
                .staticArguments(
                    org.apache.flink.table.types.inference.StaticArgument.scalar(
                        "value", DataTypes.DOUBLE(), false))
                .outputTypeStrategy(TypeStrategies.explicit(DataTypes.DOUBLE()))
                .build(),
            CallLayout.LDP_PERTURB);
    assertThat(named.getStaticArguments()).hasValueSatisfying(a -> assertThat(a).hasSize(1));
  }
}
