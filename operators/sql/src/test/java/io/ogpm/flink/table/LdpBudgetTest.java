package io.ogpm.flink.table;

import static io.ogpm.flink.table.FakeCall.COLUMN;
import static io.ogpm.flink.table.FakeCall.NULL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.dataview.MapView;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.inference.ArgumentCount;
import org.apache.flink.table.types.inference.CallContext;
import org.apache.flink.table.types.inference.ConstantArgumentCount;
import org.apache.flink.table.types.inference.InputTypeStrategy;
import org.apache.flink.table.types.inference.Signature;
import org.apache.flink.table.types.inference.StateTypeStrategy;
import org.apache.flink.table.types.inference.TypeStrategies;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

/**
 * LDP_BUDGET: released rows carry the spending, refused ones are counted by reason (a NULL user
 * too); the literal arguments are checked when the query is planned, with the SQL names of the
 * arguments; the state entries live as long as the budget needs.
 */
class LdpBudgetTest {
  static final DataType RAW =
      DataTypes.ROW(
          DataTypes.FIELD("user_id", DataTypes.STRING()),
          DataTypes.FIELD("x", DataTypes.DOUBLE()),
          DataTypes.FIELD("kafka_timestamp", DataTypes.TIMESTAMP_LTZ(3)),
          DataTypes.FIELD("kafka_timestamp_type", DataTypes.STRING()));

  @Test
  void releasedRowsCarryTheSpendingAndRefusedOnesAreCounted() throws Exception {
    TestMetrics metrics = new TestMetrics();
    LdpBudget f = new LdpBudget();
    f.open(metrics);
    f.bind(BudgetConfig.of(2, Duration.ofDays(1)), 1.0, 2, 3, new int[] {0});
    MapView<Long, Double> alice = new MapView<>();
    Instant now = Instant.now();
    assertThat(f.decide(alice, Row.of("alice", 0.5, now, "LogAppendTime"))).isEqualTo(Row.of(1.0));
    assertThat(f.decide(alice, Row.of("alice", 0.5, now, "CreateTime"))).isNull();
    assertThat(f.decide(alice, Row.of("alice", 0.5, now, "LogAppendTime"))).isEqualTo(Row.of(2.0));
    assertThat(f.decide(alice, Row.of("alice", 0.5, now, "LogAppendTime"))).isNull();
    assertThat(f.decide(new MapView<>(), Row.of(null, 0.5, now, "LogAppendTime"))).isNull();
    assertThat(
            f.decide(alice, Row.of("alice", 0.5, now.minus(Duration.ofDays(3)), "LogAppendTime")))
        .isNull();
    assertThat(metrics.count("recordsReleased")).isEqualTo(2);
    assertThat(metrics.count("recordsRefused", "untrusted-time")).isEqualTo(1);
    assertThat(metrics.count("recordsRefused", "budget-exhausted")).isEqualTo(1);
    assertThat(metrics.count("recordsRefused", "missing-field")).isEqualTo(1);
    assertThat(metrics.count("recordsRefused", "budget-period-closed")).isEqualTo(1);
  }

  @Test
  void theTimeColumnsMayBeAnywhereInTheRow() throws Exception {
    LdpBudget f = new LdpBudget();
    f.open(new TestMetrics());
    f.bind(BudgetConfig.of(2, Duration.ofDays(1)), 1.0, 0, 1, new int[] {2});
    MapView<Long, Double> carol = new MapView<>();
    assertThat(f.decide(carol, Row.of(Instant.now(), "LogAppendTime", "carol")))
        .isEqualTo(Row.of(1.0));
    assertThat(f.decide(carol, Row.of(Instant.now(), "CreateTime", "carol"))).isNull();
    DataType timeFirst =
        DataTypes.ROW(
            DataTypes.FIELD("kafka_timestamp", DataTypes.TIMESTAMP_LTZ(3)),
            DataTypes.FIELD("kafka_timestamp_type", DataTypes.STRING()),
            DataTypes.FIELD("user_id", DataTypes.STRING()));
    accepted(FakeCall.of(COLUMN, "1", "3", "1d").withTable(timeFirst));
  }

  @Test
  void ingestionTimeReadsNoTimeColumns() throws Exception {
    LdpBudget f = new LdpBudget();
    f.open(new TestMetrics());
    f.bind(
        BudgetConfig.of(1, Duration.ofDays(1), BudgetClock.INGESTION_TIME, null),
        0.5,
        -1,
        -1,
        new int[] {0});
    MapView<Long, Double> bob = new MapView<>();
    assertThat(f.decide(bob, Row.of("bob", 1.0))).isEqualTo(Row.of(0.5));
    assertThat(f.decide(bob, Row.of("bob", 1.0))).isEqualTo(Row.of(1.0));
    assertThat(f.decide(bob, Row.of("bob", 1.0))).isNull();
  }

  @Test
  void argumentsAreReadAsTheConfigurationFileReadsThem() {
    assertThat(BudgetArguments.config(3.0, "1d", null, null, null))
        .isEqualTo(BudgetConfig.of(3, Duration.ofDays(1)));
    assertThat(BudgetArguments.config(3.0, "PT12H", "ingestion-time", null, null))
        .isEqualTo(BudgetConfig.of(3, Duration.ofHours(12), BudgetClock.INGESTION_TIME, null));
    assertThat(BudgetArguments.config(3.0, "1d", "log-append-time", "2h", null))
        .isEqualTo(
            BudgetConfig.of(
                3, Duration.ofDays(1), BudgetClock.LOG_APPEND_TIME, Duration.ofHours(2)));
    assertThatThrownBy(() -> BudgetArguments.config(null, "1d", null, null, null))
        .hasMessage("budget must not be NULL");
    assertThatThrownBy(() -> BudgetArguments.config(1.0, null, null, null, null))
        .hasMessage("budget_period must not be NULL");
    assertThatThrownBy(() -> BudgetArguments.config(-1.0, "1d", null, null, null))
        .hasMessage("budget must be > 0, got -1.0");
    assertThatThrownBy(() -> BudgetArguments.config(1.0, "0d", null, null, null))
        .hasMessage("budget_period must be positive, got PT0S");
    assertThatThrownBy(() -> BudgetArguments.config(1.0, "1x", null, null, null))
        .hasMessageStartingWith("budget_period must be an ISO-8601 duration");
    assertThatThrownBy(() -> BudgetArguments.config(1.0, "1d", null, "soon", null))
        .hasMessageStartingWith("max_lag must be an ISO-8601 duration");
    assertThatThrownBy(() -> BudgetArguments.config(1.0, "1d", "ingestion-time", "1h", null))
        .hasMessageStartingWith("max_lag applies to clock log-append-time only");
    assertThat(BudgetArguments.config(48.0, "1d", null, null, "1h"))
        .isEqualTo(BudgetConfig.of(48, Duration.ofDays(1)).withPacing(Duration.ofHours(1)));
    assertThatThrownBy(() -> BudgetArguments.config(48.0, "1d", null, null, "2d"))
        .hasMessage("pacing must be positive and at most the period PT24H, got PT48H");
    assertThatThrownBy(() -> BudgetArguments.config(48.0, "1d", null, null, "often"))
        .hasMessageStartingWith("pacing must be an ISO-8601 duration");
    assertThatThrownBy(() -> BudgetArguments.config(1.0, "1d", "wall", null, null))
        .hasMessage("clock must be log-append-time or ingestion-time, got 'wall'");
    assertThat(BudgetArguments.number("cost", " 2.5 ")).isEqualTo(2.5);
    assertThat(BudgetArguments.number("cost", null)).isNull();
    assertThatThrownBy(() -> BudgetArguments.number("cost", "two"))
        .hasMessage("cost must be a number written as a string, for example '1.5', got 'two'");
    assertThat(BudgetArguments.argumentNames("something else")).isEqualTo("something else");
  }

  private static final InputTypeStrategy ANYTHING =
      new InputTypeStrategy() {
        @Override
        public ArgumentCount getArgumentCount() {
          return ConstantArgumentCount.any();
        }

        @Override
        public Optional<List<DataType>> inferInputTypes(CallContext call, boolean throwOnFailure) {
          return Optional.of(call.getArgumentDataTypes());
        }

        @Override
        public List<Signature> getExpectedSignatures(FunctionDefinition definition) {
          return List.of();
        }
      };

  private static void refused(String message, FakeCall call) {
    assertThatThrownBy(() -> new BudgetArgumentCheck(ANYTHING).inferInputTypes(call, true))
        .isInstanceOf(ValidationException.class)
        .hasMessage(message);
    assertThat(new BudgetArgumentCheck(ANYTHING).inferInputTypes(call, false)).isEmpty();
  }

  private static void accepted(FakeCall call) {
    assertThat(new BudgetArgumentCheck(ANYTHING).inferInputTypes(call, true)).isPresent();
  }

  @Test
  void literalArgumentsAreCheckedWhenTheQueryIsPlanned() {
    accepted(FakeCall.of(COLUMN, "1", "3", "1d").withTable(RAW));
    accepted(FakeCall.of(COLUMN, "3", "3", "1d", "ingestion-time"));
    accepted(
        FakeCall.of(COLUMN, "1", "3", "1d", NULL, "2h", "kafka_timestamp", "kafka_timestamp_type")
            .withTable(RAW));
    // Not literals (the planner's second look, after casts): nothing to check then.
    accepted(FakeCall.of(COLUMN, COLUMN, "3", "1d").withTable(RAW));
    accepted(FakeCall.of(COLUMN, "9", COLUMN, "1d").withTable(RAW));
    accepted(FakeCall.of(COLUMN, "1", "3", "1d", NULL, NULL, COLUMN, COLUMN).withTable(RAW));
    refused(
        "LDP_BUDGET: cost must be > 0 and at most the budget 3.0 (a record costing more could never be released),"
            + " got 4.0",
        FakeCall.of(COLUMN, "4", "3", "1d"));
    refused(
        "LDP_BUDGET: cost must be > 0 and at most the budget 3.0 (a record costing more could never be released),"
            + " got 0.0",
        FakeCall.of(COLUMN, "0", "3", "1d"));
    refused(
        "LDP_BUDGET: cost must be > 0 and at most the budget 3.0 (a record costing more could never be released),"
            + " got null",
        FakeCall.of(COLUMN, NULL, "3", "1d"));
    refused(
        "LDP_BUDGET: budget_period must be positive, got PT0S",
        FakeCall.of(COLUMN, "1", "3", "0s"));
    refused(
        "LDP_BUDGET: budget must be a number written as a string, for example '1.5', got 'lots'",
        FakeCall.of(COLUMN, "1", "lots", "1d"));
    refused(
        "LDP_BUDGET: the clock log-append-time reads column 'ts' (time_column): declare it in the Kafka table as"
            + " ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', or use clock => 'ingestion-time'; the input has [user_id,"
            + " x, kafka_timestamp, kafka_timestamp_type]",
        FakeCall.of(COLUMN, "1", "3", "1d", NULL, NULL, "ts").withTable(RAW));
    refused(
        "LDP_BUDGET: the clock log-append-time reads column 'x' (time_type_column): declare it in the Kafka"
            + " table as x STRING METADATA FROM 'timestamp-type', or use clock => 'ingestion-time'; the input has"
            + " [user_id, x, kafka_timestamp, kafka_timestamp_type]",
        FakeCall.of(COLUMN, "1", "3", "1d", NULL, NULL, NULL, "x").withTable(RAW));
    refused(
        "LDP_BUDGET: the clock log-append-time reads column 'x' (time_column): declare it in the Kafka table as"
            + " x TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', or use clock => 'ingestion-time'; the input has [user_id,"
            + " x, kafka_timestamp, kafka_timestamp_type]",
        FakeCall.of(COLUMN, "1", "3", "1d", NULL, NULL, "x").withTable(RAW));
    // A call the extracted strategy refuses stays refused.
    InputTypeStrategy none =
        new BudgetArgumentCheck(
            new InputTypeStrategy() {
              @Override
              public ArgumentCount getArgumentCount() {
                return ConstantArgumentCount.of(3);
              }

              @Override
              public Optional<List<DataType>> inferInputTypes(
                  CallContext call, boolean throwOnFailure) {
                return Optional.empty();
              }

              @Override
              public List<Signature> getExpectedSignatures(FunctionDefinition definition) {
                return List.of(Signature.of(Signature.Argument.of("STRING")));
              }
            });
    assertThat(none.inferInputTypes(FakeCall.of(COLUMN, "9", "3", "1d"), false)).isEmpty();
    assertThat(none.getArgumentCount().getMinCount()).contains(3);
    assertThat(none.getExpectedSignatures(null)).hasSize(1);
  }

  @Test
  void stateLivesAsLongAsTheBudgetNeedsIt() {
    StateTypeStrategy kept =
        new BudgetStateTimeToLive(
            StateTypeStrategy.of(TypeStrategies.explicit(DataTypes.STRING())));
    assertThat(kept.getTimeToLive(FakeCall.of(COLUMN, COLUMN, COLUMN, "1d", NULL, "2h")))
        .contains(Duration.ofDays(3).plusHours(2));
    assertThat(kept.getTimeToLive(FakeCall.of(COLUMN, COLUMN, COLUMN, "1h", "ingestion-time")))
        .contains(Duration.ofHours(3));
    assertThat(kept.inferType(FakeCall.of(COLUMN))).contains(DataTypes.STRING());
    assertThatThrownBy(() -> kept.getTimeToLive(FakeCall.of(COLUMN, "1", "2", COLUMN)))
        .isInstanceOf(ValidationException.class)
        .hasMessage("LDP_BUDGET: budget_period, clock and max_lag must be literals");
  }
}
