package io.ogpm.benchmarks;

import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.budget.BudgetFunction;
import io.ogpm.flink.perturb.DeadLetters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.storage.FileSystemCheckpointStorage;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.kafka.common.record.TimestampType;

/**
 * What the per-user budget costs as its users grow, on the heap state backend and on RocksDB with
 * incremental checkpoints: records per second, memory, and checkpoints' size and duration, for
 * 1,000, 100,000 and 10,000,000 users (or those given), in Flink's keyed operator test harness, one
 * thread, checkpoints written to a local directory as a job's go to its checkpoint storage. RocksDB
 * has the memory of a task slot ({@link StateBackends#SLOT_MEMORY}).
 *
 * <p>Per case (users {@code U}, backend): {@code U} records, one per user (each user's state
 * created), then {@code max(U, 2,000,000)} records cycling through the users (state read and
 * written), timed as records per second; then a checkpoint (the first: the whole state on both
 * backends), and the next checkpoint after 1 % of the users sent one more record, which is
 * incremental on RocksDB (the files written since the first) and whole on the heap. Memory: the
 * used heap after full collections, less that before the case; the process's resident set likewise
 * ({@code native}: with the heap touched in advance, {@code -XX:+AlwaysPreTouch}, it is RocksDB's
 * memory outside the heap); RocksDB's files on local disk. Each case runs in a JVM of its own, with
 * the options given to this one, one after the other.
 *
 * <p>Run from the repository root (each case's JVM gets {@link #CASE_JVM_DEFAULT}, or the options
 * of {@code -Dogpm.budget.jvm=...}): {@code java -cp tools/benchmarks/target/benchmarks.jar
 * io.ogpm.benchmarks.BudgetStateCost [users,... [hashmap|rocksdb|rocksdb-plain,...]]} (default
 * {@code 1000,100000,10000000}, both backends). Prints a Markdown table. See
 * docs/state-backends.md.
 */
public final class BudgetStateCost {
  static final BudgetConfig UNSPENT = BudgetConfig.of(1e15, Duration.ofDays(1));
  static final int TIMED_RECORDS = 2_000_000;
  static final byte[] VALUE = new byte[240];

  /** The system property with the JVM options of each case. */
  static final String CASE_JVM = "ogpm.budget.jvm";

  /**
   * A heap for ten million users on the heap backend, touched in advance so that the resident set
   * grows only with what lies outside the heap (RocksDB).
   */
  static final String CASE_JVM_DEFAULT = "-Xms10g -Xmx10g -XX:+UseParallelGC -XX:+AlwaysPreTouch";

  private final long now = System.currentTimeMillis();
  private long offset;

  public static void main(String[] args) throws Exception {
    if (args.length == 3 && args[0].equals("--case")) {
      System.out.println(new BudgetStateCost().run(Integer.parseInt(args[1]), args[2]));
      return;
    }
    int[] users =
        args.length > 0
            ? Stream.of(args[0].split(",")).mapToInt(Integer::parseInt).toArray()
            : new int[] {1_000, 100_000, 10_000_000};
    List<String> backends =
        args.length > 1 ? List.of(args[1].split(",")) : List.of("hashmap", "rocksdb");
    System.out.println(
        "| users | backend | records/s | heap MiB | heap B/user | native MiB | RocksDB files MiB"
            + " | checkpoint MiB | checkpoint s | next checkpoint MiB | next checkpoint s |");
    System.out.println("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (int u : users) {
      for (String backend : backends) {
        System.out.println(inItsOwnJvm(u, backend));
      }
    }
  }

  /**
   * Runs one case in a JVM of its own, with the options of {@link #CASE_JVM}: state a case leaves
   * behind (the harness's heap backend is not all unreachable once closed) would count against the
   * next one.
   */
  private static String inItsOwnJvm(int users, String backend) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(System.getProperty(CASE_JVM, CASE_JVM_DEFAULT).strip().split("\\s+")));
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            BudgetStateCost.class.getName(),
            "--case",
            Integer.toString(users),
            backend));
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException("the case " + users + " " + backend + " failed: " + out);
    }
    return out.lines()
        .filter(l -> l.startsWith("|"))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "no row from the case " + users + " " + backend + ": " + out));
  }

  private String run(int users, String backend) throws Exception {
    Path dir = Files.createTempDirectory("ogpm-budget-state");
    try {
      var harness =
          new KeyedOneInputStreamOperatorTestHarness<>(
              new KeyedProcessOperator<>(new BudgetFunction(UNSPENT, "fingerprint")),
              PerturbedRecord::getUser,
              Types.STRING);
      Path rocksDb = dir.resolve("rocksdb");
      harness.setStateBackend(StateBackends.named(backend, rocksDb));
      harness.setCheckpointStorage(
          new FileSystemCheckpointStorage(dir.resolve("checkpoints").toUri()));
      harness.open();
      harness.setProcessingTime(
          now); // the harness's clock starts at 0, before every record's period
      // Measured with the operator open and empty, so that only its users' state is counted.
      long heapBefore = usedHeap();
      long residentBefore = resident();
      for (int i = 0; i < users; i++) {
        send(harness, i);
      }
      int timed = Math.max(users, TIMED_RECORDS);
      long t0 = System.nanoTime();
      for (int i = 0; i < timed; i++) {
        send(harness, i % users);
      }
      double perSecond = timed / ((System.nanoTime() - t0) / 1e9);
      t0 = System.nanoTime();
      OperatorSubtaskState full = harness.snapshot(1, now);
      double fullSeconds = (System.nanoTime() - t0) / 1e9;
      harness.notifyOfCompletedCheckpoint(1);
      for (int i = 0; i < users; i += 100) {
        send(harness, i);
      }
      t0 = System.nanoTime();
      OperatorSubtaskState next = harness.snapshot(2, now);
      double nextSeconds = (System.nanoTime() - t0) / 1e9;
      var refused = harness.getSideOutput(DeadLetters.TAG);
      if (refused != null && !refused.isEmpty()) {
        throw new IllegalStateException("the budget refused " + refused.size() + " records");
      }
      long heap = usedHeap() - heapBefore;
      long resident = resident() - residentBefore;
      String files =
          backend.startsWith("rocksdb")
              ? String.format(Locale.ROOT, "%,.0f", mib(size(rocksDb)))
              : "-";
      harness.close();
      return String.format(
          Locale.ROOT,
          "| %,d | %s | %,.0f | %,.0f | %,.0f | %,.0f | %s | %,.2f | %.2f | %,.2f | %.2f |",
          users,
          backend,
          perSecond,
          mib(heap),
          (double) heap / users,
          mib(resident),
          files,
          mib(full.getStateSize()),
          fullSeconds,
          mib(next.getCheckpointedSize()),
          nextSeconds);
    } finally {
      delete(dir);
    }
  }

  private void send(
      KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord> h, int user)
      throws Exception {
    PerturbedRecord r =
        new PerturbedRecord(VALUE, VALUE, 5.5, "u" + user, now, TimestampType.LOG_APPEND_TIME)
            .from("raw", 0, offset++);
    h.processElement(r, now);
    if ((offset & 4095) == 0) {
      h.getOutput().clear();
    }
  }

  private static double mib(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }

  private static long usedHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** The process's resident set (Linux), in bytes. */
  private static long resident() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
      return 0;
    } catch (IOException e) {
      return 0;
    }
  }

  private static long size(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    } catch (IOException | UncheckedIOException e) {
      return 0;
    }
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
