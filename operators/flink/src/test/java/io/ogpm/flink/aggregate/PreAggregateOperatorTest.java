package io.ogpm.flink.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldBinning;
import io.ogpm.flink.CapturedMetrics;
import io.ogpm.flink.LdpAggregation;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.mechanism.random.AesCtrSource;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The first stage, in Flink's operator test harness: each record's values go once into the partial
 * accumulator of their pane, field and group; a pane's partials go on before the watermark that
 * ends its first window and, once one has ended, before every watermark and every second of
 * processing time; every partial before every checkpoint barrier, at the end of input and when too
 * many are held; each record counts in the partial of its first field with a value.
 */
class PreAggregateOperatorTest {
  /** Windows of 10 s sliding by 4 s: panes of 2 s. */
  static final Windowing SLIDING = new Windowing(10_000, 4_000, 0, 0);

  /** A watermark past every window of these tests' records: their panes go on. */
  static final Watermark PAST = new Watermark(100_000);

  final CapturedMetrics metrics = new CapturedMetrics();

  static List<PartialAggregate> partials(
      OneInputStreamOperatorTestHarness<PerturbedValues, PartialAggregate> h) {
    List<PartialAggregate> out = new ArrayList<>(h.extractOutputValues());
    h.getOutput().clear();
    out.sort(
        (a, b) ->
            a.getPane() != b.getPane()
                ? Long.compare(a.getPane(), b.getPane())
                : a.getField() != b.getField()
                    ? Integer.compare(a.getField(), b.getField())
                    : String.valueOf(a.getGroup()).compareTo(String.valueOf(b.getGroup())));
    return out;
  }

  long counter(String name) {
    return ((Counter) metrics.operator.get(name)).getCount();
  }

  @Test
  void valuesGoOnceIntoThePartialOfTheirPaneFieldAndGroupAndOnBeforeTheWatermark()
      throws Exception {
    AesCtrSource bits = AesCtrSource.seeded(1);
    List<PerturbedValues> records = new ArrayList<>();
    try (var h = Aggregations.stage1(SLIDING, metrics.environment)) {
      for (int i = 0; i < 40; i++) {
        // Times 0 to 3.9 s: panes [0, 2 s) and [2 s, 4 s); groups a and b.
        PerturbedValues r = Aggregations.record(i % 2 == 0 ? "a" : "b", i * 100, bits);
        records.add(r);
        h.processElement(r, r.getEventTime());
      }
      assertThat(h.getOutput()).as("nothing before the watermark").isEmpty();
      // Pane [0, 2 s) is in windows [-8 s, 2 s), [-4 s, 6 s) and [0, 10 s); pane [2 s, 4 s) in the
      // last two and [4 s, 14 s). Before a watermark reaches 1,999 ms no window of either can fire.
      h.processWatermark(new Watermark(1_998));
      assertThat(h.getOutput()).as("open panes are held").containsExactly(new Watermark(1_998));
      h.getOutput().clear();
      h.processWatermark(new Watermark(1_999));
      List<Object> out = new ArrayList<>(h.getOutput());
      assertThat(out).hasSize(2 * 2 + 1);
      assertThat(out.get(out.size() - 1))
          .as("the watermark after the partials")
          .isEqualTo(new Watermark(1_999));
      List<PartialAggregate> p = new ArrayList<>(partials(h));
      h.processWatermark(new Watermark(5_998));
      assertThat(h.getOutput()).containsExactly(new Watermark(5_998));
      h.getOutput().clear();
      h.processWatermark(new Watermark(5_999));
      p.addAll(partials(h));
      assertThat(p)
          .extracting(
              PartialAggregate::getPane,
              PartialAggregate::getField,
              PartialAggregate::getGroup,
              PartialAggregate::getRecords)
          .containsExactly(
              tuple(0L, 0, "a", 10L),
              tuple(0L, 0, "b", 10L),
              tuple(0L, 1, "a", 0L),
              tuple(0L, 1, "b", 0L),
              tuple(2_000L, 0, "a", 10L),
              tuple(2_000L, 0, "b", 10L),
              tuple(2_000L, 1, "a", 0L),
              tuple(2_000L, 1, "b", 0L));
      for (PartialAggregate partial : p) {
        FieldAccumulator expected =
            Aggregations.ESTIMATORS[partial.getField()].newAccumulator(
                Aggregations.CONFIG.fields().get(partial.getField()).name());
        for (PerturbedValues r : records) {
          if (r.getGroup().equals(partial.getGroup())
              && SLIDING.paneOf(r.getEventTime()) == partial.getPane()) {
            expected.add(
                r.getValues()[partial.getField()],
                Aggregations.ESTIMATORS[partial.getField()].binning());
          }
        }
        assertThat(partial.getAccumulator()).isEqualTo(expected);
        assertThat(partial.getAccumulator().getCount()).isEqualTo(10);
      }
      // Flushed: the next watermark sends nothing but itself.
      h.processWatermark(new Watermark(6_000));
      assertThat(h.getOutput()).containsExactly(new Watermark(6_000));
      h.getOutput().clear();
      // A late record of a pane whose first window has ended goes on at the next watermark.
      PerturbedValues late = Aggregations.record("a", 100, bits);
      h.processElement(late, late.getEventTime());
      h.processWatermark(new Watermark(6_001));
      assertThat(partials(h))
          .extracting(
              PartialAggregate::getPane, PartialAggregate::getField, PartialAggregate::getRecords)
          .containsExactly(tuple(0L, 0, 1L), tuple(0L, 1, 0L));
    }
    assertThat(counter("recordsPreAggregated")).isEqualTo(41);
    assertThat(counter("partialAggregates")).isEqualTo(10);
  }

  @Test
  void partialsAreStampedWithTheirPanesLastMillisecond() throws Exception {
    try (var h = Aggregations.stage1(SLIDING, null)) {
      h.processElement(new PerturbedValues(new double[] {0.5, Double.NaN}, null, 5_500), 5_500);
      h.processWatermark(PAST);
      assertThat(h.extractOutputStreamRecords())
          .extracting(StreamRecord::getTimestamp)
          .containsExactly(5_999L);
    }
  }

  @Test
  void aRecordCountsInThePartialOfItsFirstFieldWithAValue() throws Exception {
    try (var h = Aggregations.stage1(SLIDING, null)) {
      h.processElement(new PerturbedValues(new double[] {Double.NaN, 1.0}, null, 1), 1);
      h.processElement(new PerturbedValues(new double[] {0.5, 1.0}, null, 2), 2);
      h.processElement(new PerturbedValues(new double[] {0.5, Double.NaN}, null, 3), 3);
      h.processWatermark(PAST);
      assertThat(partials(h))
          .extracting(
              PartialAggregate::getField,
              PartialAggregate::getRecords,
              p -> p.getAccumulator().getCount())
          .containsExactly(tuple(0, 2L, 2L), tuple(1, 1L, 2L));
    }
  }

  @Test
  void partialsGoOnBeforeACheckpointBarrierSoTheStageHoldsNoState() throws Exception {
    try (var h = Aggregations.stage1(SLIDING, null)) {
      h.processElement(new PerturbedValues(new double[] {0.5, 1.0}, "g", 1), 1);
      h.prepareSnapshotPreBarrier(1);
      assertThat(partials(h)).hasSize(2);
      var snapshot = h.snapshot(1, 1);
      assertThat(snapshot.getManagedOperatorState()).isEmpty();
      assertThat(snapshot.getManagedKeyedState()).isEmpty();
    }
  }

  /**
   * Late records (of a pane whose first window has ended) go on every second while the watermark
   * stands still; an open pane waits for its window.
   */
  @Test
  void latePartialsGoOnEverySecondOfProcessingTimeAndAllAtTheEndOfInput() throws Exception {
    try (var h = Aggregations.stage1(SLIDING, null)) {
      long now = h.getProcessingTime();
      h.processWatermark(new Watermark(1_999));
      h.getOutput().clear();
      h.processElement(new PerturbedValues(new double[] {0.5, 1.0}, "g", 1), 1);
      h.processElement(new PerturbedValues(new double[] {0.5, 1.0}, "g", 2_500), 2_500);
      h.setProcessingTime(now + PreAggregateOperator.FLUSH_INTERVAL_MS - 1);
      assertThat(h.getOutput()).isEmpty();
      h.setProcessingTime(now + PreAggregateOperator.FLUSH_INTERVAL_MS);
      assertThat(partials(h)).extracting(PartialAggregate::getPane).containsExactly(0L, 0L);
      // And again a second later: the timer is set again.
      h.processElement(new PerturbedValues(new double[] {0.5, 1.0}, "g", 1), 1);
      h.setProcessingTime(now + 2 * PreAggregateOperator.FLUSH_INTERVAL_MS);
      assertThat(partials(h)).extracting(PartialAggregate::getPane).containsExactly(0L, 0L);
      h.processElement(new PerturbedValues(new double[] {0.5, Double.NaN}, "g", 1), 1);
      h.endInput();
      h.getOneInputOperator().finish();
      assertThat(partials(h))
          .extracting(PartialAggregate::getPane)
          .containsExactly(0L, 2_000L, 2_000L);
    }
  }

  @Test
  void theFirstWindowOfAPaneEndsAtTheLeastSlideAboveItsStartLessTheSize() {
    assertThat(SLIDING.firstWindowEnd(0)).isEqualTo(2_000);
    assertThat(SLIDING.firstWindowEnd(2_000)).isEqualTo(6_000);
    assertThat(SLIDING.firstWindowEnd(4_000)).isEqualTo(6_000);
    assertThat(SLIDING.firstWindowEnd(-2_000)).isEqualTo(2_000);
    Windowing tumbling = new Windowing(10_000, 10_000, 0, 0);
    assertThat(tumbling.firstWindowEnd(-10_000)).isEqualTo(0);
    assertThat(tumbling.firstWindowEnd(20_000)).isEqualTo(30_000);
  }

  @Test
  void tooManySlotsAreSentOnAtOnce() throws Exception {
    try (var h = Aggregations.stage1(SLIDING, null)) {
      for (int g = 0; g <= PreAggregateOperator.MAX_SLOTS; g++) {
        h.processElement(new PerturbedValues(new double[] {0.5, Double.NaN}, "g" + g, 1), 1);
      }
      assertThat(h.getOutput()).hasSize(PreAggregateOperator.MAX_SLOTS + 1);
      h.getOutput().clear();
      // The null group is a group of its own, apart from the empty one.
      h.processElement(new PerturbedValues(new double[] {0.5, Double.NaN}, null, 1), 1);
      h.processElement(new PerturbedValues(new double[] {0.5, Double.NaN}, "", 1), 1);
      h.processElement(new PerturbedValues(new double[] {0.5, Double.NaN}, null, 2), 2);
      h.processWatermark(PAST);
      assertThat(partials(h))
          .extracting(PartialAggregate::getGroup, PartialAggregate::getRecords)
          .containsExactlyInAnyOrder(tuple(null, 2L), tuple("", 1L));
    }
  }

  /**
   * The accumulators' heap is bounded as well as the slots: at the most bins an accumulator holds
   * 10,000 longs, and the partials go on as soon as their accumulators take more than {@link
   * PreAggregateOperator#MAX_HELD_BYTES}, counted per field with a value, long before {@link
   * PreAggregateOperator#MAX_SLOTS} slots.
   */
  @Test
  void accumulatorsTakingTooMuchHeapAreSentOnAtOnce() throws Exception {
    int bins = LdpAggregation.MAX_BINS;
    long x =
        PreAggregateOperator.accumulatorHeapBytes(
            FieldBinning.of(Aggregations.MECHANISMS[0], bins));
    long roll =
        PreAggregateOperator.accumulatorHeapBytes(
            FieldBinning.of(Aggregations.MECHANISMS[1], bins));
    assertThat(x).isEqualTo(136 + 16 + 8 * 10_000);
    int fit = (int) (PreAggregateOperator.MAX_HELD_BYTES / x);
    assertThat(fit).isLessThan(PreAggregateOperator.MAX_SLOTS / 10);
    try (var h =
        new OneInputStreamOperatorTestHarness<>(
            new PreAggregateOperator(Aggregations.CONFIG, bins, SLIDING))) {
      h.open();
      for (int g = 0; g < fit; g++) {
        h.processElement(new PerturbedValues(new double[] {0.5, Double.NaN}, "g" + g, 1), 1);
      }
      assertThat(h.getOutput()).as("within the bound").isEmpty();
      h.processElement(new PerturbedValues(new double[] {0.5, Double.NaN}, "g" + fit, 1), 1);
      assertThat(partials(h)).hasSize(fit + 1);
      // Both fields: two accumulators per slot, so half as many slots.
      int fitBoth = (int) (PreAggregateOperator.MAX_HELD_BYTES / (x + roll));
      for (int g = 0; g < fitBoth; g++) {
        h.processElement(new PerturbedValues(new double[] {0.5, 1.0}, "g" + g, 1), 1);
      }
      assertThat(h.getOutput()).as("within the bound").isEmpty();
      h.processElement(new PerturbedValues(new double[] {0.5, 1.0}, "g" + fitBoth, 1), 1);
      assertThat(partials(h)).hasSize(2 * (fitBoth + 1));
    }
  }

  /**
   * Six fields of the default bins fill the slots before the bytes: the bound in bytes leaves them
   * as they were.
   */
  @Test
  void theBoundInBytesLeavesSixFieldsOfTheDefaultBinsToTheBoundInSlots() {
    long each =
        PreAggregateOperator.accumulatorHeapBytes(
            FieldBinning.of(Aggregations.MECHANISMS[0], LdpAggregation.DEFAULT_BINS));
    assertThat(each).isEqualTo(552);
    assertThat((PreAggregateOperator.MAX_SLOTS + 1) * 6 * each)
        .isLessThanOrEqualTo(PreAggregateOperator.MAX_HELD_BYTES);
  }

  @Test
  void recordsWithoutATimestampFailLoudlyAndOutOfRangeTimesAreCounted() throws Exception {
    try (var h = Aggregations.stage1(SLIDING, metrics.environment)) {
      assertThatThrownBy(
              () ->
                  h.processElement(
                      new StreamRecord<>(new PerturbedValues(new double[] {0.5, 1}, null, 1))))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith(
              "a record reached the aggregation without a timestamp: assign event time before it");
      h.processElement(new PerturbedValues(new double[] {0.5, 1}, null, 1), EventTimes.LIMIT);
      h.processElement(new PerturbedValues(new double[] {0.5, 1}, null, 1), -EventTimes.LIMIT);
      h.processElement(new PerturbedValues(new double[] {0.5, 1}, null, 1), Long.MIN_VALUE + 1);
      h.processElement(new PerturbedValues(new double[] {0.5, 1}, null, 1), EventTimes.LIMIT - 1);
      assertThat(metrics.count("reason", "time-out-of-range", "recordsSkipped")).isEqualTo(3);
      assertThat(counter("recordsPreAggregated")).isEqualTo(1);
      assertThatThrownBy(
              () -> h.processElement(new PerturbedValues(new double[] {0.5}, null, 1), 1))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("a PerturbedValues holds 1 values, but the configuration has 2 fields");
      assertThatThrownBy(() -> h.processElement(new PerturbedValues(null, null, 1), 1))
          .hasMessage("a PerturbedValues holds no values, but the configuration has 2 fields");
    }
  }

  /**
   * A PerturbedValues made by hand may hold what no perturbation gives: skipped and counted, never
   * a crash.
   */
  @Test
  void valuesBeyondAFieldsReachAreSkippedAndCounted() throws Exception {
    try (var h = Aggregations.stage1(SLIDING, metrics.environment)) {
      h.processElement(
          new PerturbedValues(new double[] {1e300, Double.POSITIVE_INFINITY}, null, 1), 1);
      h.processElement(new PerturbedValues(new double[] {0.5, 1e300}, null, 1), 1);
      h.processWatermark(PAST);
      assertThat(partials(h))
          .extracting(PartialAggregate::getField, PartialAggregate::getRecords)
          .containsExactly(tuple(0, 1L));
    }
    assertThat(counter("valuesSkipped")).isEqualTo(3);
    assertThat(counter("recordsPreAggregated")).isEqualTo(1);
  }

  @Test
  void panesTileTimeByTheGcdOfSizeAndSlide() {
    assertThat(SLIDING.pane).isEqualTo(2_000);
    assertThat(new Windowing(60_000, 10_000, 0, 0).pane).isEqualTo(10_000);
    assertThat(new Windowing(10_000, 10_000, 0, 0).pane).isEqualTo(10_000);
    assertThat(new Windowing(10_000, 3_000, 0, 0).pane).isEqualTo(1_000);
    assertThat(SLIDING.paneOf(-1)).isEqualTo(-2_000);
    assertThat(SLIDING.paneOf(3_999)).isEqualTo(2_000);
    assertThat(SLIDING.lastWindowStart(6_000)).isEqualTo(4_000);
    assertThat(SLIDING.holds(4_000, 6_000)).isTrue();
    assertThat(SLIDING.holds(-4_000, 6_000)).isFalse();
    assertThat(SLIDING.holds(-4_000, 4_000)).isTrue();
    assertThat(SLIDING.holds(-4_000, 5_999)).isTrue();
    assertThat(SLIDING.holds(8_000, 6_000)).isFalse();
  }
}
