package io.ogpm.flink.table;

import static io.ogpm.flink.table.FakeCall.COLUMN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.api.common.functions.WithConfigurationOpenContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.internal.TableEnvironmentImpl;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.UserDefinedFunction;
import org.apache.flink.table.types.inference.TypeInference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each function's type inference, as Flink extracts it from its methods and annotations, carries
 * the planning-time check with the function's own argument positions and name; each opens from a
 * FunctionContext as the task gives it (the keyed function reading its key's location from the job
 * parameters).
 */
class FunctionTypeInferenceTest {
  static DataTypeFactory types;

  @TempDir Path dir;

  @BeforeAll
  static void dataTypeFactory() {
    TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    types = ((TableEnvironmentImpl) t).getCatalogManager().getDataTypeFactory();
  }

  private static void refusesItsBadLiteral(
      UserDefinedFunction f, String message, Object... arguments) {
    TypeInference inference = f.getTypeInference(types);
    assertThatThrownBy(
            () -> inference.getInputTypeStrategy().inferInputTypes(FakeCall.of(arguments), true))
        .as(f.getClass().getSimpleName())
        .isInstanceOf(ValidationException.class)
        .hasMessage(message);
  }

  private static void accepts(UserDefinedFunction f, Object... arguments) {
    FakeCall call = FakeCall.of(arguments);
    assertThat(f.getTypeInference(types).getInputTypeStrategy().inferInputTypes(call, true))
        .isPresent();
  }

  @Test
  void everyFunctionChecksItsLiteralsAtItsOwnPositions() {
    refusesItsBadLiteral(
        new LdpPerturb(), "LDP_PERTURB: eps must be > 0, got 0.0", COLUMN, 0, 1, 0);
    refusesItsBadLiteral(
        new LdpPerturb(),
        "LDP_PERTURB: objective must be l1 or l2, got 'l7'",
        COLUMN,
        0,
        1,
        1,
        "classical",
        "ogpm",
        "l7");
    accepts(new LdpPerturb(), COLUMN, 0, 1, 1, "circular");
    refusesItsBadLiteral(
        new OgpmPerturb(), "OGPM_PERTURB: lo must be < hi, got lo=1.0 and hi=0.0", COLUMN, 1, 0, 1);
    refusesItsBadLiteral(
        new LdpPerturbKeyed(),
        "LDP_PERTURB_KEYED: eps must be > 0, got -1.0",
        "r1",
        "x",
        COLUMN,
        0,
        1,
        -1);
    accepts(new LdpPerturbKeyed(), "r1", "x", COLUMN, 0, 1, 1);
    refusesItsBadLiteral(new LdpMean(), "LDP_MEAN: eps must be > 0, got 0.0", COLUMN, 0, 1, 0);
    refusesItsBadLiteral(
        new LdpCircularMean(),
        "LDP_CIRCULAR_MEAN: mechanism ogpm-u is not defined on a circular domain",
        COLUMN,
        0,
        1,
        1,
        "ogpm-u");
    refusesItsBadLiteral(
        new LdpHistogram(),
        "LDP_HISTOGRAM: bins must be in [1, 10000], got 0",
        COLUMN,
        0,
        1,
        1,
        "classical",
        "ogpm",
        0);
    accepts(new LdpHistogram(), COLUMN, 0, 1, 1, "classical", "ogpm", 7, "l2");
    refusesItsBadLiteral(
        new LdpQuantile(), "LDP_QUANTILE: p must be in (0, 1), got 1.5", COLUMN, 1.5, 0, 1, 1);
    refusesItsBadLiteral(
        new LdpQuantile(),
        "LDP_QUANTILE: bins must be in [1, 10000], got 0",
        COLUMN,
        0.5,
        0,
        1,
        1,
        "classical",
        "ogpm",
        0);
    accepts(new LdpQuantile(), COLUMN, 0.5, 0, 1, 1);
    accepts(new LdpQuantile(), COLUMN, 0.1, 0, 1, 1, "classical", "ogpm", 7, "l2");
  }

  @Test
  void thePolarFunctionsCheckTheirLiteralsAndTheSplit() {
    for (UserDefinedFunction f :
        new UserDefinedFunction[] {new LdpPerturbPolar(), new LdpPolarMean()}) {
      String name = f instanceof LdpPerturbPolar ? "LDP_PERTURB_POLAR: " : "LDP_POLAR_MEAN: ";
      refusesItsBadLiteral(f, name + "radius_max must be > 0, got 0.0", COLUMN, COLUMN, 0, 3);
      refusesItsBadLiteral(
          f, name + "radius_max must not be NULL", COLUMN, COLUMN, FakeCall.NULL, 3);
      refusesItsBadLiteral(f, name + "eps must be > 0, got -1.0", COLUMN, COLUMN, COLUMN, -1);
      refusesItsBadLiteral(
          f, name + "objective must be l1 or l2, got 'l7'", COLUMN, COLUMN, 1, 3, "l7");
      refusesItsBadLiteral(
          f,
          name + "angle_min must be < angle_max, got angle_min=360.0 and angle_max=0.0",
          COLUMN,
          COLUMN,
          1,
          COLUMN,
          "l1",
          360,
          0);
      // Each literal on its own, whatever the others are.
      refusesItsBadLiteral(
          f,
          name + "angle_max must be a finite number, got Infinity",
          COLUMN,
          COLUMN,
          COLUMN,
          COLUMN,
          "l1",
          COLUMN,
          Double.POSITIVE_INFINITY);
      refusesItsBadLiteral(
          f, name + "objective must be l1 or l2, got 'l7'", COLUMN, COLUMN, COLUMN, COLUMN, "l7");
      // Every argument a literal: the split as the task will compute it.
      refusesItsBadLiteral(
          f,
          name
              + "the least total error at epsilon 2.0 gives the radius no share of it"
              + " (see ogpm polar-split)",
          COLUMN,
          COLUMN,
          1,
          2,
          "l2");
      refusesItsBadLiteral(
          f,
          name
              + "the least total error at epsilon 2.0 gives the angle no share of it"
              + " (see ogpm polar-split)",
          COLUMN,
          COLUMN,
          1000,
          2);
      accepts(f, COLUMN, COLUMN, 50, 9.99, "l1", 0, 360);
      accepts(f, COLUMN, COLUMN, 1, 7);
      accepts(f, COLUMN, COLUMN, COLUMN, COLUMN, "l2", COLUMN, 360);
    }
  }

  @Test
  void theBudgetsInferenceKeepsItsStateForTheBudgetAndChecksItsArguments() {
    TypeInference inference = new LdpBudget().getTypeInference(types);
    assertThat(inference.getStaticArguments()).isPresent();
    assertThat(inference.getStaticArguments().get().get(0).getName()).isEqualTo("input");
    assertThat(inference.getStateTypeStrategies()).containsOnlyKeys(LdpBudget.STATE);
    assertThat(inference.getStateTypeStrategies().get(LdpBudget.STATE))
        .isInstanceOf(BudgetStateTimeToLive.class);
    assertThat(inference.getInputTypeStrategy()).isInstanceOf(BudgetArgumentCheck.class);
  }

  private static FunctionContext taskContext(Configuration jobParameters) {
    return new FunctionContext(null, null, new WithConfigurationOpenContext(jobParameters));
  }

  @Test
  void functionsOpenFromTheTasksContext() throws Exception {
    LdpPerturb perturb = new LdpPerturb();
    perturb.open(taskContext(new Configuration()));
    assertThat(perturb.eval(0.5, 0.0, 1.0, 1.0)).isBetween(0.0, 1.0);
    OgpmPerturb ogpm = new OgpmPerturb();
    ogpm.open(taskContext(new Configuration()));
    assertThat(ogpm.eval(0.5, 0.0, 1.0, 1.0)).isBetween(0.0, 1.0);
    LdpMean mean = new LdpMean();
    mean.open(taskContext(new Configuration()));
    LdpAccumulator acc = mean.createAccumulator();
    mean.accumulate(acc, 0.5, 0.0, 1.0, 1.0);
    assertThat(mean.getValue(acc).getField(0)).isEqualTo(1L);
    LdpQuantile quantile = new LdpQuantile();
    quantile.open(taskContext(new Configuration()));
    LdpQuantileAccumulator q = quantile.createAccumulator();
    quantile.accumulate(q, 0.5, 0.5, 0.0, 1.0, 1.0);
    assertThat(quantile.getValue(q).getField(0)).isEqualTo(1L);
    LdpBudget budget = new LdpBudget();
    budget.open(taskContext(new Configuration()));

    Path key = dir.resolve("key");
    Files.writeString(key, "a key for a function context test", StandardCharsets.US_ASCII);
    LdpPerturbKeyed keyed = new LdpPerturbKeyed();
    keyed.open(
        taskContext(
            Configuration.fromMap(
                java.util.Map.of(LdpPerturbKeyed.KEY_FILE_PARAMETER, key.toString()))));
    LdpPerturbKeyed direct = new LdpPerturbKeyed();
    direct.open(io.ogpm.flink.KeySource.file(key), new TestMetrics());
    assertThat(keyed.eval(5L, "x", 0.5, 0.0, 1.0, 1.0))
        .isEqualTo(direct.eval(5L, "x", 0.5, 0.0, 1.0, 1.0));
    LdpPerturbKeyed fromConstructor = new LdpPerturbKeyed(io.ogpm.flink.KeySource.file(key));
    fromConstructor.open(taskContext(new Configuration()));
    assertThat(fromConstructor.eval(5L, "x", 0.5, 0.0, 1.0, 1.0))
        .isEqualTo(direct.eval(5L, "x", 0.5, 0.0, 1.0, 1.0));
    assertThatThrownBy(() -> new LdpPerturbKeyed().open(taskContext(new Configuration())))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("LDP_PERTURB_KEYED needs a key on the task managers");
  }
}
