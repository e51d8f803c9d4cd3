package io.ogpm.benchmarks;

import io.ogpm.bench.BenchConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.LegacyRecordPerturber;
import io.ogpm.record.Outcome;
import io.ogpm.record.RecordPerturber;
import io.ogpm.record.Source;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The perturb operator's record path, single thread: JSON bytes in, output JSON bytes (or a dead
 * letter) out, for the MotionSense sample (6 perturbed fields, 3 passthrough, 12 values dropped per
 * record) under its configuration. {@code streaming} is the perturber in use (compiled plan, one
 * streaming parse, output written without a tree); {@code tree} the tree-based reference (read into
 * a tree, output built as a tree, then serialised) that the core's tests hold it to. Each operation
 * is one record. Run from the repository root: {@code java -jar
 * tools/benchmarks/target/benchmarks.jar RecordPathBenchmark}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class RecordPathBenchmark {
  static final int RECORDS = 8076;

  @Param({"streaming", "tree"})
  public String implementation;

  @Param({"secure", "keyed"})
  public String randomness;

  @Param("sample-data")
  public String sampleData;

  private BiFunction<byte[], Source, Outcome> perturber;
  private byte[][] records;
  private final Source source = Source.kafka("ogpm.raw", 0, 0);

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Path dir = Path.of(sampleData);
    PrivacyConfig config = PrivacyConfig.parse(BenchConfig.sixFields());
    List<String> lines =
        Files.readAllLines(dir.resolve("motionsense-dws1.jsonl"), StandardCharsets.UTF_8);
    records = new byte[RECORDS][];
    for (int i = 0; i < RECORDS; i++) {
      records[i] = lines.get(i).getBytes(StandardCharsets.UTF_8);
    }
    RandomnessMode mode =
        randomness.equals("keyed")
            ? RandomnessMode.keyed(
                "benchmark key, 32 bytes long....".getBytes(StandardCharsets.US_ASCII))
            : RandomnessMode.secure();
    perturber =
        implementation.equals("tree")
            ? new LegacyRecordPerturber(config, mode)::perturb
            : new RecordPerturber(config, mode)::perturb;
    for (byte[] r : records) {
      if (!(perturber.apply(r, source) instanceof Outcome.Perturbed)) {
        throw new IllegalStateException("a sample record was refused");
      }
    }
  }

  /** The whole sample, record after record. */
  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public void perturbSample(Blackhole out) {
    for (byte[] r : records) {
      out.consume(perturber.apply(r, source));
    }
  }
}
