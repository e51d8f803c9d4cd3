package io.ogpm.flink.budget;

import io.ogpm.budget.ContributionRule;
import io.ogpm.budget.TaskClock;
import io.ogpm.config.ContributionBound;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.perturb.DeadLetterCounters;
import io.ogpm.flink.perturb.DeadLetters;
import io.ogpm.flink.perturb.ReleasedRecords;
import io.ogpm.record.DeadLetter;
import io.ogpm.record.ReasonCode;
import io.ogpm.record.Source;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.ObjectArrayTypeInfo;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The contribution bound ({@link ContributionBound}) of perturbed Kafka records, keyed by user: per
 * open window, a reservoir of at most {@code c} of the user's records and the count seen, in keyed
 * state ({@link ContributionRule} decides); a timer at the window's close releases the reservoir
 * and forgets the window. On {@code log-append-time} windows close by event time: the watermark of
 * the broker's append times ({@link BrokerTimeWatermarks}, which the raw source must carry), so a
 * backlog read after a restore or an outage is placed in its own windows, not refused as late; on
 * {@code ingestion-time} by the job's clock. A record not kept (not chosen, or replaced by a later
 * one) is dead-lettered at once ({@code contribution-bound}, never a value); a record for a closed
 * window, {@code contribution-window-closed}; one with a time the producer set, {@code
 * untrusted-time}. Releases happen in timers, and the reservoir and timers are checkpointed with
 * the Kafka offsets: with the transactional sink, the committed output never holds more than {@code
 * c} of a user's records in a window, across failover and savepoint restore.
 *
 * <p>A job whose raw source carries no watermark would hold every record forever: on {@code
 * log-append-time}, if no watermark has arrived {@link #NO_WATERMARK_AFTER} after a window's first
 * record (by the job's clock), the job fails with one line saying so.
 *
 * <p>Internal: set {@code contribution:} in the configuration ({@link
 * io.ogpm.flink.LdpPerturbation}).
 */
@Internal
public final class ContributionFunction
    extends KeyedProcessFunction<String, PerturbedRecord, PerturbedRecord> {
  private static final long serialVersionUID = 1L;

  static final List<ReasonCode> REASONS =
      List.of(
          ReasonCode.CONTRIBUTION_BOUND,
          ReasonCode.CONTRIBUTION_WINDOW_CLOSED,
          ReasonCode.UNTRUSTED_TIME);

  /**
   * How long after a window's first record (plus the window's max-lag) a job on {@code
   * log-append-time} may go without any watermark before it fails: generous, since a loaded cluster
   * may be slow to pass the first one on, and short beside a record held forever.
   */
  static final long NO_WATERMARK_AFTER = java.time.Duration.ofMinutes(10).toMillis();

  static final String NO_WATERMARK =
      "contribution: no watermark reached the bound on clock log-append-time, so no window can"
          + " close: read the raw topic with the watermarks LdpPerturbation.rawWatermarks() gives"
          + " (env.fromSource(source, ldp.rawWatermarks(), ...))";

  private final ContributionBound bound;
  private final String fingerprint;
  private final transient RandomGenerator seeded;
  private transient RandomGenerator random;
  private transient ContributionRule rule;
  private transient TaskClock clock;
  private transient MapState<Long, PerturbedRecord[]> kept;
  private transient MapState<Long, Long> seen;
  private transient DeadLetterCounters refused;
  private transient ReleasedRecords released;

  /**
   * @param fingerprint the {@link io.ogpm.config.ConfigFingerprint} value to set on each released
   *     record when this is the last stage (no budget after it; it then counts what it releases),
   *     else null
   */
  public ContributionFunction(ContributionBound bound, String fingerprint) {
    this(bound, fingerprint, null);
  }

  /** With a given random generator, for tests that fix the choices. */
  ContributionFunction(ContributionBound bound, String fingerprint, RandomGenerator random) {
    this.bound = bound;
    this.fingerprint = fingerprint;
    this.seeded = random;
  }

  @Override
  public void open(OpenContext context) {
    rule = new ContributionRule(bound);
    clock = new TaskClock();
    random = seeded != null ? seeded : new SecureRandom();
    TypeInformation<PerturbedRecord> record = TypeInformation.of(PerturbedRecord.class);
    kept =
        getRuntimeContext()
            .getMapState(
                new MapStateDescriptor<>(
                    "kept-by-window",
                    Types.LONG,
                    ObjectArrayTypeInfo.getInfoFor(PerturbedRecord[].class, record)));
    seen =
        getRuntimeContext()
            .getMapState(new MapStateDescriptor<>("seen-by-window", Types.LONG, Types.LONG));
    refused = new DeadLetterCounters(getRuntimeContext().getMetricGroup(), REASONS);
    released =
        fingerprint == null ? null : ReleasedRecords.register(getRuntimeContext().getMetricGroup());
  }

  @Override
  public void processElement(PerturbedRecord r, Context ctx, Collector<PerturbedRecord> out)
      throws Exception {
    long now = clock.now(ctx.timerService().currentProcessingTime());
    long watermark = ctx.timerService().currentWatermark();
    ContributionRule.Placement placement =
        rule.place(
            now,
            watermark,
            r.getTimestamp(),
            r.getTimestampType() == null ? null : r.getTimestampType().name);
    if (placement instanceof ContributionRule.Refused refusal) {
      deadLetter(ctx, r, refusal.reason(), refusal.time());
      return;
    }
    long window = ((ContributionRule.Placed) placement).window();
    Long before = seen.get(window);
    long n = before == null ? 1 : before + 1;
    seen.put(window, n);
    PerturbedRecord[] slots = kept.get(window);
    if (slots == null) {
      slots = new PerturbedRecord[bound.records()];
      if (!rule.closesByWatermark()) {
        ctx.timerService().registerProcessingTimeTimer(rule.releaseAt(window));
      } else {
        ctx.timerService().registerEventTimeTimer(rule.releaseAt(window));
        if (watermark == Long.MIN_VALUE) {
          ctx.timerService()
              .registerProcessingTimeTimer(now + bound.maxLag().toMillis() + NO_WATERMARK_AFTER);
        }
      }
    }
    int slot = ContributionRule.slotFor(n, bound.records(), random::nextLong);
    if (slot < 0) {
      deadLetter(ctx, r, ReasonCode.CONTRIBUTION_BOUND, r.getTimestamp());
      return;
    }
    PerturbedRecord replaced = slots[slot];
    slots[slot] = r;
    kept.put(window, slots);
    if (replaced != null) {
      deadLetter(ctx, replaced, ReasonCode.CONTRIBUTION_BOUND, replaced.getTimestamp());
    }
  }

  /**
   * Releases the kept records of every window that has closed, and forgets the window; on {@code
   * log-append-time} a processing-time timer only checks that a watermark has come.
   */
  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<PerturbedRecord> out)
      throws Exception {
    if (rule.closesByWatermark() && ctx.timeDomain() == TimeDomain.PROCESSING_TIME) {
      if (ctx.timerService().currentWatermark() == Long.MIN_VALUE) {
        throw new IllegalStateException(NO_WATERMARK);
      }
      return;
    }
    if (!rule.closesByWatermark()) {
      clock.now(timestamp);
    }
    List<Long> closed = new ArrayList<>();
    for (Map.Entry<Long, PerturbedRecord[]> e : kept.entries()) {
      if (rule.releaseAt(e.getKey()) <= timestamp) {
        closed.add(e.getKey());
        for (PerturbedRecord r : e.getValue()) {
          if (r != null) {
            if (released != null) {
              r.setFingerprint(fingerprint);
              released.add(r.getEpsilon());
            }
            out.collect(r);
          }
        }
      }
    }
    for (Long window : closed) {
      kept.remove(window);
      seen.remove(window);
    }
  }

  private void deadLetter(Context ctx, PerturbedRecord r, ReasonCode reason, long time) {
    refused.inc(reason);
    DeadLetter letter =
        new DeadLetter(
            reason,
            null,
            message(reason),
            Source.kafka(r.getSourceTopic(), r.getSourcePartition(), r.getSourceOffset()));
    ctx.output(DeadLetters.TAG, DeadLetters.record(letter, time));
  }

  /** What to know, never a value of the record. */
  private String message(ReasonCode reason) {
    return switch (reason) {
      case CONTRIBUTION_BOUND ->
          "the user sent more than "
              + bound.records()
              + " records in the record's "
              + bound.window()
              + " window; "
              + bound.records()
              + " chosen at random among them are released";
      case CONTRIBUTION_WINDOW_CLOSED ->
          "the record's contribution window closed "
              + bound.maxLag()
              + " (its max-lag) after its end; its chosen records have left";
      default ->
          "the record's time cannot place it in a contribution window: a producer's timestamp"
              + " where the clock is log-append-time, or a broker time more than a window ahead";
    };
  }
}
