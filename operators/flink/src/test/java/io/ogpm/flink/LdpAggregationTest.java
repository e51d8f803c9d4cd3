package io.ogpm.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.flink.aggregate.Aggregations;
import io.ogpm.flink.aggregate.PartialAggregate;
import io.ogpm.flink.kafka.AggregationKafka;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.flink.kafka.PerturbedValuesDeserializerTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.api.java.typeutils.runtime.kryo.KryoSerializer;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The aggregation's public face: a builder that validates in {@code build()} naming the bad option
 * and value, {@code apply} that adds two operators with stable uids and never touches the
 * environment, and every type on every stream and in state serialised by Flink's own serializers
 * (no Kryo), checked on the graph of the whole Kafka-to-Kafka pipeline with generic types disabled.
 */
class LdpAggregationTest {
  static LdpAggregation.Builder valid() {
    return LdpAggregation.builder().config(Aggregations.CONFIG).window(Duration.ofMinutes(1));
  }

  @Test
  void defaultsAreTumblingWindowsWithoutLatenessFiftyBinsEmAndTenSecondUpdates() {
    LdpAggregation a = valid().build();
    assertThat(a.config()).isEqualTo(Aggregations.CONFIG);
    assertThat(a.window()).isEqualTo(Duration.ofMinutes(1));
    assertThat(a.slide()).isEqualTo(Duration.ofMinutes(1));
    assertThat(a.allowedLateness()).isEqualTo(Duration.ofMinutes(5));
    assertThat(a.lateUpdateInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(a.groupBy()).isNull();
    assertThat(a.bins()).isEqualTo(50);
    assertThat(a.quantiles()).containsExactly(0.1, 0.5, 0.9);
    assertThat(a.method()).isEqualTo(EstimationMethod.EM);
    assertThat(a.uidPrefix()).isNull();
    assertThat(a.uid("pre-aggregate")).isEqualTo("pre-aggregate");
    LdpAggregation b =
        valid()
            .slide(Duration.ofSeconds(10))
            .allowedLateness(Duration.ofSeconds(30))
            .lateUpdateInterval(Duration.ZERO)
            .groupBy("activity")
            .bins(10_000)
            .quantiles(0.05, 0.95)
            .method(EstimationMethod.RAW)
            .uidPrefix("p")
            .build();
    assertThat(b.slide()).isEqualTo(Duration.ofSeconds(10));
    assertThat(b.allowedLateness()).isEqualTo(Duration.ofSeconds(30));
    assertThat(b.lateUpdateInterval()).isZero();
    assertThat(b.groupBy()).isEqualTo("activity");
    assertThat(b.bins()).isEqualTo(10_000);
    assertThat(b.quantiles()).containsExactly(0.05, 0.95);
    assertThat(valid().quantiles().build().quantiles()).as("none").isEmpty();
    assertThat(b.method()).isEqualTo(EstimationMethod.RAW);
    assertThat(b.uidPrefix()).isEqualTo("p");
    assertThat(b.uid("pre-aggregate")).isEqualTo("p-pre-aggregate");
    assertThat(valid().uidPrefix("p").uidPrefix(null).build().uidPrefix())
        .as("null: no prefix")
        .isNull();
    LdpAggregation copy = b.toBuilder().build();
    assertThat(
            List.of(
                copy.config(),
                copy.window(),
                copy.slide(),
                copy.allowedLateness(),
                copy.lateUpdateInterval(),
                copy.groupBy(),
                copy.bins(),
                java.util.Arrays.toString(copy.quantiles()),
                copy.method(),
                copy.uidPrefix()))
        .isEqualTo(
            List.of(
                b.config(),
                b.window(),
                b.slide(),
                b.allowedLateness(),
                b.lateUpdateInterval(),
                b.groupBy(),
                b.bins(),
                java.util.Arrays.toString(b.quantiles()),
                b.method(),
                b.uidPrefix()));
    // Tumbling windows stay tumbling: a copy takes a shorter window without a slide of the old
    // size.
    assertThat(a.toBuilder().window(Duration.ofSeconds(5)).build().slide())
        .isEqualTo(Duration.ofSeconds(5));
    assertThat(valid().bins(1).build().bins()).isEqualTo(1);
    assertThat(valid().window(Duration.ofMillis(1L << 60)).build().window())
        .isEqualTo(Duration.ofMillis(1L << 60));
  }

  @Test
  void buildNamesTheBadOptionAndValue() {
    assertThatThrownBy(() -> LdpAggregation.builder().window(Duration.ofSeconds(1)).build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("config: a privacy configuration is required");
    assertThatThrownBy(() -> LdpAggregation.builder().config(Aggregations.CONFIG).build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("window: a window size is required");
    assertThatThrownBy(() -> valid().window(Duration.ZERO).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("window: must be positive, got PT0S");
    assertThatThrownBy(() -> valid().window(Duration.ofSeconds(-1)).build())
        .hasMessage("window: must be positive, got PT-1S");
    assertThatThrownBy(() -> valid().window(Duration.ofNanos(1_500_000)).build())
        .hasMessage("window: must be whole milliseconds, got PT0.0015S");
    assertThatThrownBy(() -> valid().window(Duration.ofMillis((1L << 60) + 1)).build())
        .hasMessageStartingWith("window: must be at most 2^60 ms, got PT");
    assertThatThrownBy(() -> valid().slide(Duration.ofMinutes(2)).build())
        .hasMessage("slide: must be at most the window (PT1M), got PT2M");
    assertThatThrownBy(() -> valid().slide(Duration.ZERO).build())
        .hasMessage("slide: must be positive, got PT0S");
    assertThatThrownBy(() -> valid().allowedLateness(Duration.ofMillis(-1)).build())
        .hasMessage("allowedLateness: must be at least 0, got PT-0.001S");
    assertThatThrownBy(() -> valid().allowedLateness(null).build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("allowedLateness: required");
    assertThatThrownBy(() -> valid().lateUpdateInterval(Duration.ofSeconds(-5)).build())
        .hasMessage("lateUpdateInterval: must be at least 0, got PT-5S");
    assertThatThrownBy(() -> valid().lateUpdateInterval(null).build())
        .hasMessage("lateUpdateInterval: required");
    for (int bad : new int[] {0, -1, 10_001}) {
      assertThatThrownBy(() -> valid().bins(bad).build())
          .hasMessage("bins: must be in [1, 10000], got " + bad);
    }
    assertThatThrownBy(() -> valid().quantiles(0.5, 1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("quantiles: a quantile's probability must be in (0, 1), got 1.0");
    assertThatThrownBy(() -> valid().quantiles(0.9, 0.1).build())
        .hasMessage(
            "quantiles: quantile probabilities must increase without repeats, got 0.1 after 0.9");
    assertThatThrownBy(() -> valid().quantiles((double[]) null).build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("quantiles: required (an empty list for none)");
    assertThatThrownBy(() -> valid().method(null).build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("method: an estimation method is required");
    for (String prefix : new String[] {"", " ", " p", "p "}) {
      assertThatThrownBy(() -> valid().uidPrefix(prefix).build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "uidPrefix: must not be blank nor start or end with a space, got '" + prefix + "'");
    }
    assertThatThrownBy(() -> valid().groupBy("x").build())
        .hasMessageStartingWith("groupBy: 'x' is not a passthrough field of the configuration");
    assertThatThrownBy(
            () -> AggregationKafka.deserializer(valid().groupBy("activity").build(), "ts"))
        .hasMessageStartingWith("timeField: 'ts' is not a passthrough field of the configuration");
    assertThatThrownBy(() -> valid().groupBy("activity").build().parser("ts"))
        .hasMessageStartingWith("timeField: 'ts' is not a passthrough field of the configuration");
    assertThatThrownBy(() -> AggregationKafka.deserializer(null, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("aggregation: required");
    assertThatThrownBy(() -> valid().build().apply(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("perturbed: a stream is required");
  }

  @Test
  void applyAddsTwoOperatorsWithStableUidsAndLeavesTheEnvironmentAlone() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    Map<String, String> before = env.getConfiguration().toMap();
    int parallelism = env.getParallelism();
    DataStream<WindowEstimate> estimates =
        valid().groupBy("activity").uidPrefix("mine").build().apply(input(env));
    estimates.sinkTo(new DiscardingSink<>());
    assertThat(env.getConfiguration().toMap()).isEqualTo(before);
    assertThat(env.getParallelism()).isEqualTo(parallelism);
    assertThat(env.getCheckpointConfig().isCheckpointingEnabled()).isFalse();
    assertThat(estimates.getType()).isEqualTo(TypeInformation.of(WindowEstimate.class));
    List<String> uids = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (StreamNode node : env.getStreamGraph().getStreamNodes()) {
      uids.add(node.getTransformationUID());
      names.add(node.getOperatorName());
    }
    assertThat(uids).contains("mine-pre-aggregate", "mine-window-estimates");
    assertThat(names).contains("pre-aggregate (per subtask)", "window estimates");
  }

  @Test
  void withoutAPrefixTheUidsAreTheRolesAsInThePerturbation() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    valid().build().apply(input(env)).sinkTo(new DiscardingSink<>());
    List<String> uids = new ArrayList<>();
    for (StreamNode node : env.getStreamGraph().getStreamNodes()) {
      uids.add(node.getTransformationUID());
    }
    assertThat(uids).contains("pre-aggregate", "window-estimates");
  }

  static DataStream<PerturbedValues> input(StreamExecutionEnvironment env) {
    return env.fromData(new PerturbedValues(new double[] {0.5, 1.0}, "a", 1))
        .assignTimestampsAndWatermarks(LdpAggregation.watermarks(Duration.ofSeconds(1)));
  }

  /**
   * The whole pipeline, Kafka to Kafka, built with generic types disabled (building fails if any
   * type would need Kryo), and every stream's and key's serializer checked to be Flink's own.
   */
  @Test
  void everyTypeOnEveryStreamIsSerialisedByFlinksOwnSerializers() {
    Configuration noKryo = new Configuration();
    noKryo.set(PipelineOptions.GENERIC_TYPES, false);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(noKryo);
    KafkaSettings kafka = KafkaSettings.of("localhost:1");
    LdpAggregation aggregation = valid().groupBy("activity").slide(Duration.ofSeconds(10)).build();
    DataStream<PerturbedValues> perturbed =
        env.fromSource(
            AggregationKafka.perturbedValuesSource()
                .kafka(kafka)
                .topics("in")
                .groupId("group")
                .deserializer(AggregationKafka.deserializer(aggregation, null))
                .bounded(true)
                .build(),
            LdpAggregation.watermarks(Duration.ofSeconds(5)),
            "perturbed");
    aggregation.apply(perturbed).sinkTo(AggregationKafka.estimateSink(kafka, "out", "tx"));
    StreamGraph graph = env.getStreamGraph();
    int checked = 0;
    for (StreamNode node : graph.getStreamNodes()) {
      List<TypeSerializer<?>> serializers = new ArrayList<>(List.of(node.getTypeSerializersIn()));
      serializers.add(node.getTypeSerializerOut());
      serializers.add(node.getStateKeySerializer());
      for (TypeSerializer<?> s : serializers) {
        if (s != null) {
          assertThat(s).as(node.getOperatorName()).isNotInstanceOf(KryoSerializer.class);
          checked++;
        }
      }
    }
    assertThat(checked).isGreaterThanOrEqualTo(6);
  }

  /**
   * What travels between the operators and sits in state: POJOs, field by field, nothing left to
   * Kryo.
   */
  @ParameterizedTest
  @ValueSource(
      classes = {
        PerturbedValues.class,
        PartialAggregate.class,
        FieldAccumulator.class,
        WindowEstimate.class
      })
  void theAggregationsTypesArePojosWithoutGenericFields(Class<?> type) {
    TypeInformation<?> info = TypeInformation.of(type);
    assertThat(info).isInstanceOf(PojoTypeInfo.class);
    PojoTypeInfo<?> pojo = (PojoTypeInfo<?>) info;
    for (int i = 0; i < pojo.getArity(); i++) {
      assertThat(pojo.getPojoFieldAt(i).getTypeInformation())
          .as(pojo.getPojoFieldAt(i).getField().getName())
          .isNotInstanceOf(GenericTypeInfo.class);
    }
    SerializerConfigImpl noKryo = new SerializerConfigImpl();
    noKryo.setGenericTypes(false);
    assertThat(info.createSerializer(noKryo)).isNotNull();
  }

  @Test
  void theDeserializerAndParserCarryTheGroupBy() throws Exception {
    LdpAggregation a =
        LdpAggregation.builder()
            .config(PerturbedValuesDeserializerTest.CONFIG)
            .window(Duration.ofSeconds(1))
            .groupBy("activity")
            .build();
    byte[] json =
        "{\"x\":0.5,\"activity\":\"walking\",\"ts\":7}"
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    var read =
        PerturbedValuesDeserializerTest.readWith(
            AggregationKafka.deserializer(a, "ts"),
            PerturbedValuesDeserializerTest.FINGERPRINT,
            json);
    assertThat(read.values())
        .extracting(PerturbedValues::getGroup, PerturbedValues::getEventTime)
        .containsExactly(org.assertj.core.api.Assertions.tuple("walking", 7L));
    PerturbedRecord r = new PerturbedRecord(null, json, 3, null, 9, null);
    r.setFingerprint(PerturbedValuesDeserializerTest.FINGERPRINT);
    try (var h =
        new org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness<>(
            new org.apache.flink.streaming.api.operators.StreamFlatMap<>(a.parser(null)))) {
      h.open();
      h.processElement(r, 9);
      assertThat(h.extractOutputValues())
          .extracting(PerturbedValues::getGroup, PerturbedValues::getEventTime)
          .containsExactly(org.assertj.core.api.Assertions.tuple("walking", 9L));
    }
  }
}
