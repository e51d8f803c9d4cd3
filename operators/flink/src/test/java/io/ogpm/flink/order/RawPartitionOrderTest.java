package io.ogpm.flink.order;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.flink.CapturedMetrics;
import io.ogpm.flink.DeadLetterRecord;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.perturb.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The order stage in Flink's keyed operator test harness (real keyed state, timers, snapshots): the
 * budget's subtasks hand it a raw partition's records and dead letters in any order; it passes them
 * on in the partition's order, dead letters at their places, across a restore, and gives up a
 * number that never comes after its patience, losing nothing.
 */
class RawPartitionOrderTest {
  private final List<AutoCloseable> open = new ArrayList<>();
  private final CapturedMetrics metrics = new CapturedMetrics();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private KeyedOneInputStreamOperatorTestHarness<Tuple2<String, Integer>, Placed, PerturbedRecord>
      harness(OperatorSubtaskState restore) throws Exception {
    var h =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new KeyedProcessOperator<>(new RawPartitionOrder()),
            new RawPartitionOrder.RawPartitionOf(),
            RawPartitionOrder.KEY_TYPE,
            metrics.environment);
    open.add(h);
    if (restore != null) {
      h.initializeState(restore);
    }
    h.open();
    return h;
  }

  /**
   * Record {@code sequence} of raw partition {@code partition}: odd ones refused (dead letters).
   */
  static Placed placed(int partition, long sequence) {
    return placed("raw", partition, sequence);
  }

  /** The same, of a raw partition of {@code topic}: ids {@code <topic>:<partition>#<sequence>}. */
  static Placed placed(String topic, int partition, long sequence) {
    String id = ("raw".equals(topic) ? "" : topic + ":") + partition + "#" + sequence;
    PerturbedRecord r =
        new PerturbedRecord(
                id.getBytes(StandardCharsets.UTF_8),
                "{}".getBytes(StandardCharsets.UTF_8),
                1.0,
                "u",
                1_000 + sequence,
                TimestampType.LOG_APPEND_TIME)
            .from(topic, partition, 10 * sequence);
    r.setSequence(sequence);
    if (sequence % 2 == 0) {
      return Placed.released(r);
    }
    return Placed.refused(
        r, new DeadLetterRecord(id.getBytes(StandardCharsets.UTF_8), "budget-exhausted", 0));
  }

  /** What was passed on, records and dead letters alike, as partition#sequence, in order each. */
  static List<String> passed(
      KeyedOneInputStreamOperatorTestHarness<Tuple2<String, Integer>, Placed, PerturbedRecord> h) {
    List<String> out = new ArrayList<>();
    for (PerturbedRecord r : h.extractOutputValues()) {
      out.add(new String(r.getKey(), StandardCharsets.UTF_8));
    }
    var side = h.getSideOutput(DeadLetters.TAG);
    if (side != null) {
      for (StreamRecord<DeadLetterRecord> d : side) {
        out.add(new String(d.getValue().getValue(), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  static List<String> ids(int partition, long from, long to) {
    List<String> out = new ArrayList<>();
    for (long s = from; s < to; s++) {
      out.add(partition + "#" + s);
    }
    return out;
  }

  @Test
  void passesEachPartitionOnInItsOrderWithDeadLettersAtTheirPlaces() throws Exception {
    var h = harness(null);
    // Two partitions, 200 numbers each, shuffled together as several budget subtasks deliver them.
    List<Placed> arrivals = new ArrayList<>();
    for (long s = 0; s < 200; s++) {
      arrivals.add(placed(0, s));
      arrivals.add(placed(1, s));
    }
    Collections.shuffle(arrivals, new Random(48));
    for (Placed p : arrivals) {
      h.processElement(p, 0);
    }
    List<String> records = new ArrayList<>();
    for (PerturbedRecord r : h.extractOutputValues()) {
      records.add(new String(r.getKey(), StandardCharsets.UTF_8));
    }
    List<String> deadLetters = new ArrayList<>();
    for (StreamRecord<DeadLetterRecord> d : h.getSideOutput(DeadLetters.TAG)) {
      deadLetters.add(new String(d.getValue().getValue(), StandardCharsets.UTF_8));
    }
    for (int partition = 0; partition < 2; partition++) {
      String prefix = partition + "#";
      assertThat(records.stream().filter(id -> id.startsWith(prefix)).toList())
          .as("partition %d's released records", partition)
          .isEqualTo(ids(partition, 0, 200).stream().filter(id -> even(id)).toList());
      assertThat(deadLetters.stream().filter(id -> id.startsWith(prefix)).toList())
          .as("partition %d's dead letters", partition)
          .isEqualTo(ids(partition, 0, 200).stream().filter(id -> !even(id)).toList());
    }
    assertThat(outOfOrder()).isZero();
  }

  @Test
  void partitionsOfTwoTopicsWithTheSameNumberAreKeptApart() throws Exception {
    var h = harness(null);
    h.processElement(placed("other", 0, 1), 0);
    h.processElement(placed(0, 0), 0);
    assertThat(passed(h)).as("other:0 still waits for its 0").containsExactly("0#0");
    h.processElement(placed(0, 1), 0);
    h.processElement(placed("other", 0, 0), 0);
    assertThat(passed(h)).containsExactlyInAnyOrder("0#0", "0#1", "other:0#0", "other:0#1");
  }

  @Test
  void holdsWhatFollowsAMissingNumberUntilItComesEvenADeadLetter() throws Exception {
    var h = harness(null);
    h.processElement(placed(0, 2), 0);
    h.processElement(placed(0, 3), 0);
    assertThat(passed(h)).as("waiting for 0 and 1").isEmpty();
    h.processElement(placed(0, 0), 0);
    assertThat(passed(h)).as("1, a dead letter, still missing").containsExactly("0#0");
    h.processElement(placed(0, 1), 0);
    assertThat(passed(h)).containsExactlyInAnyOrder("0#0", "0#1", "0#2", "0#3");
    assertThat(h.extractOutputValues())
        .extracting(PerturbedRecord::getSequence)
        .containsExactly(0L, 2L);
  }

  @Test
  void keepsWaitingRecordsAcrossARestore() throws Exception {
    var h = harness(null);
    h.processElement(placed(0, 0), 0);
    h.processElement(placed(0, 2), 0);
    h.processElement(placed(0, 4), 0);
    OperatorSubtaskState snapshot = h.snapshot(1, 1);
    assertThat(passed(h)).containsExactly("0#0");

    var restored = harness(snapshot);
    restored.processElement(placed(0, 3), 0);
    assertThat(passed(restored)).isEmpty();
    restored.processElement(placed(0, 1), 0);
    assertThat(passed(restored)).containsExactlyInAnyOrder("0#1", "0#2", "0#3", "0#4");
    restored.processElement(placed(0, 5), 0);
    assertThat(passed(restored)).contains("0#5");
    assertThat(outOfOrder()).isZero();
  }

  @Test
  void givesUpANumberThatNeverComesAfterItsPatienceAndLosesNothing() throws Exception {
    var h = harness(null);
    h.setProcessingTime(0);
    h.processElement(placed(0, 0), 0);
    h.processElement(placed(0, 3), 0);
    h.processElement(placed(0, 4), 0);
    h.processElement(placed(0, 6), 0);
    h.setProcessingTime(RawPartitionOrder.PATIENCE.toMillis() - 1);
    assertThat(passed(h)).as("within the patience").containsExactly("0#0");

    h.setProcessingTime(RawPartitionOrder.PATIENCE.toMillis());
    assertThat(passed(h)).as("1 and 2 given up").containsExactlyInAnyOrder("0#0", "0#3", "0#4");
    assertThat(outOfOrder()).isEqualTo(1);

    // 6 still waits for 5, with a patience of its own.
    h.processElement(placed(0, 2), 0);
    assertThat(passed(h)).as("2, behind its place, passed on at once").contains("0#2");
    assertThat(outOfOrder()).isEqualTo(2);
    h.setProcessingTime(2 * RawPartitionOrder.PATIENCE.toMillis());
    assertThat(passed(h)).contains("0#6");
    assertThat(outOfOrder()).isEqualTo(3);
    h.processElement(placed(0, 7), 0);
    assertThat(passed(h)).contains("0#7").hasSize(6);
    assertThat(outOfOrder()).isEqualTo(3);
  }

  @Test
  void aMissingNumberThatComesWithinThePatienceCostsNothing() throws Exception {
    var h = harness(null);
    h.setProcessingTime(0);
    h.processElement(placed(0, 1), 0);
    h.setProcessingTime(RawPartitionOrder.PATIENCE.toMillis() / 2);
    h.processElement(placed(0, 0), 0);
    h.processElement(placed(0, 3), 0);
    // The first timer finds progress since it was set: it watches again, from 2.
    h.setProcessingTime(RawPartitionOrder.PATIENCE.toMillis());
    h.processElement(placed(0, 2), 0);
    h.setProcessingTime(3 * RawPartitionOrder.PATIENCE.toMillis());
    assertThat(passed(h)).containsExactlyInAnyOrder("0#0", "0#1", "0#2", "0#3");
    assertThat(outOfOrder()).isZero();
  }

  @Test
  void placedIsAFlinkPojoWrittenWithoutKryo() throws Exception {
    TypeInformation<Placed> type = TypeInformation.of(Placed.class);
    assertThat(type).isInstanceOf(PojoTypeInfo.class);
    SerializerConfigImpl noKryo = new SerializerConfigImpl();
    noKryo.setGenericTypes(false);
    TypeSerializer<Placed> serializer = type.createSerializer(noKryo);
    for (Placed p : List.of(placed(3, 8), placed(3, 9))) {
      DataOutputSerializer out = new DataOutputSerializer(256);
      serializer.serialize(p, out);
      Placed back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
      assertThat(back).usingRecursiveComparison().isEqualTo(p);
    }
  }

  private long outOfOrder() {
    return ((Counter) metrics.operator.get("recordsOutOfOrder")).getCount();
  }

  private static boolean even(String id) {
    return Long.parseLong(id.substring(id.indexOf('#') + 1)) % 2 == 0;
  }
}
