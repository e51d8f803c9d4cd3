package io.ogpm.benchmarks;

import io.ogpm.bench.BenchConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.flink.WindowEstimate;
import io.ogpm.flink.aggregate.FieldAndGroup;
import io.ogpm.flink.aggregate.PartialAggregate;
import io.ogpm.flink.aggregate.PreAggregateOperator;
import io.ogpm.flink.aggregate.WindowEstimateOperator;
import io.ogpm.flink.aggregate.Windowing;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The pre-aggregation at 10,000 groups, on the sample's six fields at 50 bins, in Flink's operator
 * test harnesses, one thread; each operation is one pane of every group, one record each (10,000
 * slots, 60,000 partials: the stage's bound in slots):
 *
 * <ul>
 *   <li>{@code add}: the 10,000 records added ({@link PreAggregateOperator}, a slot and six
 *       accumulators created per record);
 *   <li>{@code flush}: the 60,000 partials sent on at a watermark (into the harness's output
 *       queue);
 *   <li>{@code serialize}: the 60,000 partials written by their serializer, as the network writes
 *       them between the stages;
 *   <li>{@code merge}: the 60,000 partials read back and merged into the keyed state of the second
 *       stage ({@link WindowEstimateOperator}, heap state backend), into panes that exist (after
 *       the first operation).
 * </ul>
 *
 * The harnesses' own costs (their output queue, setting the key) are in the figures. Run from the
 * repository root: {@code java -jar tools/benchmarks/target/benchmarks.jar
 * PreAggregationBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgs = {"-Xms2g", "-Xmx2g"})
public class PreAggregationBenchmark {
  static final int GROUPS = 10_000;
  static final int BINS = 50;
  static final long MINUTE = 60_000;
  static final Windowing WINDOWING = new Windowing(MINUTE, MINUTE, 0, 10_000);
  static final PrivacyConfig CONFIG = PrivacyConfig.parse(BenchConfig.sixFields());

  /** The pre-aggregation and one record of each group, all in one pane. */
  static final Watermark PAST_THE_WINDOWS = new Watermark(Long.MAX_VALUE - 1);

  @State(Scope.Thread)
  public static class Stage1 {
    PerturbedValues[] records;
    OneInputStreamOperatorTestHarness<PerturbedValues, PartialAggregate> harness;

    void open() throws Exception {
      records = GroupRecords.oneEach(CONFIG, GROUPS, 0);
      harness =
          new OneInputStreamOperatorTestHarness<>(
              new PreAggregateOperator(CONFIG, BINS, WINDOWING));
      harness.open();
    }

    void add() throws Exception {
      for (PerturbedValues r : records) {
        harness.processElement(r, 0);
      }
    }

    /**
     * Sends the held partials on (a watermark past the pane's windows: the stage holds a pane until
     * the watermark reaches the end of its first window) and returns them, the harness's output
     * cleared.
     */
    List<PartialAggregate> flush() throws Exception {
      harness.processWatermark(PAST_THE_WINDOWS);
      List<PartialAggregate> out = harness.extractOutputValues();
      harness.getOutput().clear();
      return out;
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
      harness.close();
    }
  }

  /**
   * For {@link #add}: a fresh, empty stage before each operation (a flushed one has its watermark
   * past the pane, and records of the same time would be late).
   */
  @State(Scope.Thread)
  public static class Adding extends Stage1 {
    @Setup(Level.Trial)
    public void setUp() throws Exception {
      open();
    }

    @Setup(Level.Invocation)
    public void empty() throws Exception {
      harness.close();
      open();
    }
  }

  @Benchmark
  public void add(Adding s) throws Exception {
    s.add();
  }

  /** For {@link #flush}: one pane of every group held before each operation. */
  @State(Scope.Thread)
  public static class Flushing extends Stage1 {
    @Setup(Level.Trial)
    public void setUp() throws Exception {
      open();
    }

    /**
     * A fresh stage holding one pane of every group: after a flush the watermark is past its
     * windows, and records of the same time would be late.
     */
    @Setup(Level.Invocation)
    public void fill() throws Exception {
      harness.close();
      open();
      add();
    }

    @TearDown(Level.Invocation)
    public void check() {
      int partials = harness.extractOutputValues().size();
      if (partials != GROUPS * CONFIG.fields().size()) {
        throw new IllegalStateException(partials + " partials, not one per group and field");
      }
      harness.getOutput().clear();
    }
  }

  @Benchmark
  public void flush(Flushing s) throws Exception {
    s.harness.processWatermark(PAST_THE_WINDOWS);
  }

  /** The partials of one flush, as objects and serialized, and the second stage. */
  @State(Scope.Thread)
  public static class Partials extends Stage1 {
    final TypeSerializer<PartialAggregate> serializer =
        TypeInformation.of(PartialAggregate.class).createSerializer(new SerializerConfigImpl());
    final DataOutputSerializer out = new DataOutputSerializer(1 << 20);
    final DataInputDeserializer in = new DataInputDeserializer();
    List<PartialAggregate> partials;
    byte[][] serialized;
    KeyedOneInputStreamOperatorTestHarness<String, PartialAggregate, WindowEstimate> stage2;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
      open();
      add();
      partials = flush();
      if (partials.size() != GROUPS * CONFIG.fields().size()) {
        throw new IllegalStateException(partials.size() + " partials, not one per group and field");
      }
      serialized = new byte[partials.size()][];
      long bytes = 0;
      for (int k = 0; k < serialized.length; k++) {
        out.clear();
        serializer.serialize(partials.get(k), out);
        serialized[k] = out.getCopyOfBuffer();
        bytes += serialized[k].length;
      }
      System.out.printf(
          "%n%d partials of %d groups, %d bytes serialized (%d per partial)%n",
          partials.size(), GROUPS, bytes, bytes / partials.size());
      stage2 =
          new KeyedOneInputStreamOperatorTestHarness<>(
              new WindowEstimateOperator(CONFIG, BINS, WINDOWING, true),
              new FieldAndGroup(),
              Types.STRING);
      stage2.open();
    }

    @TearDown(Level.Trial)
    public void closeStage2() throws Exception {
      stage2.close();
    }
  }

  @Benchmark
  public int serialize(Partials s) throws IOException {
    s.out.clear();
    for (PartialAggregate p : s.partials) {
      s.serializer.serialize(p, s.out);
    }
    return s.out.length();
  }

  @Benchmark
  public void merge(Partials s) throws Exception {
    for (byte[] bytes : s.serialized) {
      s.in.setBuffer(bytes);
      s.stage2.processElement(new StreamRecord<>(s.serializer.deserialize(s.in), 0));
    }
  }
}
