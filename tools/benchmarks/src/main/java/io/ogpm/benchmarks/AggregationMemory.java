package io.ogpm.benchmarks;

import io.ogpm.bench.BenchConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldBinning;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.flink.WindowEstimate;
import io.ogpm.flink.aggregate.FieldAndGroup;
import io.ogpm.flink.aggregate.PartialAggregate;
import io.ogpm.flink.aggregate.PreAggregateOperator;
import io.ogpm.flink.aggregate.WindowEstimateOperator;
import io.ogpm.flink.aggregate.Windowing;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.io.IOException;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.state.storage.JobManagerCheckpointStorage;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

/**
 * What the aggregation holds in memory, on the sample's configuration (six fields): one field's
 * accumulator on the heap and serialized (as the keyed state and the network write it), the
 * pre-aggregation's heap at its most (one pane of every group, up to its first flush by size), and
 * the merge's keyed state per field and group (heap and checkpoint) for tumbling and sliding
 * windows, all for a number of groups (default 10,000) and bins (default 50). See docs/memory.md.
 *
 * <p>Heap sizes are differences of the used heap after full collections, over many objects, so they
 * include everything the objects reach that was not there before (object headers, padding, the
 * state backend's maps, timers). Run from the repository root with a fixed heap and the serial
 * collector, so that each collection is full and alone: {@code java -Xms2g -Xmx2g -XX:+UseSerialGC
 * -cp tools/benchmarks/target/benchmarks.jar io.ogpm.benchmarks.AggregationMemory [groups [bins
 * [parts]]]}, parts a comma-separated choice of {@code accumulators, pre-aggregation, keyed-state}
 * (default all three; the keyed state at 10,000 groups and 50 bins takes about 300 MiB). Prints
 * Markdown tables.
 */
public final class AggregationMemory {
  /** Accumulators per field for the per-accumulator heap figures, at most (and 256 MiB of them). */
  static final int INSTANCES = 100_000;

  static final long MINUTE = 60_000;

  private final PrivacyConfig config = PrivacyConfig.parse(BenchConfig.sixFields());
  private final int groups;
  private final int bins;
  private final FieldBinning[] binnings;
  private final TypeSerializer<FieldAccumulator> accumulatorSerializer =
      TypeInformation.of(FieldAccumulator.class).createSerializer(new SerializerConfigImpl());
  private final TypeSerializer<PartialAggregate> partialSerializer =
      TypeInformation.of(PartialAggregate.class).createSerializer(new SerializerConfigImpl());

  AggregationMemory(int groups, int bins) {
    this.groups = groups;
    this.bins = bins;
    int n = config.fields().size();
    binnings = new FieldBinning[n];
    for (int i = 0; i < n; i++) {
      binnings[i] = FieldBinning.of(MechanismCatalog.of(config.fields().get(i).spec()), bins);
    }
  }

  public static void main(String[] args) throws Exception {
    int groups = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int bins = args.length > 1 ? Integer.parseInt(args[1]) : 50;
    AggregationMemory m = new AggregationMemory(groups, bins);
    Runtime r = Runtime.getRuntime();
    System.out.printf(
        "%d groups, %d bins, the sample's %d fields; heap %d MiB, %d processors, load %.2f%n%n",
        groups,
        bins,
        m.binnings.length,
        r.maxMemory() >> 20,
        r.availableProcessors(),
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    List<String> parts =
        List.of(
            (args.length > 2 ? args[2] : "accumulators,pre-aggregation,keyed-state").split(","));
    if (parts.contains("accumulators")) {
      m.accumulators();
    }
    if (parts.contains("pre-aggregation")) {
      m.preAggregation();
    }
    if (parts.contains("keyed-state")) {
      System.out.println(
          "| keyed state (heap backend), %d groups x %d fields | panes per field and group | heap |"
                  .formatted(groups, m.binnings.length)
              + " per field and group | checkpoint | per field and group |");
      System.out.println("| --- | ---: | ---: | ---: | ---: | ---: |");
      m.keyedState(new Windowing(MINUTE, MINUTE, 0, 10_000), "tumbling 1 min", 1);
      m.keyedState(new Windowing(MINUTE, 10_000, 0, 10_000), "sliding 1 min by 10 s", 6);
    }
  }

  /** One field's accumulator: heap (calculated and measured) and serialized. */
  void accumulators() throws IOException, InterruptedException {
    System.out.println(
        "| field | output bins | heap, calculated | heap, measured, names shared | heap, measured,"
            + " deserialized | serialized accumulator | of which binning id | serialized partial |");
    System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (int i = 0; i < binnings.length; i++) {
      String name = config.fields().get(i).name();
      FieldBinning b = binnings[i];
      FieldAccumulator one = FieldAccumulator.forField(name, b);
      one.add(GroupRecords.oneEach(config, 1, 0)[0].getValues()[i], b);
      byte[] bytes = serialize(accumulatorSerializer, one);
      PartialAggregate partial = new PartialAggregate();
      partial.setField(i);
      partial.setGroup(GroupRecords.group(groups - 1));
      partial.setPane(1_700_000_000_000L);
      partial.setRecords(1);
      partial.setAccumulator(one);
      int instances =
          (int) Math.min(INSTANCES, (256L << 20) / PreAggregateOperator.accumulatorHeapBytes(b));
      FieldAccumulator[] held = new FieldAccumulator[instances];
      long before = usedHeap();
      for (int k = 0; k < instances; k++) {
        held[k] = FieldAccumulator.forField(name, b).merge(one);
      }
      double shared = (double) (usedHeap() - before) / instances;
      java.util.Arrays.fill(held, null);
      DataInputDeserializer in = new DataInputDeserializer();
      before = usedHeap();
      for (int k = 0; k < instances; k++) {
        in.setBuffer(bytes);
        held[k] = accumulatorSerializer.deserialize(in);
      }
      double deserialized = (double) (usedHeap() - before) / instances;
      Reference.reachabilityFence(held);
      System.out.printf(
          "| %s | %d | %d | %.0f | %.0f | %d | %d | %d |%n",
          name,
          b.outputBins(),
          PreAggregateOperator.accumulatorHeapBytes(b),
          shared,
          deserialized,
          bytes.length,
          serialize(
                  TypeInformation.of(String.class).createSerializer(new SerializerConfigImpl()),
                  b.id())
              .length,
          serialize(partialSerializer, partial).length);
    }
    System.out.println();
  }

  /**
   * The pre-aggregation's heap at its most: one record of each group in one pane, every field of
   * every group held, up to the record before its first flush by size (the bound in slots or in
   * bytes), if one comes before the last group.
   */
  void preAggregation() throws Exception {
    PerturbedValues[] records = GroupRecords.oneEach(config, groups, 0);
    Windowing windowing = new Windowing(MINUTE, MINUTE, 0, 10_000);
    int held = groups;
    try (var h =
        new OneInputStreamOperatorTestHarness<>(
            new PreAggregateOperator(config, bins, windowing))) {
      h.open();
      for (int g = 0; g < groups && held == groups; g++) {
        h.processElement(records[g], 0);
        if (!h.getOutput().isEmpty()) {
          held = g;
        }
      }
    }
    long calculated = 0;
    for (FieldBinning b : binnings) {
      calculated += PreAggregateOperator.accumulatorHeapBytes(b);
    }
    try (var h =
        new OneInputStreamOperatorTestHarness<>(
            new PreAggregateOperator(config, bins, windowing))) {
      h.open();
      long before = usedHeap();
      for (int g = 0; g < held; g++) {
        // Each record with a group name of its own, as deserialized records have: a slot keeps its
        // first.
        h.processElement(new PerturbedValues(records[g].getValues(), GroupRecords.group(g), 0), 0);
      }
      long heap = usedHeap() - before;
      if (!h.getOutput().isEmpty()) {
        throw new IllegalStateException("flushed before the measurement");
      }
      System.out.println(
          "| pre-aggregation, one pane | first flush by size | slots held at most | heap held |"
              + " per slot | per accumulator | accumulators, calculated |");
      System.out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
      System.out.printf(
          "| %d fields, %d bins, %d groups | %s | %d | %.1f MiB | %d | %d | %.1f MiB |%n%n",
          binnings.length,
          bins,
          groups,
          held == groups ? "none" : "at slot " + (held + 1),
          held,
          heap / 1048576.0,
          heap / held,
          heap / ((long) held * binnings.length),
          held * calculated / 1048576.0);
    }
  }

  /**
   * The merge's keyed state (heap state backend, as the harness and the deployment's {@code
   * hashmap} use it) after {@code panes} panes of every field and group, their partials passed
   * through the network's serializer: heap and checkpoint size per field and group.
   */
  void keyedState(Windowing windowing, String label, int panes) throws Exception {
    List<byte[]> partials = new ArrayList<>();
    for (int p = 0; p < panes; p++) {
      try (var h =
          new OneInputStreamOperatorTestHarness<>(
              new PreAggregateOperator(config, bins, windowing))) {
        h.open();
        for (PerturbedValues r : GroupRecords.oneEach(config, groups, p * windowing.slide())) {
          h.processElement(r, r.getEventTime());
        }
        // Past the pane's windows: every slot flushes.
        h.processWatermark(new Watermark(Long.MAX_VALUE - 1));
        for (PartialAggregate partial : h.extractOutputValues()) {
          partials.add(serialize(partialSerializer, partial));
        }
      }
    }
    int keys = groups * binnings.length;
    if (partials.size() != keys * panes) {
      throw new IllegalStateException(
          "the pre-aggregation flushed " + partials.size() + " partials, not " + keys * panes);
    }
    try (var h =
        new KeyedOneInputStreamOperatorTestHarness<String, PartialAggregate, WindowEstimate>(
            new WindowEstimateOperator(config, bins, windowing, true),
            new FieldAndGroup(),
            Types.STRING)) {
      h.setCheckpointStorage(new JobManagerCheckpointStorage(Integer.MAX_VALUE));
      h.open();
      long before = usedHeap();
      for (byte[] bytes : partials) {
        // As the network hands them over: each partial deserialized, with strings of its own.
        PartialAggregate partial = partialSerializer.deserialize(new DataInputDeserializer(bytes));
        h.processElement(new StreamRecord<>(partial, partial.getPane()));
      }
      long held = usedHeap() - before;
      Reference.reachabilityFence(partials);
      long checkpoint = h.snapshot(1, 1).getStateSize();
      System.out.printf(
          "| %s | %d | %.1f MiB | %d | %.1f MiB | %d |%n",
          label, panes, held / 1048576.0, held / keys, checkpoint / 1048576.0, checkpoint / keys);
    }
  }

  static <T> byte[] serialize(TypeSerializer<T> serializer, T value) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(1024);
    serializer.serialize(value, out);
    return out.getCopyOfBuffer();
  }

  /**
   * The used heap once full collections free nothing more: some objects (those of a closed harness)
   * are freed only after their cleaners have run, a collection or two later.
   */
  static long usedHeap() throws InterruptedException {
    Runtime r = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int stable = 0, i = 0; stable < 3 && i < 50; i++) {
      System.gc();
      System.runFinalization();
      Thread.sleep(50);
      long now = r.totalMemory() - r.freeMemory();
      stable = now < used - 4096 ? 0 : stable + 1;
      used = Math.min(used, now);
    }
    return used;
  }
}
