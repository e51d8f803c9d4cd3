package io.ogpm.flink.order;

import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.perturb.DeadLetters;
import java.time.Duration;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts each raw partition's released records and dead letters back in the partition's order after
 * the budget's shuffle by user, so that one writer, this subtask's sink, writes each raw
 * partition's records in order. Why: the budget's subtasks each write what they release; after a
 * restore they catch up at their own pace, and records of one raw partition, interleaved by several
 * writers, would step back in event time by as much as one trails another, arriving late at the
 * aggregation's windows and making them fire again.
 *
 * <p>Keyed by raw partition (topic and number). Records come numbered by the perturb operator
 * ({@link PerturbedRecord#getSequence()}, consecutive per partition, across restores); the next
 * expected number is passed on at once with every waiting one that follows it, the others wait in
 * keyed state. With aligned checkpoints nothing waits at a checkpoint: every record numbered before
 * the barrier reached this stage before it.
 *
 * <p>A number that never comes (the perturb operator's state dropped at a restore, say) must not
 * hold the partition's records forever: after {@link #PATIENCE} without progress, the waiting
 * records are passed on from the smallest, and a record that arrives behind its partition's order
 * later is passed on at once. Both are counted in {@code recordsOutOfOrder} and logged, never
 * dropped.
 */
@Internal
public final class RawPartitionOrder
    extends KeyedProcessFunction<Tuple2<String, Integer>, Placed, PerturbedRecord> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(RawPartitionOrder.class);

  /** How long a missing number may hold its partition's records (processing time). */
  public static final Duration PATIENCE = Duration.ofMinutes(1);

  /** The key type: the raw topic and partition. */
  public static final TypeInformation<Tuple2<String, Integer>> KEY_TYPE =
      new TupleTypeInfo<>(Types.STRING, Types.INT);

  /** Positions in the progress value. */
  private static final int NEXT = 0;

  private static final int WAITING = 1;

  /** The next number when the patience timer was set, or -1: no timer pending. */
  private static final int WATCHED = 2;

  private transient ValueState<long[]> progress;
  private transient MapState<Long, Placed> waiting;
  private transient Counter outOfOrder;

  @Override
  public void open(OpenContext context) {
    progress =
        getRuntimeContext()
            .getState(
                new ValueStateDescriptor<>(
                    "order-progress", PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO));
    waiting =
        getRuntimeContext()
            .getMapState(
                new MapStateDescriptor<>(
                    "order-waiting", Types.LONG, TypeInformation.of(Placed.class)));
    outOfOrder = getRuntimeContext().getMetricGroup().counter("recordsOutOfOrder");
  }

  @Override
  public void processElement(Placed p, Context ctx, Collector<PerturbedRecord> out)
      throws Exception {
    long[] at = progress.value();
    if (at == null) {
      at = new long[] {0, 0, -1};
    }
    if (p.getSequence() < at[NEXT]) {
      outOfOrder.inc();
      LOG.warn(
          "raw partition {}-{}: record {} reached the order stage after its place was given up;"
              + " passed on out of order",
          p.getTopic(),
          p.getPartition(),
          p.getSequence());
      pass(p, ctx, out);
      return;
    }
    if (p.getSequence() > at[NEXT]) {
      waiting.put(p.getSequence(), p);
      at[WAITING]++;
      if (at[WATCHED] < 0) {
        at[WATCHED] = at[NEXT];
        ctx.timerService()
            .registerProcessingTimeTimer(
                ctx.timerService().currentProcessingTime() + PATIENCE.toMillis());
      }
      progress.update(at);
      return;
    }
    pass(p, ctx, out);
    at[NEXT]++;
    drain(at, ctx, out);
    progress.update(at);
  }

  /** Gives up a number still missing since the timer was set; watches again while any waits. */
  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<PerturbedRecord> out)
      throws Exception {
    long[] at = progress.value();
    if (at == null || at[WATCHED] < 0) {
      return;
    }
    if (at[WAITING] > 0 && at[WATCHED] == at[NEXT]) {
      long first = Long.MAX_VALUE;
      for (Long waitingNumber : waiting.keys()) {
        first = Math.min(first, waitingNumber);
      }
      LOG.warn(
          "raw partition {}-{}: records {} to {} never reached the order stage within {};"
              + " passing on the {} records waiting after them",
          ctx.getCurrentKey().f0,
          ctx.getCurrentKey().f1,
          at[NEXT],
          first - 1,
          PATIENCE,
          at[WAITING]);
      outOfOrder.inc();
      at[NEXT] = first;
      drain(at, ctx, out);
    }
    at[WATCHED] = -1;
    if (at[WAITING] > 0) {
      at[WATCHED] = at[NEXT];
      ctx.timerService().registerProcessingTimeTimer(timestamp + PATIENCE.toMillis());
    }
    progress.update(at);
  }

  /** Passes on the waiting records that follow the next number without a gap. */
  private void drain(long[] at, Context ctx, Collector<PerturbedRecord> out) throws Exception {
    while (at[WAITING] > 0) {
      Placed following = waiting.get(at[NEXT]);
      if (following == null) {
        return;
      }
      waiting.remove(at[NEXT]);
      at[WAITING]--;
      at[NEXT]++;
      pass(following, ctx, out);
    }
  }

  private static void pass(Placed p, Context ctx, Collector<PerturbedRecord> out) {
    if (p.getRecord() != null) {
      out.collect(p.getRecord());
    } else {
      ctx.output(DeadLetters.TAG, p.getDeadLetter());
    }
  }

  /** The raw partition of a placed record: this stage's key. */
  public static final class RawPartitionOf implements KeySelector<Placed, Tuple2<String, Integer>> {
    private static final long serialVersionUID = 1L;

    @Override
    public Tuple2<String, Integer> getKey(Placed p) {
      return Tuple2.of(p.getTopic(), p.getPartition());
    }
  }
}
