package io.ogpm.benchmarks;

import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.budget.BudgetFunction;
import io.ogpm.flink.perturb.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.apache.kafka.common.record.TimestampType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the per-user budget's state costs a record, apart from the shuffle and the sink, in Flink's
 * keyed operator test harness, one thread: {@code budget=value}, {@link BudgetFunction} (one value
 * per user, its periods and their spending, read and written per record), against {@code
 * budget=none}, an operator on the same keyed stream that releases each record as it comes. On the
 * heap state backend and on RocksDB ({@code backend}). Records cycle through {@code users} users,
 * as in {@code bench pipeline} (1,000) and with a hundred times more, whose state does not fit a
 * core's cache. Each operation is one record; the harness's own costs (its output queue, setting
 * the key) are in all. Run from the repository root: {@code java -jar
 * tools/benchmarks/target/benchmarks.jar BudgetBenchmark}. Memory and checkpoints, up to ten
 * million users: {@link BudgetStateCost}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class BudgetBenchmark {
  @Param({"value", "none"})
  public String budget;

  @Param({"hashmap", "rocksdb"})
  public String backend;

  @Param({"1000", "100000"})
  public int users;

  private KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord> harness;
  private PerturbedRecord[] records;
  private long now;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    now = System.currentTimeMillis();
    records = new PerturbedRecord[users];
    for (int i = 0; i < users; i++) {
      // The sample's record cost; a budget no user exhausts, so every record is released.
      records[i] =
          new PerturbedRecord(
                  ("b" + i).getBytes(StandardCharsets.UTF_8),
                  new byte[240],
                  5.5,
                  "u" + i,
                  now,
                  TimestampType.LOG_APPEND_TIME)
              .from("raw", 0, i);
    }
    BudgetConfig unspent = BudgetConfig.of(1e15, Duration.ofDays(1));
    KeyedProcessFunction<String, PerturbedRecord, PerturbedRecord> f =
        switch (budget) {
          case "value" -> new BudgetFunction(unspent, "fingerprint");
          case "none" -> new Release();
          default -> throw new IllegalArgumentException("budget: value or none, got " + budget);
        };
    harness =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new KeyedProcessOperator<>(f), PerturbedRecord::getUser, Types.STRING);
    harness.setStateBackend(StateBackends.named(backend));
    harness.open();
    // The harness's clock starts at 0, which would put every record's period ahead of it (refused).
    harness.setProcessingTime(now);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    var refused = harness.getSideOutput(DeadLetters.TAG);
    if (refused != null && !refused.isEmpty()) {
      throw new IllegalStateException(
          "the budget refused " + refused.size() + " records: the benchmark timed dead letters");
    }
    harness.close();
  }

  @Benchmark
  public void record() throws Exception {
    PerturbedRecord r = records[next];
    next = next + 1 == records.length ? 0 : next + 1;
    harness.processElement(r, now);
    if ((next & 4095) == 0) {
      harness.getOutput().clear();
    }
  }

  /** The budget's place with no state: each record released as it comes. */
  public static final class Release
      extends KeyedProcessFunction<String, PerturbedRecord, PerturbedRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public void processElement(PerturbedRecord r, Context ctx, Collector<PerturbedRecord> out) {
      r.setFingerprint("fingerprint");
      out.collect(r);
    }
  }
}
