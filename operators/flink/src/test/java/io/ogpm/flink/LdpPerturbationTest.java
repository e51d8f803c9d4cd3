package io.ogpm.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.Readings.Reading;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

/**
 * The public perturbation API: the builder's validation, the uids, what {@code apply} adds to the
 * caller's stream (and that it touches nothing else), the type information of what it returns and
 * the checks of the user's types against the configuration.
 */
class LdpPerturbationTest {
  static final PrivacyConfig JSON_CONFIG =
      PrivacyConfig.parse(
          """
      id-field: id
      user-field: user
      fields: [{name: x, min: 0, max: 1, epsilon: 1}]
      """);
  static final PrivacyConfig WITH_BUDGET =
      PrivacyConfig.parse(
          """
      id-field: id
      user-field: user
      fields: [{name: x, min: 0, max: 1, epsilon: 1}]
      budget: {epsilon: 5, period: 1d}
      """);
  static final PrivacyConfig POJO_BUDGET =
      PrivacyConfig.parse(
          Readings.YAML + "budget: {epsilon: 5, period: 1d, clock: ingestion-time}\n");

  static LdpPerturbation ldp(PrivacyConfig config) {
    return LdpPerturbation.builder().config(config).build();
  }

  @Test
  void theBuilderNeedsAConfigurationAndNamesWhatIsWrong() {
    assertThatThrownBy(() -> LdpPerturbation.builder().build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("config: required (PrivacyConfig.load(path) or PrivacyConfig.parse(yaml))");
    assertThatThrownBy(() -> LdpPerturbation.builder().config(JSON_CONFIG).randomness(null).build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("randomness: must not be null (KeySource.none() for secure randomness)");
    for (String prefix : new String[] {"", " ", " p", "p "}) {
      assertThatThrownBy(
              () -> LdpPerturbation.builder().config(JSON_CONFIG).uidPrefix(prefix).build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "uidPrefix: must not be blank nor start or end with a space, got '" + prefix + "'");
    }
    PrivacyConfig noId = PrivacyConfig.parse("fields: [{name: x, min: 0, max: 1, epsilon: 1}]");
    assertThatThrownBy(
            () ->
                LdpPerturbation.builder()
                    .config(noId)
                    .randomness(KeySource.environment("K"))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "randomness: keyed randomness (key in $K) needs an id-field in the configuration");
    assertThat(LdpPerturbation.builder().config(noId).build().randomness().isKeyed()).isFalse();
    assertThat(
            LdpPerturbation.builder()
                .config(JSON_CONFIG)
                .randomness(KeySource.file(Path.of("k")))
                .build()
                .config())
        .isSameAs(JSON_CONFIG);
  }

  @Test
  void uidsAreTheRolesOrThePrefixedRoles() {
    assertThat(ldp(JSON_CONFIG).uid("perturb")).isEqualTo("perturb");
    assertThat(
            LdpPerturbation.builder()
                .config(JSON_CONFIG)
                .uidPrefix("sensors")
                .build()
                .uid("perturb"))
        .isEqualTo("sensors-perturb");
    assertThat(LdpPerturbation.builder().config(JSON_CONFIG).uidPrefix("sensors").build())
        .hasToString("LdpPerturbation{" + JSON_CONFIG + ", secure random, uids sensors-<role>}");
  }

  static StreamExecutionEnvironment env() {
    Configuration c = new Configuration();
    c.setString("pipeline.generic-types", "false");
    return StreamExecutionEnvironment.getExecutionEnvironment(c);
  }

  static DataStream<RawRecord> raw(StreamExecutionEnvironment env) {
    return env.fromData(List.of(new RawRecord()), TypeInformation.of(RawRecord.class));
  }

  static DataStream<Reading> readings(StreamExecutionEnvironment env) {
    return env.fromData(List.of(Readings.reading(1, 0.5, 1.0)), TypeInformation.of(Reading.class));
  }

  static DataStream<Row> rows(StreamExecutionEnvironment env) {
    return env.fromData(List.of(Readings.row(1, 0.5, 1.0)), Readings.ROW);
  }

  /** The uid of every operator of the built graph, by operator name. */
  static Map<String, String> uids(StreamExecutionEnvironment env) {
    Map<String, String> out = new java.util.TreeMap<>();
    for (StreamNode n : env.getStreamGraph().getStreamNodes()) {
      if (n.getTransformationUID() != null) {
        out.put(n.getOperatorName(), n.getTransformationUID());
      }
    }
    return out;
  }

  /** apply adds its operators with stable uids and leaves the environment's settings alone. */
  @Test
  void applyAddsUidedOperatorsAndLeavesTheEnvironmentAlone() {
    StreamExecutionEnvironment env = env();
    Map<String, String> before = env.getConfiguration().toMap();
    int parallelism = env.getParallelism();
    PerturbationResult<PerturbedRecord> r = ldp(WITH_BUDGET).apply(raw(env));
    r.perturbed().sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());
    r.deadLetters().sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());
    assertThat(env.getConfiguration().toMap()).isEqualTo(before);
    assertThat(env.getParallelism()).isEqualTo(parallelism);
    assertThat(env.getCheckpointConfig().isCheckpointingEnabled()).isFalse();
    assertThat(uids(env))
        .containsEntry("perturb", "perturb")
        .containsEntry("privacy budget", "budget-by-period");

    StreamExecutionEnvironment prefixed = env();
    var p =
        LdpPerturbation.builder()
            .config(POJO_BUDGET)
            .uidPrefix("readings")
            .build()
            .apply(readings(prefixed), RecordAccess.pojo(Reading.class));
    p.perturbed().sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());
    p.deadLetters().sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());
    assertThat(uids(prefixed))
        .containsEntry("perturb", "readings-perturb")
        .containsEntry("privacy budget", "readings-budget-by-period");
  }

  /** Without a budget, nothing is keyed: one operator, its output the released stream. */
  @Test
  void withoutABudgetThereIsOneOperator() {
    StreamExecutionEnvironment env = env();
    PerturbationResult<PerturbedRecord> r = ldp(JSON_CONFIG).apply(raw(env));
    r.perturbed().sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());
    assertThat(uids(env)).containsOnlyKeys("perturb");
    StreamExecutionEnvironment rowEnv = env();
    ldp(Readings.CONFIG)
        .apply(rows(rowEnv), RecordAccess.row())
        .perturbed()
        .sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());
    assertThat(uids(rowEnv)).containsOnlyKeys("perturb");
  }

  @Test
  void theOutputsHaveFlinkTypesAndTheInputsTypeForTheUsersRecords() {
    StreamExecutionEnvironment env = env();
    assertThat(ldp(WITH_BUDGET).apply(raw(env)).perturbed().getType())
        .isEqualTo(TypeInformation.of(PerturbedRecord.class));
    assertThat(ldp(JSON_CONFIG).apply(raw(env)).deadLetters().getType())
        .isEqualTo(TypeInformation.of(DeadLetterRecord.class));
    assertThat(
            ldp(Readings.CONFIG)
                .apply(readings(env), RecordAccess.pojo(Reading.class))
                .perturbed()
                .getType())
        .isEqualTo(TypeInformation.of(Reading.class));
    assertThat(
            ldp(POJO_BUDGET)
                .apply(readings(env), RecordAccess.pojo(Reading.class))
                .perturbed()
                .getType())
        .isEqualTo(TypeInformation.of(Reading.class));
    assertThat(ldp(Readings.CONFIG).apply(rows(env), RecordAccess.row()).perturbed().getType())
        .isEqualTo(Readings.ROW);
  }

  /** What a type lacks or has wrong, named by the configured name, when apply is called. */
  @Test
  void theUsersTypeIsCheckedAgainstTheConfiguration() {
    StreamExecutionEnvironment env = env();
    Map<String, String> cases =
        Map.of(
            "fields: [{name: speed, min: 0, max: 1, epsilon: 1}]",
            "field 'speed': Reading has no field speed",
            "fields: [{name: attitude.speed, min: 0, max: 1, epsilon: 1}]",
            "field 'attitude.speed': Reading.attitude has no field speed",
            "fields: [{name: name.x, min: 0, max: 1, epsilon: 1}]",
            "field 'name.x': Reading.name is String, not a POJO or Row with a field x",
            "fields: [{name: steps, min: 0, max: 1, epsilon: 1}]",
            "field 'steps': Reading.steps is int, not double or Double (a perturbed value is a double)",
            "passthrough: [gps]\nfields: [{name: accel, min: 0, max: 1, epsilon: 1}]",
            "passthrough 'gps': Reading has no field gps",
            "id-field: attitude\nfields: [{name: accel, min: 0, max: 1, epsilon: 1}]",
            "id-field 'attitude': Reading.attitude is Attitude, not a string or an integer",
            "user-field: attitude.yaw\nfields: [{name: accel, min: 0, max: 1, epsilon: 1}]",
            "user-field 'attitude.yaw': Reading.attitude.yaw is double, not a string or an integer");
    cases.forEach(
        (yaml, message) ->
            assertThatThrownBy(
                    () ->
                        ldp(PrivacyConfig.parse(yaml))
                            .apply(readings(env), RecordAccess.pojo(Reading.class)))
                .as(yaml)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message));
    assertThatThrownBy(
            () ->
                ldp(PrivacyConfig.parse("fields: [{name: name, min: 0, max: 1, epsilon: 1}]"))
                    .apply(rows(env), RecordAccess.row()))
        .hasMessage(
            "field 'name': Row.name is String, not double or Double (a perturbed value is a double)");
    assertThatThrownBy(
            () ->
                ldp(PrivacyConfig.parse(
                        "fields: [{name: attitude.speed, min: 0, max: 1, epsilon: 1}]"))
                    .apply(rows(env), RecordAccess.row()))
        .hasMessage("field 'attitude.speed': Row.attitude has no field speed");
    // Integer and string ids and users are fine.
    ldp(PrivacyConfig.parse(
            "id-field: ts\nuser-field: id\nfields: [{name: accel, min: 0, max: 1, epsilon: 1}]"))
        .apply(readings(env), RecordAccess.pojo(Reading.class));
  }

  /** A POJO Flink cannot serialise field by field, another class, a Row without names: refused. */
  @Test
  void theStreamsTypeMustBeTheAccessesKind() {
    // Generic types allowed here, to build streams of them.
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    DataStream<NotAPojo> generic =
        env.fromData(List.of(new NotAPojo(1)), new GenericTypeInfo<>(NotAPojo.class));
    assertThatThrownBy(() -> ldp(Readings.CONFIG).apply(generic, RecordAccess.pojo(NotAPojo.class)))
        .hasMessage(
            "the stream's type is GenericType<io.ogpm.flink.LdpPerturbationTest.NotAPojo>, not a Flink POJO: NotAPojo"
                + " needs to be a public class with a public no-argument constructor whose fields are public or have a"
                + " public getter and setter (else Flink would serialize it with Kryo)");
    @SuppressWarnings({"unchecked", "rawtypes"})
    RecordAccess<Reading> other = (RecordAccess) RecordAccess.pojo(Readings.Attitude.class);
    assertThatThrownBy(() -> ldp(Readings.CONFIG).apply(readings(env), other))
        .hasMessage(
            "the stream's records are io.ogpm.flink.Readings$Reading, not io.ogpm.flink.Readings$Attitude");
    DataStream<Row> unnamed = env.fromData(List.of(Row.of(1.0)), new GenericTypeInfo<>(Row.class));
    assertThatThrownBy(() -> ldp(Readings.CONFIG).apply(unnamed, RecordAccess.row()))
        .hasMessage(
            "the stream's type is GenericType<org.apache.flink.types.Row>, not a RowTypeInfo: give the Row stream its"
                + " field names and types (for example .returns(Types.ROW_NAMED(names, types)))");
    assertThatThrownBy(() -> RecordAccess.pojo(null)).hasMessage("type: required");
    assertThatThrownBy(() -> ldp(Readings.CONFIG).apply(readings(env), null))
        .hasMessage("access: required (RecordAccess.pojo(type) or RecordAccess.row())");
    assertThatThrownBy(() -> ldp(Readings.CONFIG).apply(null)).hasMessage("records: required");
    assertThatThrownBy(() -> ldp(Readings.CONFIG).apply(null, RecordAccess.row()))
        .hasMessage("records: required");
    assertThat(RecordAccess.row()).hasToString("RecordAccess.row()");
    assertThat(RecordAccess.pojo(Reading.class))
        .hasToString("RecordAccess.pojo(io.ogpm.flink.Readings$Reading)");
  }

  /**
   * A contribution bound keys the perturbed records by user before the budget, with its own uid;
   * its dead letters join the others. The user's own types are refused for now, naming the path
   * that takes it.
   */
  @Test
  void aContributionBoundComesBeforeTheBudgetAndNeedsKafkaRecords() {
    StreamExecutionEnvironment env = env();
    PrivacyConfig bounded =
        WITH_BUDGET.withContribution(
            io.ogpm.config.ContributionBound.of(
                1,
                java.time.Duration.ofSeconds(10),
                io.ogpm.config.BudgetClock.LOG_APPEND_TIME,
                null));
    PerturbationResult<PerturbedRecord> r = ldp(bounded).apply(raw(env));
    r.perturbed().sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());
    r.deadLetters().sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());
    assertThat(uids(env))
        .containsEntry("perturb", "perturb")
        .containsEntry("contribution bound", "contribution-by-window")
        .containsEntry("privacy budget", "budget-by-period");
    PrivacyConfig pojo =
        POJO_BUDGET.withContribution(
            io.ogpm.config.ContributionBound.of(
                1,
                java.time.Duration.ofSeconds(10),
                io.ogpm.config.BudgetClock.INGESTION_TIME,
                null));
    assertThatThrownBy(() -> ldp(pojo).apply(readings(env()), RecordAccess.pojo(Reading.class)))
        .hasMessage(
            "contribution: bounds apply to Kafka records for now: perturb them with"
                + " apply(DataStream<RawRecord>)");
  }

  /** The user's records carry no broker time: a budget on that clock is refused, naming the fix. */
  @Test
  void aBudgetOnTheLogAppendClockNeedsKafkaRecords() {
    PrivacyConfig logAppend =
        PrivacyConfig.parse(Readings.YAML + "budget: {epsilon: 5, period: 1d}\n");
    assertThatThrownBy(
            () -> ldp(logAppend).apply(readings(env()), RecordAccess.pojo(Reading.class)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "budget: clock log-append-time reads the time the Kafka broker appended a record, which records"
                + " of Reading do not carry: use clock: ingestion-time, or perturb the Kafka records themselves with"
                + " apply(DataStream<RawRecord>)");
  }

  /** A class Flink cannot treat as a POJO (no no-argument constructor). */
  public static final class NotAPojo {
    public final int x;

    public NotAPojo(int x) {
      this.x = x;
    }
  }

  /**
   * Every stream of every variant (JSON and the user's types, with and without a budget) has
   * Flink's own serializers: built with generic types disabled (Flink would then refuse any Kryo
   * type when creating the graph), and every serializer of every node and side output checked.
   */
  @Test
  void everyStreamIsSerializedByFlinksOwnSerializers() {
    List<Function<StreamExecutionEnvironment, PerturbationResult<?>>> pipelines =
        List.of(
            e -> ldp(JSON_CONFIG).apply(raw(e)),
            e -> ldp(WITH_BUDGET).apply(raw(e)),
            e -> ldp(Readings.CONFIG).apply(readings(e), RecordAccess.pojo(Reading.class)),
            e -> ldp(POJO_BUDGET).apply(readings(e), RecordAccess.pojo(Reading.class)),
            e -> ldp(Readings.CONFIG).apply(rows(e), RecordAccess.row()),
            e -> ldp(POJO_BUDGET).apply(rows(e), RecordAccess.row()));
    for (var pipeline : pipelines) {
      StreamExecutionEnvironment env = env();
      PerturbationResult<?> r = pipeline.apply(env);
      r.perturbed().sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());
      r.deadLetters()
          .sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());
      List<String> checked = FlinkTypes.assertNoKryo(env.getStreamGraph());
      assertThat(checked).isNotEmpty();
    }
  }

  /** Keys of the budget are strings, with Flink's string serializer. */
  @Test
  void theBudgetIsKeyedByTheUserAsAString() {
    StreamExecutionEnvironment env = env();
    ldp(POJO_BUDGET)
        .apply(readings(env), RecordAccess.pojo(Reading.class))
        .perturbed()
        .sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());
    List<Object> keySerializers = new ArrayList<>();
    for (StreamNode n : env.getStreamGraph().getStreamNodes()) {
      if (n.getStateKeySerializer() != null) {
        keySerializers.add(n.getStateKeySerializer());
      }
    }
    assertThat(keySerializers).hasSize(1);
    assertThat(keySerializers.get(0))
        .isEqualTo(
            Types.STRING.createSerializer(
                new org.apache.flink.api.common.ExecutionConfig().getSerializerConfig()));
  }
}
