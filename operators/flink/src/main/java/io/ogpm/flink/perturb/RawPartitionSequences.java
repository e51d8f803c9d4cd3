package io.ogpm.flink.perturb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.runtime.state.FunctionInitializationContext;

/**
 * Numbers the records of each raw partition 0, 1, 2... in the order the source reads them, so that
 * a stage after a shuffle (the budget's, by user) can put them back in that order ({@code
 * io.ogpm.flink.order.RawPartitionOrder}). The next number of every partition is checkpointed, so
 * that the numbering goes on across restores where the source's offsets go on.
 *
 * <p>Operator state, union-redistributed: at a restore every subtask receives every partition's
 * number, since the source may assign a partition to another subtask (a rescale). A partition is
 * read by one subtask at a time and its number only grows, so the merge keeps the largest: the
 * owner's, never a stale copy that another subtask kept from an earlier restore. Not thread-safe:
 * one instance per subtask.
 */
@Internal
public final class RawPartitionSequences {
  private static final ListStateDescriptor<Tuple3<String, Integer, Long>> DESCRIPTOR =
      new ListStateDescriptor<>(
          "next-sequence-by-raw-partition",
          new TupleTypeInfo<>(Types.STRING, Types.INT, Types.LONG));

  private final Map<RawPartition, long[]> next = new HashMap<>();
  private ListState<Tuple3<String, Integer, Long>> state;

  /** The last partition numbered, and its counter: consecutive records mostly share one. */
  private String lastTopic;

  private int lastPartition = -1;
  private long[] lastCounter;

  /** Registers the state and merges what a restore brings. */
  public void initialize(FunctionInitializationContext context) throws Exception {
    state = context.getOperatorStateStore().getUnionListState(DESCRIPTOR);
    for (Tuple3<String, Integer, Long> restored : state.get()) {
      long[] counter =
          next.computeIfAbsent(new RawPartition(restored.f0, restored.f1), p -> new long[1]);
      counter[0] = Math.max(counter[0], restored.f2);
    }
  }

  /** Writes every partition's next number. */
  public void snapshot() throws Exception {
    List<Tuple3<String, Integer, Long>> all = new ArrayList<>(next.size());
    next.forEach((p, counter) -> all.add(Tuple3.of(p.topic(), p.partition(), counter[0])));
    state.update(all);
  }

  /** The number of the partition's next record; the one after it is next. */
  public long next(String topic, int partition) {
    if (partition != lastPartition || !topic.equals(lastTopic)) {
      lastCounter = next.computeIfAbsent(new RawPartition(topic, partition), p -> new long[1]);
      lastTopic = topic;
      lastPartition = partition;
    }
    return lastCounter[0]++;
  }

  private record RawPartition(String topic, int partition) {}
}
