package io.ogpm.flink.aggregate;

import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.config.UserGuarantee;
import io.ogpm.estimate.DistributionQuery;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.flink.WindowEstimate;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The second stage of the two-phase aggregation, keyed by field and group ({@link
 * PartialAggregate#key}): merges the partial accumulators per pane (keyed state: exact, so the
 * merged pane equals the accumulator of all its records, whatever the split and order), and
 * estimates each window from its panes when it is emitted. Windows follow Flink's event-time rules
 * ({@link Windowing}); estimation runs only at emissions, never once per record:
 *
 * <ul>
 *   <li>at the watermark: when the watermark passes a window's end, its estimate is emitted (timer
 *       at its last millisecond);
 *   <li>late updates: records that arrive after that, within the allowed lateness, change the
 *       window; the changed windows of a key are emitted again at most once per {@code
 *       lateUpdateInterval} of processing time (a timer at the first change plus the interval);
 *   <li>at the end of the allowed lateness (timer at the cleanup time): a window changed since its
 *       last emission is emitted a last time; then its panes that no later window holds are
 *       dropped, so the state of a window is gone once its lateness is over.
 * </ul>
 *
 * Every emission is the estimate of all the records the window has at that moment. Records of a
 * pane whose every window is past its lateness are dropped and counted ({@code lateRecords}, from
 * the partial's record count); a record late for some of its sliding windows only is dropped from
 * those alone, as in Flink. A window that first gets records after the watermark passed its end is
 * emitted as a late update. Metrics: {@code lateRecords}, {@code windowEstimates} (emitted), {@code
 * lateUpdates} (of those, emitted after the watermark passed the window's end).
 *
 * <p>Each estimate reports the aggregation's quantiles and the field's own exceedance thresholds
 * ({@link FieldConfig#exceedances()}), read off its cumulative band ({@link
 * io.ogpm.estimate.DistributionEstimate}).
 */
@Internal
public final class WindowEstimateOperator extends AbstractStreamOperator<WindowEstimate>
    implements OneInputStreamOperator<PartialAggregate, WindowEstimate>,
        Triggerable<String, TimeWindow> {
  private static final long serialVersionUID = 1L;

  private final PrivacyConfig config;
  private final int bins;

  /** The quantiles' probabilities, validated ({@link DistributionQuery#checkProbabilities}). */
  private final double[] quantiles;

  private final Windowing windowing;
  private final boolean reconstruct;

  private transient UserGuarantee guarantee;
  private transient String[] names;
  private transient FieldEstimator[] estimators;
  private transient MapState<Long, FieldAccumulator> panes;
  private transient MapState<Long, Boolean> changed;
  private transient ValueState<Long> pendingUpdate;
  private transient InternalTimerService<TimeWindow> windowTimers;
  private transient InternalTimerService<VoidNamespace> updateTimers;
  private transient Counter lateRecords;
  private transient Counter estimates;
  private transient Counter lateUpdates;

  /** The operator reporting the default quantiles ({@link DistributionQuery#DEFAULT}). */
  public WindowEstimateOperator(
      PrivacyConfig config, int bins, Windowing windowing, boolean reconstruct) {
    this(config, bins, DistributionQuery.defaultProbabilities(), windowing, reconstruct);
  }

  /**
   * The operator reporting the quantiles of these probabilities.
   *
   * @throws IllegalArgumentException naming a bad probability
   */
  public WindowEstimateOperator(
      PrivacyConfig config,
      int bins,
      double[] quantiles,
      Windowing windowing,
      boolean reconstruct) {
    this.config = config;
    this.bins = bins;
    this.quantiles = DistributionQuery.checkProbabilities(quantiles);
    this.windowing = windowing;
    this.reconstruct = reconstruct;
  }

  @Override
  public void open() throws Exception {
    super.open();
    guarantee = UserGuarantee.of(config);
    int n = config.fields().size();
    names = new String[n];
    estimators = new FieldEstimator[n];
    for (int i = 0; i < n; i++) {
      FieldConfig field = config.fields().get(i);
      names[i] = field.name();
      estimators[i] =
          FieldEstimator.of(
              MechanismCatalog.of(field.spec()),
              bins,
              DistributionQuery.of(quantiles, field.exceedances()));
    }
    panes =
        getPartitionedState(
            new MapStateDescriptor<>(
                "panes", Types.LONG, TypeInformation.of(FieldAccumulator.class)));
    changed =
        getPartitionedState(new MapStateDescriptor<>("changed-windows", Types.LONG, Types.BOOLEAN));
    pendingUpdate = getPartitionedState(new ValueStateDescriptor<>("pending-update", Types.LONG));
    windowTimers = getInternalTimerService("window-timers", new TimeWindow.Serializer(), this);
    updateTimers =
        getInternalTimerService(
            "late-update-timers", VoidNamespaceSerializer.INSTANCE, new LateUpdates());
    lateRecords = getMetricGroup().counter("lateRecords");
    estimates = getMetricGroup().counter("windowEstimates");
    lateUpdates = getMetricGroup().counter("lateUpdates");
  }

  @Override
  public void processElement(StreamRecord<PartialAggregate> element) throws Exception {
    PartialAggregate partial = element.getValue();
    long pane = partial.getPane();
    long watermark = windowTimers.currentWatermark();
    if (windowing.isPaneLate(pane, watermark)) {
      lateRecords.inc(partial.getRecords());
      return;
    }
    for (long start = windowing.lastWindowStart(pane);
        windowing.holds(start, pane);
        start -= windowing.slide) {
      TimeWindow w = windowing.window(start);
      if (windowing.isLate(w, watermark)) {
        continue;
      }
      if (w.maxTimestamp() <= watermark) {
        changed.put(start, Boolean.TRUE);
        scheduleLateUpdate();
      } else {
        windowTimers.registerEventTimeTimer(w, w.maxTimestamp());
      }
      windowTimers.registerEventTimeTimer(w, windowing.cleanupTime(w));
    }
    // A copy: the state may keep the object, and the input's may be reused (object reuse). Into a
    // fresh accumulator of the field's rather than partial.copy(): on the heap it then shares the
    // field's name and binning id with every other pane, instead of keeping per pane the strings
    // the network deserialized for its first partial (docs/memory.md).
    FieldAccumulator acc = panes.get(pane);
    if (acc == null) {
      acc = estimators[partial.getField()].newAccumulator(names[partial.getField()]);
    }
    panes.put(pane, acc.merge(partial.getAccumulator()));
  }

  private void scheduleLateUpdate() throws Exception {
    if (pendingUpdate.value() == null) {
      long at = updateTimers.currentProcessingTime() + windowing.lateUpdateInterval;
      updateTimers.registerProcessingTimeTimer(VoidNamespace.INSTANCE, at);
      pendingUpdate.update(at);
    }
  }

  @Override
  public void onEventTime(InternalTimer<String, TimeWindow> timer) throws Exception {
    TimeWindow w = timer.getNamespace();
    if (timer.getTimestamp() == w.maxTimestamp()) {
      emit(w, false);
    }
    if (timer.getTimestamp() == windowing.cleanupTime(w)) {
      if (changed.contains(w.getStart())) {
        emit(w, true);
        changed.remove(w.getStart());
      }
      // Panes before the next window's start belong to no window that is still open.
      List<Long> done = new ArrayList<>();
      for (Long pane : panes.keys()) {
        if (pane < w.getStart() + windowing.slide) {
          done.add(pane);
        }
      }
      for (Long pane : done) {
        panes.remove(pane);
      }
      // No window of the key left to update: the pending late update has nothing to do.
      Long pending = pendingUpdate.value();
      if (pending != null && changed.isEmpty()) {
        updateTimers.deleteProcessingTimeTimer(VoidNamespace.INSTANCE, pending);
        pendingUpdate.clear();
      }
    }
  }

  @Override
  public void onProcessingTime(InternalTimer<String, TimeWindow> timer) {
    // Window timers are event time only.
  }

  /**
   * The late-update timer of a key: emits every window of the key changed since its last emission.
   */
  private final class LateUpdates implements Triggerable<String, VoidNamespace> {
    @Override
    public void onProcessingTime(InternalTimer<String, VoidNamespace> timer) throws Exception {
      pendingUpdate.clear();
      List<Long> starts = new ArrayList<>();
      for (Long start : changed.keys()) {
        starts.add(start);
      }
      starts.sort(null);
      for (Long start : starts) {
        emit(windowing.window(start), true);
      }
      changed.clear();
    }

    @Override
    public void onEventTime(InternalTimer<String, VoidNamespace> timer) {
      // Late updates are timed in processing time only.
    }
  }

  /** Estimates a window from all its panes and emits it, stamped with its last millisecond. */
  private void emit(TimeWindow w, boolean late) throws Exception {
    String key = (String) getCurrentKey();
    int field = PartialAggregate.fieldOf(key);
    FieldEstimator estimator = estimators[field];
    FieldAccumulator acc = estimator.newAccumulator(names[field]);
    for (long pane = w.getStart(); pane < w.getEnd(); pane += windowing.pane) {
      FieldAccumulator a = panes.get(pane);
      if (a != null) {
        acc.merge(a);
      }
    }
    if (acc.getCount() == 0) {
      return;
    }
    WindowEstimate e =
        WindowEstimates.of(
            w.getStart(),
            w.getEnd(),
            names[field],
            PartialAggregate.groupOf(key),
            bins,
            estimator.estimate(acc, reconstruct && estimator.canReconstruct()),
            reconstruct);
    e.setUserEpsilonBound(guarantee.inWindow(w.getStart(), w.getEnd()));
    output.collect(new StreamRecord<>(e, w.maxTimestamp()));
    estimates.inc();
    if (late) {
      lateUpdates.inc();
    }
  }
}
