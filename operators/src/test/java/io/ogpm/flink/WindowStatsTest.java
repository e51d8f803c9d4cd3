package io.ogpm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.EstimateJson;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.api.java.typeutils.TypeExtractor;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.windowing.assigners.EventTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.WindowAssigner;
import org.apache.flink.streaming.api.windowing.triggers.EventTimeTrigger;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.runtime.operators.windowing.WindowOperatorBuilder;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The aggregate job's windows, in Flink's keyed operator test harness: values keyed by field and
 * group, added up per event-time window ({@link FieldAggregate}) and turned into one JSON object
 * per window, group and field ({@link WindowStatsFunction}). The estimates are exactly those of the
 * {@code estimate} command ({@link FieldEstimator}, {@link EstimateJson}) for the window's values.
 */
class WindowStatsTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final long T0 = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
  static final long SECOND = 1_000;
  static final int BINS = 8;
  static final PrivacyConfig CONFIG = PrivacyConfig.parse("""
      fields:
        - {name: x, min: 0, max: 1, epsilon: 1}
        - {name: att.roll, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: 2}
        - {name: z, min: -1, max: 1, epsilon: 1, mechanism: b-laplace}
      """);

  /** A value of {@code field}, the k-th of n spread over its mechanism's output domain. */
  static FieldValue value(String group, String field, int k, int n, long time) {
    Mechanism m = mechanism(field);
    double lo = Math.max(m.outputLo(), m.domain().lo() - 1);
    double hi = Math.min(m.outputHi(), m.domain().hi() + 1);
    return new FieldValue(group, field, lo + (hi - lo) * (k + 0.5) / n, time);
  }

  static Mechanism mechanism(String field) {
    return MechanismCatalog.of(CONFIG.field(field).orElseThrow().spec());
  }

  /** Runs values through the window operator, then a watermark past every window; the stats in order. */
  static List<JsonNode> stats(WindowAssigner<Object, TimeWindow> windows, boolean reconstruct, List<FieldValue> values)
      throws Exception {
    OneInputStreamOperator<FieldValue, String> operator = new WindowOperatorBuilder<>(windows, EventTimeTrigger.create(),
        new ExecutionConfig(), TypeInformation.of(FieldValue.class), FieldValue::key, Types.STRING)
        .aggregate(new FieldAggregate(CONFIG, BINS), new WindowStatsFunction(CONFIG, BINS, reconstruct),
            TypeInformation.of(FieldAccumulator.class));
    List<JsonNode> out = new ArrayList<>();
    try (var h = new KeyedOneInputStreamOperatorTestHarness<>(operator, FieldValue::key, Types.STRING)) {
      h.open();
      for (FieldValue v : values) {
        h.processElement(v, v.getEventTime());
      }
      h.processWatermark(Long.MAX_VALUE - 1);
      for (String s : h.extractOutputValues()) {
        out.add(JSON.readTree(s));
      }
    }
    return out;
  }

  static List<JsonNode> tumbling(boolean reconstruct, List<FieldValue> values) throws Exception {
    return stats(TumblingEventTimeWindows.of(Duration.ofSeconds(10)), reconstruct, values);
  }

  /** What the estimate command computes from these values of one field, as JSON text reads back. */
  static JsonNode expected(String field, List<FieldValue> values, boolean reconstruct) throws Exception {
    FieldEstimator estimator = FieldEstimator.of(mechanism(field), BINS);
    FieldAccumulator acc = estimator.newAccumulator();
    for (FieldValue v : values) {
      acc.add(v.getValue(), estimator.binning());
    }
    return JSON.readTree(JSON.writeValueAsString(EstimateJson.render(estimator.estimate(acc, reconstruct), reconstruct)));
  }

  /** The stats of a window without what says which window, group and field it is. */
  static JsonNode estimateOf(JsonNode stats) {
    ObjectNode o = stats.deepCopy();
    o.remove(List.of("windowStart", "windowEnd", "group", "field", "bins"));
    return o;
  }

  static String window(JsonNode stats) {
    return stats.get("windowStart").asText() + "/" + stats.get("windowEnd").asText() + " "
        + stats.get("group").asText("-") + " " + stats.get("field").asText();
  }

  @Test
  void oneStatsObjectPerWindowGroupAndFieldHoldingTheEstimateOfItsValues() throws Exception {
    List<FieldValue> values = new ArrayList<>();
    Map<String, List<FieldValue>> byWindow = new LinkedHashMap<>();
    for (int i = 0; i < 60; i++) {
      // Two windows of 10 s; two groups, the second only in the first window; two fields.
      long time = T0 + (i % 20) * SECOND;
      String group = i % 3 == 0 && time < T0 + 10 * SECOND ? "sitting" : "walking";
      for (String field : List.of("x", "att.roll")) {
        FieldValue v = value(group, field, i, 60, time);
        values.add(v);
        String start = Instant.ofEpochMilli(time - (time - T0) % (10 * SECOND)).toString();
        String end = Instant.ofEpochMilli(Instant.parse(start).toEpochMilli() + 10 * SECOND).toString();
        byWindow.computeIfAbsent(start + "/" + end + " " + group + " " + field, k -> new ArrayList<>()).add(v);
      }
    }
    List<JsonNode> stats = tumbling(true, values);
    assertThat(stats).extracting(WindowStatsTest::window).containsExactlyInAnyOrderElementsOf(byWindow.keySet());
    assertThat(byWindow).hasSize(6);
    for (JsonNode s : stats) {
      List<FieldValue> in = byWindow.get(window(s));
      assertThat(s.get("bins").asInt()).isEqualTo(BINS);
      assertThat(s.get("count").asLong()).isEqualTo(in.size());
      assertThat(s.get("method").asText()).isEqualTo("em");
      assertThat(s.get("histogram")).hasSize(BINS);
      assertThat(estimateOf(s)).as(window(s)).isEqualTo(expected(s.get("field").asText(), in, true));
    }
    assertThat(stats).extracting(s -> s.get("windowStart").asText()).contains("2026-01-01T00:00:00Z",
        "2026-01-01T00:00:10Z");
  }

  @Test
  void withoutGroupingTheGroupIsNull() throws Exception {
    List<FieldValue> values = List.of(value(null, "x", 0, 2, T0 + 1), value(null, "x", 1, 2, T0 + 2));
    List<JsonNode> stats = tumbling(false, values);
    assertThat(stats).hasSize(1);
    JsonNode s = stats.get(0);
    assertThat(s.get("group").isNull()).isTrue();
    assertThat(s.get("field").asText()).isEqualTo("x");
    assertThat(s.get("windowStart").asText()).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(s.get("windowEnd").asText()).isEqualTo("2026-01-01T00:00:10Z");
    assertThat(s.get("method").asText()).isEqualTo("raw");
    assertThat(estimateOf(s)).isEqualTo(expected("x", values, false));
  }

  /** Reconstruction is asked for but the mechanism has no piecewise output density: the raw estimate. */
  @Test
  void aMechanismThatCannotBeReconstructedGivesTheRawEstimate() throws Exception {
    List<FieldValue> values = new ArrayList<>();
    for (int k = 0; k < 20; k++) {
      values.add(value("g", "z", k, 20, T0 + k));
    }
    List<JsonNode> stats = tumbling(true, values);
    assertThat(stats).hasSize(1);
    assertThat(stats.get(0).get("method").asText()).isEqualTo("raw");
    assertThat(stats.get(0).get("histograms").has("reconstructed")).isFalse();
    assertThat(estimateOf(stats.get(0))).isEqualTo(expected("z", values, true));
  }

  /**
   * Partial aggregates merge into the aggregate of all their values (session windows merge theirs
   * when a value bridges two sessions).
   */
  @Test
  void mergedSessionsHoldTheValuesOfBoth() throws Exception {
    List<FieldValue> values = List.of(value("g", "x", 0, 4, T0), value("g", "x", 1, 4, T0 + 1_000),
        value("g", "x", 2, 4, T0 + 20_000), value("g", "x", 3, 4, T0 + 10_000));
    List<JsonNode> stats = stats(EventTimeSessionWindows.withGap(Duration.ofSeconds(12)), false, values);
    assertThat(stats).hasSize(1);
    JsonNode s = stats.get(0);
    assertThat(s.get("windowStart").asText()).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(s.get("windowEnd").asText()).isEqualTo("2026-01-01T00:00:32Z");
    JsonNode all = expected("x", values, false);
    assertThat(s.get("count")).isEqualTo(all.get("count"));
    assertThat(s.get("histogram")).isEqualTo(all.get("histogram"));
    assertThat(s.get("mean").asDouble()).isCloseTo(all.get("mean").asDouble(), org.assertj.core.data.Offset.offset(1e-15));
  }

  /** What travels between the operators and sits in window state is serialised by Flink, never Kryo. */
  @ParameterizedTest
  @ValueSource(classes = {TimedValue.class, FieldValue.class, FieldAccumulator.class})
  void theAggregationsTypesAreFlinkPojos(Class<?> type) {
    PerturbFunctionTest.assertFlinkPojo(type);
  }

  @Test
  void flinkInfersTheAccumulatorAsAPojo() {
    assertThat(TypeExtractor.getAggregateFunctionAccumulatorType(new FieldAggregate(CONFIG, BINS),
        TypeInformation.of(FieldValue.class), null, false)).isInstanceOf(PojoTypeInfo.class)
        .isEqualTo(TypeInformation.of(FieldAccumulator.class));
  }
}
