package io.ogpm.flink.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.flink.CapturedMetrics;
import io.ogpm.flink.EstimationMethod;
import io.ogpm.flink.WindowEstimate;
import io.ogpm.mechanism.random.AesCtrSource;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

/**
 * The second stage, in Flink's keyed operator test harness: partial accumulators merged per field
 * and group, each window estimated from all its records when the watermark passes its end, late
 * records within the allowed lateness emitted at most once per late-update interval and once more
 * at the end of the lateness if they changed the window since, the window's state gone then, and
 * records too late for all their windows dropped and counted.
 */
class WindowEstimateOperatorTest {
  /** Tumbling windows of 10 s, 5 s of lateness, late updates at most once a second. */
  static final Windowing TUMBLING = new Windowing(10_000, 10_000, 5_000, 1_000);

  final CapturedMetrics metrics = new CapturedMetrics();
  final AesCtrSource bits = AesCtrSource.seeded(3);

  /** Every value sent per window start, field and group, for the expected estimates. */
  final java.util.Map<String, List<Double>> sent = new java.util.HashMap<>();

  /** A partial of n values of a field in a pane, counting for {@code records} records. */
  PartialAggregate partial(
      int field, String group, long pane, int n, long records, long windowSize) {
    FieldEstimator e = Aggregations.ESTIMATORS[field];
    FieldAccumulator acc = e.newAccumulator(Aggregations.CONFIG.fields().get(field).name());
    for (int i = 0; i < n; i++) {
      double v = Aggregations.value(field, bits);
      acc.add(v, e.binning());
      sent.computeIfAbsent(pane + "/" + field + "/" + group, k -> new ArrayList<>()).add(v);
    }
    return new PartialAggregate(field, group, pane, records, acc);
  }

  PartialAggregate partial(int field, String group, long pane, int n) {
    return partial(field, group, pane, n, n, 0);
  }

  /** The values sent for the panes of a window. */
  List<Double> values(Windowing w, long start, int field, String group) {
    List<Double> out = new ArrayList<>();
    for (long p = start; p < start + w.size; p += w.pane) {
      out.addAll(sent.getOrDefault(p + "/" + field + "/" + group, List.of()));
    }
    return out;
  }

  static List<WindowEstimate> take(
      KeyedOneInputStreamOperatorTestHarness<String, PartialAggregate, WindowEstimate> h) {
    List<WindowEstimate> out = new ArrayList<>(h.extractOutputValues());
    h.getOutput().clear();
    return out;
  }

  long counter(String name) {
    return ((Counter) metrics.operator.get(name)).getCount();
  }

  @Test
  void eachWindowIsEstimatedFromAllItsRecordsWhenTheWatermarkPassesItsEnd() throws Exception {
    try (var h = Aggregations.stage2(TUMBLING, true, metrics.environment)) {
      // Two subtasks' partials of one pane, and another group and field.
      h.processElement(partial(0, "a", 0, 300), 1);
      h.processElement(partial(0, "a", 0, 200), 1);
      h.processElement(partial(1, "a", 0, 100, 0, 0), 1);
      h.processElement(partial(0, null, 0, 50), 1);
      h.processElement(partial(0, "a", 10_000, 40), 1);
      h.processWatermark(9_998);
      assertThat(h.getOutput())
          .containsExactly(new org.apache.flink.streaming.api.watermark.Watermark(9_998));
      h.getOutput().clear();
      h.processWatermark(9_999);
      List<StreamRecord<? extends WindowEstimate>> out = h.extractOutputStreamRecords();
      assertThat(out).extracting(StreamRecord::getTimestamp).containsOnly(9_999L);
      assertThat(out.stream().map(r -> (WindowEstimate) r.getValue()).toList())
          .containsExactlyInAnyOrder(
              Aggregations.expected(0, 10_000, 0, "a", values(TUMBLING, 0, 0, "a"), true),
              Aggregations.expected(0, 10_000, 1, "a", values(TUMBLING, 0, 1, "a"), true),
              Aggregations.expected(0, 10_000, 0, null, values(TUMBLING, 0, 0, null), true));
      assertThat(out)
          .extracting(r -> r.getValue().getCount())
          .containsExactlyInAnyOrder(500L, 100L, 50L);
      h.getOutput().clear();
      h.processWatermark(19_999);
      assertThat(take(h))
          .extracting(
              WindowEstimate::getWindowStart, WindowEstimate::getCount, WindowEstimate::getMethod)
          .containsExactly(tuple(10_000L, 40L, EstimationMethod.EM));
    }
    assertThat(counter("windowEstimates")).isEqualTo(4);
    assertThat(counter("lateUpdates")).isZero();
  }

  @Test
  void lateRecordsUpdateTheirWindowAtMostOncePerIntervalAndOnceMoreAtTheEndOfTheLateness()
      throws Exception {
    try (var h = Aggregations.stage2(TUMBLING, true, metrics.environment)) {
      long now = 1_000_000;
      h.setProcessingTime(now);
      h.processElement(partial(0, "a", 0, 100), 1);
      h.processWatermark(9_999);
      assertThat(take(h)).extracting(WindowEstimate::getCount).containsExactly(100L);
      // Three late partials within a second: one update, a second after the first, of all 130
      // values.
      h.processElement(partial(0, "a", 0, 10), 1);
      h.setProcessingTime(now + 400);
      h.processElement(partial(0, "a", 0, 10), 1);
      h.processElement(partial(0, "a", 0, 10), 1);
      h.setProcessingTime(now + 999);
      assertThat(take(h)).isEmpty();
      h.setProcessingTime(now + 1_000);
      assertThat(take(h))
          .containsExactly(
              Aggregations.expected(0, 10_000, 0, "a", values(TUMBLING, 0, 0, "a"), true))
          .extracting(WindowEstimate::getCount)
          .containsExactly(130L);
      assertThat(h.numProcessingTimeTimers()).isZero();
      // Another late partial; the lateness ends before its update is due: emitted then, and the
      // window's state and timers are gone.
      h.setProcessingTime(now + 1_200);
      h.processElement(partial(0, "a", 0, 5), 1);
      assertThat(h.numProcessingTimeTimers()).isEqualTo(1);
      h.processWatermark(14_998);
      assertThat(take(h)).isEmpty();
      h.processWatermark(14_999);
      assertThat(take(h)).extracting(WindowEstimate::getCount).containsExactly(135L);
      assertThat(h.numKeyedStateEntries()).isZero();
      assertThat(h.numEventTimeTimers()).isZero();
      assertThat(h.numProcessingTimeTimers()).isZero();
      h.setProcessingTime(now + 5_000);
      assertThat(take(h)).isEmpty();
      // Now too late: dropped and counted by the records it stands for.
      h.processElement(partial(0, "a", 0, 7, 6, 0), 1);
      h.processElement(partial(1, "a", 0, 7, 1, 0), 1);
      h.processWatermark(30_000);
      h.setProcessingTime(now + 10_000);
      assertThat(take(h)).isEmpty();
      assertThat(h.numKeyedStateEntries()).isZero();
    }
    assertThat(counter("lateRecords")).isEqualTo(7);
    assertThat(counter("windowEstimates")).isEqualTo(3);
    assertThat(counter("lateUpdates")).isEqualTo(2);
  }

  @Test
  void aWindowUnchangedSinceItsLastEmissionIsNotEmittedAgainAtTheEndOfTheLateness()
      throws Exception {
    try (var h = Aggregations.stage2(TUMBLING, false, metrics.environment)) {
      h.setProcessingTime(0);
      h.processElement(partial(0, "a", 0, 20), 1);
      h.processWatermark(10_000);
      h.processElement(partial(0, "a", 0, 20), 1);
      h.setProcessingTime(1_000);
      assertThat(take(h))
          .extracting(WindowEstimate::getCount, WindowEstimate::getMethod)
          .containsExactly(tuple(20L, EstimationMethod.RAW), tuple(40L, EstimationMethod.RAW));
      h.processWatermark(20_000);
      assertThat(take(h)).isEmpty();
      assertThat(h.numKeyedStateEntries()).isZero();
    }
  }

  @Test
  void theChangedWindowsOfAKeyShareOneUpdateInWindowOrder() throws Exception {
    Windowing sliding = new Windowing(10_000, 5_000, 30_000, 1_000);
    try (var h = Aggregations.stage2(sliding, false, metrics.environment)) {
      h.setProcessingTime(0);
      h.processElement(partial(0, "a", 5_000, 10), 1);
      h.processElement(partial(0, "a", 15_000, 10), 1);
      h.processWatermark(30_000);
      assertThat(take(h))
          .extracting(WindowEstimate::getWindowStart, WindowEstimate::getCount)
          .containsExactly(
              tuple(0L, 10L), tuple(5_000L, 10L), tuple(10_000L, 10L), tuple(15_000L, 10L));
      // A late pane at 5 s is in the windows from 0 s and 5 s, one at 15 s in those from 10 s and
      // 15 s.
      h.processElement(partial(0, "a", 15_000, 1), 1);
      h.processElement(partial(0, "a", 5_000, 2), 1);
      assertThat(h.numProcessingTimeTimers()).isEqualTo(1);
      h.setProcessingTime(1_000);
      assertThat(take(h))
          .extracting(WindowEstimate::getWindowStart, WindowEstimate::getCount)
          .containsExactly(
              tuple(0L, 12L), tuple(5_000L, 12L), tuple(10_000L, 11L), tuple(15_000L, 11L));
      h.processWatermark(Long.MAX_VALUE);
      assertThat(take(h)).isEmpty();
      assertThat(h.numKeyedStateEntries()).isZero();
    }
    assertThat(counter("windowEstimates")).isEqualTo(8);
    assertThat(counter("lateUpdates")).isEqualTo(4);
  }

  /**
   * Flink's rule: a record too late for some of its sliding windows is dropped from those alone.
   */
  @Test
  void aPaneLateForSomeOfItsWindowsGoesIntoTheOthersOnly() throws Exception {
    Windowing sliding = new Windowing(10_000, 5_000, 2_000, 1_000);
    try (var h = Aggregations.stage2(sliding, false, metrics.environment)) {
      h.setProcessingTime(0);
      h.processElement(partial(0, null, 5_000, 10), 1);
      // The window from 0 s ends at 10 s, its lateness at 12 s; the one from 5 s at 15 s and 17 s.
      h.processWatermark(12_000);
      assertThat(take(h))
          .extracting(WindowEstimate::getWindowStart, WindowEstimate::getCount)
          .containsExactly(tuple(0L, 10L));
      h.processElement(partial(0, null, 5_000, 3), 1);
      h.processWatermark(16_999);
      assertThat(take(h))
          .extracting(WindowEstimate::getWindowStart, WindowEstimate::getCount)
          .containsExactly(tuple(5_000L, 13L));
      h.processWatermark(17_000);
      assertThat(take(h)).isEmpty();
      assertThat(counter("lateRecords")).isZero();
      assertThat(h.numKeyedStateEntries()).isZero();
    }
  }

  @Test
  void aWindowWhoseFirstRecordsComeAfterItsEndIsEmittedAsALateUpdate() throws Exception {
    try (var h = Aggregations.stage2(TUMBLING, false, metrics.environment)) {
      h.setProcessingTime(0);
      h.processWatermark(12_000);
      h.processElement(partial(0, "b", 0, 9), 1);
      assertThat(take(h)).isEmpty();
      h.setProcessingTime(1_000);
      assertThat(take(h))
          .extracting(WindowEstimate::getCount, WindowEstimate::getGroup)
          .containsExactly(tuple(9L, "b"));
    }
    assertThat(counter("lateUpdates")).isEqualTo(1);
  }

  @Test
  void withoutLatenessAWindowIsEmittedOnceAndLaterRecordsAreCounted() throws Exception {
    Windowing strict = new Windowing(10_000, 10_000, 0, 0);
    try (var h = Aggregations.stage2(strict, false, metrics.environment)) {
      h.processElement(partial(1, "a", 0, 9), 1);
      h.processWatermark(9_999);
      assertThat(take(h))
          .extracting(WindowEstimate::getCount, WindowEstimate::isCircular)
          .containsExactly(tuple(9L, true));
      assertThat(h.numKeyedStateEntries()).isZero();
      h.processElement(partial(1, "a", 0, 4), 1);
      h.setProcessingTime(1_000_000);
      assertThat(take(h)).isEmpty();
    }
    assertThat(counter("lateRecords")).isEqualTo(4);
  }

  @Test
  void aZeroIntervalUpdatesAtTheNextProcessingTimeTick() throws Exception {
    Windowing eager = new Windowing(10_000, 10_000, 5_000, 0);
    try (var h = Aggregations.stage2(eager, false, metrics.environment)) {
      h.setProcessingTime(50);
      h.processElement(partial(0, "a", 0, 5), 1);
      h.processWatermark(9_999);
      take(h);
      h.processElement(partial(0, "a", 0, 5), 1);
      h.setProcessingTime(50);
      assertThat(take(h)).extracting(WindowEstimate::getCount).containsExactly(10L);
    }
  }

  @Test
  void windowsAndTheirPendingUpdatesSurviveARestore() throws Exception {
    OperatorSubtaskState snapshot;
    List<Double> values;
    try (var h = Aggregations.stage2(TUMBLING, true, null)) {
      h.setProcessingTime(0);
      h.processElement(partial(0, "a", 0, 30), 1);
      h.processWatermark(9_999);
      take(h);
      h.processElement(partial(0, "a", 0, 3), 1);
      h.processElement(partial(0, "a", 10_000, 8), 1);
      snapshot = h.snapshot(1, 1);
      values = values(TUMBLING, 0, 0, "a");
    }
    WindowEstimateOperator op =
        new WindowEstimateOperator(Aggregations.CONFIG, Aggregations.BINS, TUMBLING, true);
    try (var h =
        new KeyedOneInputStreamOperatorTestHarness<>(
            op, new FieldAndGroup(), org.apache.flink.api.common.typeinfo.Types.STRING)) {
      h.setup();
      h.initializeState(snapshot);
      h.open();
      h.setProcessingTime(1_000);
      assertThat(take(h)).containsExactly(Aggregations.expected(0, 10_000, 0, "a", values, true));
      h.processWatermark(19_999);
      assertThat(take(h))
          .extracting(WindowEstimate::getWindowStart, WindowEstimate::getCount)
          .containsExactly(tuple(10_000L, 8L));
    }
  }

  /**
   * On the heap, every pane of a field shares the field's name and binning id: none keeps the
   * strings its partial brought over the network (each partial deserialized has its own).
   */
  @Test
  void panesShareTheirFieldsStringsInsteadOfKeepingTheirPartials() throws Exception {
    TypeSerializer<PartialAggregate> serializer =
        TypeInformation.of(PartialAggregate.class).createSerializer(new SerializerConfigImpl());
    List<PartialAggregate> received = new ArrayList<>();
    try (var h = Aggregations.stage2(TUMBLING, true, null)) {
      for (long pane : new long[] {0, 10_000}) {
        PartialAggregate p =
            InstantiationUtil.deserializeFromByteArray(
                serializer,
                InstantiationUtil.serializeToByteArray(serializer, partial(0, "a", pane, 5)));
        received.add(p);
        h.processElement(p, 1);
      }
      KeyedStateBackend<String> backend = h.getOperator().getKeyedStateBackend();
      backend.setCurrentKey(PartialAggregate.key(0, "a"));
      MapState<Long, FieldAccumulator> panes =
          backend.getPartitionedState(
              VoidNamespace.INSTANCE,
              VoidNamespaceSerializer.INSTANCE,
              new MapStateDescriptor<>(
                  "panes", Types.LONG, TypeInformation.of(FieldAccumulator.class)));
      FieldAccumulator first = panes.get(0L);
      FieldAccumulator second = panes.get(10_000L);
      assertThat(first).isEqualTo(received.get(0).getAccumulator());
      assertThat(second).isEqualTo(received.get(1).getAccumulator());
      assertThat(second.getBinning())
          .isSameAs(first.getBinning())
          .isNotSameAs(received.get(1).getAccumulator().getBinning());
      assertThat(second.getField())
          .isSameAs(first.getField())
          .isNotSameAs(received.get(1).getAccumulator().getField());
    }
  }

  @Test
  void keysTellFieldsAndGroupsApartTheNullGroupFromTheEmptyOne() {
    assertThat(PartialAggregate.key(0, null)).isEqualTo("0");
    assertThat(PartialAggregate.key(0, "")).isEqualTo("0=");
    assertThat(PartialAggregate.key(12, "a=b")).isEqualTo("12=a=b");
    assertThat(PartialAggregate.fieldOf("12=a=b")).isEqualTo(12);
    assertThat(PartialAggregate.groupOf("12=a=b")).isEqualTo("a=b");
    assertThat(PartialAggregate.groupOf("0=")).isEmpty();
    assertThat(PartialAggregate.groupOf("3")).isNull();
    assertThat(PartialAggregate.fieldOf("3")).isEqualTo(3);
  }

  /**
   * Each window states what it promises a person: 3 records of 3 each per 10 s window of the
   * broker's clock, so 9 in an aligned 10 s window; nothing without a bound.
   */
  @Test
  void eachWindowCarriesThePerUserBoundThatHeldForIt() throws Exception {
    io.ogpm.config.PrivacyConfig config =
        io.ogpm.config.PrivacyConfig.parse(
            """
            user-field: user
            passthrough: [activity]
            fields:
              - {name: x, min: 0, max: 1, epsilon: 1}
              - {name: att.roll, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: 2}
            contribution: {records: 3, window: 10s}
            """);
    WindowEstimateOperator op =
        new WindowEstimateOperator(config, Aggregations.BINS, TUMBLING, true);
    try (var h =
        new KeyedOneInputStreamOperatorTestHarness<>(op, new FieldAndGroup(), Types.STRING)) {
      h.open();
      h.processElement(partial(0, "a", 0, 50), 1);
      h.processElement(partial(1, "a", 0, 50), 1);
      h.processWatermark(9_999);
      assertThat(take(h))
          .hasSize(2)
          .extracting(WindowEstimate::getUserEpsilonBound)
          .containsOnly(9.0);
    }
    try (var h = Aggregations.stage2(TUMBLING, true, null)) {
      h.processElement(partial(0, "a", 0, 50), 1);
      h.processWatermark(9_999);
      assertThat(take(h))
          .singleElement()
          .satisfies(w -> assertThat(w.getUserEpsilonBound()).isInfinite());
    }
  }

  /**
   * Each estimate reports the operator's quantiles and its field's own exceedance thresholds, as
   * the field's estimator with that query gives them.
   */
  @Test
  void estimatesReportTheAggregationsQuantilesAndTheFieldsExceedances() throws Exception {
    io.ogpm.config.PrivacyConfig config =
        io.ogpm.config.PrivacyConfig.parse(
            """
            passthrough: [activity]
            fields:
              - {name: x, min: 0, max: 1, epsilon: 1, exceedances: [0.25, 0.75]}
              - {name: att.roll, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: 2}
            """);
    double[] quantiles = {0.25, 0.75};
    WindowEstimateOperator op =
        new WindowEstimateOperator(config, Aggregations.BINS, quantiles, TUMBLING, true);
    try (var h =
        new KeyedOneInputStreamOperatorTestHarness<>(op, new FieldAndGroup(), Types.STRING)) {
      h.open();
      h.processElement(partial(0, "a", 0, 400), 1);
      h.processElement(partial(1, "a", 0, 400), 1);
      h.processWatermark(9_999);
      List<WindowEstimate> out = take(h);
      assertThat(out).hasSize(2);
      for (WindowEstimate w : out) {
        int field = w.getField().equals("x") ? 0 : 1;
        FieldEstimator e =
            FieldEstimator.of(
                Aggregations.MECHANISMS[field],
                Aggregations.BINS,
                io.ogpm.estimate.DistributionQuery.of(
                    quantiles, config.fields().get(field).exceedances()));
        FieldAccumulator acc = e.newAccumulator(w.getField());
        for (double v : values(TUMBLING, 0, field, "a")) {
          acc.add(v, e.binning());
        }
        assertThat(w.getDistribution().getQuantileProbabilities()).containsExactly(0.25, 0.75);
        assertThat(w.getDistribution().getExceedanceThresholds())
            .containsExactly(field == 0 ? new double[] {0.25, 0.75} : new double[0]);
        assertThat(w)
            .isEqualTo(
                WindowEstimates.of(
                    0, 10_000, w.getField(), "a", Aggregations.BINS, e.estimate(acc, true), true));
      }
    }
  }
}
