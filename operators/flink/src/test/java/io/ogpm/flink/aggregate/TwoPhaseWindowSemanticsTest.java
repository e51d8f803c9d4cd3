package io.ogpm.flink.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldBinning;
import io.ogpm.flink.CapturedMetrics;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.flink.WindowEstimate;
import io.ogpm.mechanism.random.AesCtrSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.triggers.EventTimeTrigger;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.runtime.operators.windowing.WindowOperatorBuilder;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The two stages against Flink's own window operator (single phase, every field value keyed by
 * field and group, {@code EventTimeTrigger}, allowed lateness, late side output), on random streams
 * with out-of-order and late records, watermarks and processing time: two pre-aggregating subtasks
 * feed the merge. The same windows are emitted, the last emission of each window is exactly the
 * estimate of the last firing of Flink's (the same records, bit for bit), the records Flink sends
 * to its late output are the ones counted as {@code lateRecords}; and where Flink fires once per
 * late record, a window's late updates here are at least the late-update interval apart, but for a
 * last one at the end of its lateness, and no state is left once every lateness is over.
 */
class TwoPhaseWindowSemanticsTest {
  static final long INTERVAL = 700;
  static final String[] GROUPS = {"a", "b", null};

  /** One field's value of one record, as Flink's window operator takes it here. */
  public static final class Value {
    public int field;
    public String group;
    public double value;

    public Value() {}

    Value(int field, String group, double value) {
      this.field = field;
      this.group = group;
      this.value = value;
    }
  }

  /** What Flink's window operator emits: the window and a copy of its accumulator. */
  record Firing(String key, long start, FieldAccumulator acc) {}

  static final class Add implements AggregateFunction<Value, FieldAccumulator, FieldAccumulator> {
    @Override
    public FieldAccumulator createAccumulator() {
      return new FieldAccumulator();
    }

    @Override
    public FieldAccumulator add(Value v, FieldAccumulator acc) {
      FieldBinning b = Aggregations.ESTIMATORS[v.field].binning();
      if (acc.getBinning() == null) {
        acc = FieldAccumulator.forField(Aggregations.CONFIG.fields().get(v.field).name(), b);
      }
      return acc.add(v.value, b);
    }

    @Override
    public FieldAccumulator getResult(FieldAccumulator acc) {
      return acc;
    }

    @Override
    public FieldAccumulator merge(FieldAccumulator a, FieldAccumulator b) {
      return a.merge(b);
    }
  }

  static final class Fire
      extends ProcessWindowFunction<FieldAccumulator, Firing, String, TimeWindow> {
    @Override
    public void process(
        String key, Context context, Iterable<FieldAccumulator> accs, Collector<Firing> out) {
      for (FieldAccumulator a : accs) {
        out.collect(new Firing(key, context.window().getStart(), a.copy()));
      }
    }
  }

  @ParameterizedTest
  @CsvSource({
    "10000, 10000, 0, 1",
    "10000, 10000, 5000, 2",
    "10000, 4000, 3000, 3",
    "6000, 3000, 12000, 4",
    "9000, 6000, 1000, 5"
  })
  void theSameWindowsTheSameLastEstimatesTheSameLateRecords(
      long size, long slide, long lateness, long seed) throws Exception {
    Windowing windowing = new Windowing(size, slide, lateness, INTERVAL);
    OutputTag<Value> lateTag = new OutputTag<>("late", TypeInformation.of(Value.class));
    WindowOperatorBuilder<Value, String, TimeWindow> builder =
        new WindowOperatorBuilder<>(
            SlidingEventTimeWindows.of(Duration.ofMillis(size), Duration.ofMillis(slide)),
            EventTimeTrigger.create(),
            new ExecutionConfig(),
            TypeInformation.of(Value.class),
            v -> PartialAggregate.key(v.field, v.group),
            Types.STRING);
    builder.allowedLateness(Duration.ofMillis(lateness));
    builder.sideOutputLateData(lateTag);
    OneInputStreamOperator<Value, Firing> flinks =
        builder.aggregate(new Add(), new Fire(), TypeInformation.of(FieldAccumulator.class));
    CapturedMetrics metrics = new CapturedMetrics();
    AesCtrSource bits = AesCtrSource.seeded(seed);
    Map<String, Firing> lastFiring = new LinkedHashMap<>();
    int flinkFirings = 0;
    Map<String, List<long[]>> emissions = new HashMap<>();
    Map<String, WindowEstimate> lastEstimate = new HashMap<>();
    long lateValues;
    try (var reference =
            new KeyedOneInputStreamOperatorTestHarness<>(
                flinks, (Value v) -> PartialAggregate.key(v.field, v.group), Types.STRING);
        var subtaskA = Aggregations.stage1(windowing, null);
        var subtaskB = Aggregations.stage1(windowing, null);
        var merge = Aggregations.stage2(windowing, true, metrics.environment)) {
      reference.open();
      long frontier = 100_000;
      long watermark = Long.MIN_VALUE;
      long now = 0;
      for (int step = 0; step < 600; step++) {
        double u = bits.nextUniform();
        if (u < 0.85) {
          // A record, usually a little behind the frontier, sometimes far behind (late).
          frontier += (long) (bits.nextUniform() * 300);
          long lag =
              bits.nextUniform() < 0.8
                  ? (long) (bits.nextUniform() * 2_000)
                  : (long) (bits.nextUniform() * (size + lateness + 10_000));
          long time = frontier - lag;
          PerturbedValues r =
              Aggregations.record(GROUPS[(int) (bits.nextUniform() * GROUPS.length)], time, bits);
          (bits.nextUniform() < 0.5 ? subtaskA : subtaskB).processElement(r, time);
          for (int f = 0; f < 2; f++) {
            reference.processElement(new Value(f, r.getGroup(), r.getValues()[f]), time);
          }
        } else if (u < 0.95) {
          // Half of them exactly at a window's last millisecond, where it fires: the edge at which
          // a pane held by the first stage must have gone on.
          long next = frontier - 1_500;
          if (bits.nextUniform() < 0.5) {
            next = Math.floorDiv(next + 1 - size, slide) * slide + size - 1;
          }
          if (next > watermark) {
            watermark = next;
            subtaskA.processWatermark(new Watermark(watermark));
            subtaskB.processWatermark(new Watermark(watermark));
            Aggregations.forwardPartials(subtaskA, merge);
            Aggregations.forwardPartials(subtaskB, merge);
            merge.processWatermark(watermark);
            reference.processWatermark(watermark);
          }
        } else {
          now += (long) (bits.nextUniform() * 1_500);
          subtaskA.setProcessingTime(now);
          subtaskB.setProcessingTime(now);
          Aggregations.forwardPartials(subtaskA, merge);
          Aggregations.forwardPartials(subtaskB, merge);
          merge.setProcessingTime(now);
        }
        record(merge, now, emissions, lastEstimate);
        for (Firing f : reference.extractOutputValues()) {
          lastFiring.put(f.key() + "@" + f.start(), f);
          flinkFirings++;
        }
        reference.getOutput().clear();
      }
      subtaskA.processWatermark(new Watermark(Long.MAX_VALUE));
      subtaskB.processWatermark(new Watermark(Long.MAX_VALUE));
      Aggregations.forwardPartials(subtaskA, merge);
      Aggregations.forwardPartials(subtaskB, merge);
      merge.processWatermark(Long.MAX_VALUE);
      reference.processWatermark(Long.MAX_VALUE);
      record(merge, now, emissions, lastEstimate);
      for (Firing f : reference.extractOutputValues()) {
        lastFiring.put(f.key() + "@" + f.start(), f);
        flinkFirings++;
      }
      lateValues =
          reference.getSideOutput(lateTag) == null
              ? 0
              : reference.getSideOutput(lateTag).stream()
                  .filter(r -> r.getValue().field == 0)
                  .count();
      assertThat(merge.numKeyedStateEntries())
          .as("no state left after the end of every lateness")
          .isZero();
    }
    assertThat(lastEstimate.keySet()).isEqualTo(lastFiring.keySet());
    for (Map.Entry<String, Firing> e : lastFiring.entrySet()) {
      Firing f = e.getValue();
      int field = PartialAggregate.fieldOf(f.key());
      var estimator = Aggregations.ESTIMATORS[field];
      WindowEstimate expected =
          WindowEstimates.of(
              f.start(),
              f.start() + size,
              Aggregations.CONFIG.fields().get(field).name(),
              PartialAggregate.groupOf(f.key()),
              Aggregations.BINS,
              estimator.estimate(f.acc(), true),
              true);
      assertThat(lastEstimate.get(e.getKey())).as(e.getKey()).isEqualTo(expected);
    }
    assertThat(metrics.operator.get("lateRecords")).isNotNull();
    assertThat(((org.apache.flink.metrics.Counter) metrics.operator.get("lateRecords")).getCount())
        .isEqualTo(lateValues);
    int mine = 0;
    for (List<long[]> times : emissions.values()) {
      mine += times.size();
      for (int i = 3; i < times.size(); i++) {
        // Late updates (after the first emission) but the last, at the end of the lateness, are
        // at least the interval apart (the key's timer is).
        assertThat(times.get(i - 1)[0] - times.get(i - 2)[0]).isGreaterThanOrEqualTo(INTERVAL);
      }
    }
    assertThat(mine).isLessThanOrEqualTo(flinkFirings);
    assertThat(lastFiring).hasSizeGreaterThan(20);
    if (lateness > 0) {
      assertThat(flinkFirings)
          .as("the stream has late records within the lateness")
          .isGreaterThan(lastFiring.size());
    }
    assertThat(lateValues).as("and records too late for all their windows").isPositive();
  }

  static void record(
      OneInputStreamOperatorTestHarness<PartialAggregate, WindowEstimate> merge,
      long now,
      Map<String, List<long[]>> emissions,
      Map<String, WindowEstimate> last) {
    for (WindowEstimate e : merge.extractOutputValues()) {
      String key =
          PartialAggregate.key(e.getField().equals("x") ? 0 : 1, e.getGroup())
              + "@"
              + e.getWindowStart();
      emissions.computeIfAbsent(key, k -> new ArrayList<>()).add(new long[] {now});
      last.put(key, e);
    }
    merge.getOutput().clear();
  }
}
