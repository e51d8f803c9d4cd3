package io.ogpm.flink.aggregate;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldBinning;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The first stage of the two-phase aggregation: on every subtask, where the records are (chained to
 * its input, no shuffle), adds each record's values into partial accumulators per pane, field and
 * group ({@link Windowing}: a record is added once, whatever the number of sliding windows it falls
 * in), and sends them on ({@link PartialAggregate}) to be merged per field and group by {@link
 * WindowEstimateOperator}. So one busy field and group is spread over every subtask here, and the
 * merge sees one partial per subtask and flush instead of every record.
 *
 * <p>A pane's partials go on once a window of it can fire: before the watermark that reaches the
 * last millisecond of its first window is passed on (so its records reach the merge before any
 * watermark that fires or closes one of their windows, as they would without this stage, and
 * lateness is judged there as Flink's window operator judges it), and from then on, for late
 * records, before each watermark and every {@value #FLUSH_INTERVAL_MS} ms of processing time (late
 * records reach their windows while the watermark stands still). A pane whose windows are all still
 * open is held: it needs to be downstream only when one of them fires, and held it sends one
 * partial per field and group, not one per watermark, and leaves the merge free to emit the windows
 * before it meanwhile (sent on at every watermark, the partials of open panes would wait while the
 * merge estimates, and stall this stage). Every partial goes on before each checkpoint barrier (so
 * the stage holds no state: what it has added is downstream, in the merge's checkpointed state, and
 * nothing is lost or counted twice on recovery), at the end of input, and by size: when it holds
 * more than {@value #MAX_SLOTS} pane-group slots (each flush sends at most that many slots'
 * partials at once) or when its accumulators take more than {@link #MAX_HELD_BYTES} of heap ({@link
 * #accumulatorHeapBytes}: a slot holds an accumulator per field, of 8 bytes per output bin, 80
 * kilobytes or more at the most bins, so a bound in slots alone bounds no heap).
 *
 * <p>Metrics: {@code recordsPreAggregated} (records with at least one value), {@code
 * partialAggregates} (sent on), {@code valuesSkipped} (values that no field can hold, from a {@link
 * PerturbedValues} made by hand), {@code recordsSkipped} with {@code reason=time-out-of-range}
 * (timestamps beyond ±2^62 ms). A record without a timestamp is a wiring error, as for Flink's
 * window operator: it fails the job with a message saying so.
 */
@Internal
public final class PreAggregateOperator extends AbstractStreamOperator<PartialAggregate>
    implements OneInputStreamOperator<PerturbedValues, PartialAggregate>, ProcessingTimeCallback {
  private static final long serialVersionUID = 1L;

  static final long FLUSH_INTERVAL_MS = 1_000;
  static final int MAX_SLOTS = 10_000;

  /**
   * Most heap the held accumulators may take before they are sent on: 32 MiB, a small share of a
   * task manager's heap, and above what the slot bound lets six fields of the default 50 bins hold,
   * so that the bound in bytes takes over only for more fields or bins.
   */
  static final long MAX_HELD_BYTES = 32L << 20;

  /**
   * A {@link FieldAccumulator}'s object: 12-byte header, 3 references, an int and 13 longs, padded
   * to 8.
   */
  static final long ACCUMULATOR_OBJECT_BYTES = 136;

  /** The header of a {@code long[]}: 12-byte object header and the 4-byte length. */
  static final long ARRAY_HEADER_BYTES = 16;

  static final String TIME_OUT_OF_RANGE = "time-out-of-range";

  private final PrivacyConfig config;
  private final int bins;
  private final Windowing windowing;

  private transient String[] names;
  private transient FieldBinning[] binnings;
  private transient Map<Long, Map<String, Slot>> panes;
  private transient int slots;
  private transient long[] accumulatorBytes;
  private transient long heldBytes;
  private transient long lastPane;

  /** The last watermark passed on. */
  private transient long watermark;

  private transient Map<String, Slot> lastPaneSlots;
  private transient Counter recordsIn;
  private transient Counter partialsOut;
  private transient Counter valuesSkipped;
  private transient Counter outOfRange;

  /** One pane and group: a partial accumulator and a record count per field. */
  private static final class Slot {
    final FieldAccumulator[] accumulators;
    final long[] records;

    Slot(int fields) {
      accumulators = new FieldAccumulator[fields];
      records = new long[fields];
    }
  }

  public PreAggregateOperator(PrivacyConfig config, int bins, Windowing windowing) {
    this.config = config;
    this.bins = bins;
    this.windowing = windowing;
  }

  @Override
  public void open() throws Exception {
    super.open();
    int n = config.fields().size();
    names = new String[n];
    binnings = new FieldBinning[n];
    accumulatorBytes = new long[n];
    for (int i = 0; i < n; i++) {
      names[i] = config.fields().get(i).name();
      binnings[i] = FieldBinning.of(MechanismCatalog.of(config.fields().get(i).spec()), bins);
      accumulatorBytes[i] = accumulatorHeapBytes(binnings[i]);
    }
    panes = new HashMap<>();
    lastPaneSlots = null;
    watermark = Long.MIN_VALUE;
    recordsIn = getMetricGroup().counter("recordsPreAggregated");
    partialsOut = getMetricGroup().counter("partialAggregates");
    valuesSkipped = getMetricGroup().counter("valuesSkipped");
    outOfRange = getMetricGroup().addGroup("reason", TIME_OUT_OF_RANGE).counter("recordsSkipped");
    scheduleFlush();
  }

  private void scheduleFlush() {
    getProcessingTimeService()
        .registerTimer(
            getProcessingTimeService().getCurrentProcessingTime() + FLUSH_INTERVAL_MS, this);
  }

  @Override
  public void processElement(StreamRecord<PerturbedValues> element) {
    if (!element.hasTimestamp()) {
      throw new IllegalStateException(
          "a record reached the aggregation without a timestamp: assign event time"
              + " before it (for example DataStream.assignTimestampsAndWatermarks(LdpAggregation.watermarks(...)),"
              + " or a WatermarkStrategy on the source)");
    }
    long time = element.getTimestamp();
    if (!EventTimes.inRange(time)) {
      outOfRange.inc();
      return;
    }
    PerturbedValues record = element.getValue();
    double[] values = record.getValues();
    if (values == null || values.length != names.length) {
      throw new IllegalArgumentException(
          "a PerturbedValues holds "
              + (values == null ? "no" : values.length)
              + " values, but the configuration has "
              + names.length
              + " fields");
    }
    Slot slot = slot(windowing.paneOf(time), record.getGroup());
    boolean counted = false;
    for (int i = 0; i < values.length; i++) {
      double y = values[i];
      if (Double.isNaN(y)) {
        continue;
      }
      if (!binnings[i].accepts(y)) {
        valuesSkipped.inc();
        continue;
      }
      FieldAccumulator acc = slot.accumulators[i];
      if (acc == null) {
        acc = FieldAccumulator.forField(names[i], binnings[i]);
        slot.accumulators[i] = acc;
        heldBytes += accumulatorBytes[i];
      }
      acc.add(y, binnings[i]);
      if (!counted) {
        slot.records[i]++;
        counted = true;
      }
    }
    if (counted) {
      recordsIn.inc();
    }
    if (slots > MAX_SLOTS || heldBytes > MAX_HELD_BYTES) {
      flush();
    }
  }

  private Slot slot(long pane, String group) {
    if (lastPaneSlots == null || pane != lastPane) {
      lastPaneSlots = panes.computeIfAbsent(pane, p -> new HashMap<>());
      lastPane = pane;
    }
    Slot slot = lastPaneSlots.get(group);
    if (slot == null) {
      slot = new Slot(names.length);
      lastPaneSlots.put(group, slot);
      slots++;
    }
    return slot;
  }

  /** Sends every partial on and forgets them. */
  void flush() {
    flush(Long.MAX_VALUE);
  }

  /**
   * Sends on and forgets the partials of every pane a window of which can fire at this watermark
   * (its first window's last millisecond at or before it); {@code Long.MAX_VALUE}: every pane.
   */
  private void flush(long watermark) {
    if (slots == 0) {
      return;
    }
    Iterator<Map.Entry<Long, Map<String, Slot>>> it = panes.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<Long, Map<String, Slot>> pane = it.next();
      long start = pane.getKey();
      if (watermark != Long.MAX_VALUE && windowing.firstWindowEnd(start) - 1 > watermark) {
        continue;
      }
      long maxTimestamp = start + windowing.pane - 1;
      for (Map.Entry<String, Slot> group : pane.getValue().entrySet()) {
        Slot slot = group.getValue();
        for (int i = 0; i < slot.accumulators.length; i++) {
          if (slot.accumulators[i] != null) {
            output.collect(
                new StreamRecord<>(
                    new PartialAggregate(
                        i, group.getKey(), start, slot.records[i], slot.accumulators[i]),
                    maxTimestamp));
            partialsOut.inc();
            heldBytes -= accumulatorBytes[i];
          }
        }
        slots--;
      }
      it.remove();
      if (pane.getValue() == lastPaneSlots) {
        lastPaneSlots = null;
      }
    }
  }

  /**
   * The heap of an accumulator of this binning as this stage holds it: its object and its histogram
   * of {@link FieldBinning#outputBins()} longs (its field's name and binning id are shared by all),
   * on a 64-bit JVM with compressed references and class pointers (the default below 32 GB of heap;
   * without them an object takes a little more). docs/memory.md compares it with the measured heap.
   */
  public static long accumulatorHeapBytes(FieldBinning binning) {
    return ACCUMULATOR_OBJECT_BYTES + ARRAY_HEADER_BYTES + 8L * binning.outputBins();
  }

  @Override
  public void processWatermark(Watermark mark) throws Exception {
    watermark = mark.getTimestamp();
    flush(watermark);
    super.processWatermark(mark);
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    flush();
    super.prepareSnapshotPreBarrier(checkpointId);
  }

  @Override
  public void finish() throws Exception {
    flush();
    super.finish();
  }

  @Override
  public void onProcessingTime(long time) {
    flush(watermark);
    scheduleFlush();
  }
}
