package io.ogpm.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.flink.EstimationMethod;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The {@code bench} command's measurements, each one JSON object with the machine it ran on. */
public final class Bench {
  private Bench() {}

  /** One measurement, as JSON. */
  public record Result(ObjectNode json) {}

  public static Result samplers(Duration warmUp, Duration measure) {
    return withMachine(SamplerBench.run(warmUp, measure));
  }

  public static Result records(
      Duration warmUp,
      Duration measure,
      int[] fieldCounts,
      int[] windowSizes,
      List<String> passthrough) {
    return withMachine(RecordBench.run(warmUp, measure, fieldCounts, windowSizes, passthrough));
  }

  /**
   * What {@code bench pipeline} runs: {@code records} per input topic, {@code repetitions} timed
   * pairs after {@code warmUpRounds} untimed rounds, every job at {@code parallelism}, the
   * aggregations in windows of {@code recordsPerWindow} records with {@code method} as their
   * headline estimate.
   */
  public record PipelineOptions(
      int records,
      int repetitions,
      int parallelism,
      int recordsPerWindow,
      EstimationMethod method,
      int warmUpRounds) {}

  /** The pipelines side by side; progress lines go to {@code log}. */
  public static Result pipeline(PipelineOptions options, PrintWriter log) {
    return withMachine(new PipelineBench(options, log).run());
  }

  /**
   * When, on how many processors, and under what load (the load average over the last minute, at
   * the end).
   */
  private static Result withMachine(ObjectNode o) {
    ObjectNode m = o.putObject("machine");
    m.put("availableProcessors", Runtime.getRuntime().availableProcessors());
    m.put(
        "loadAverage",
        Math.round(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage() * 100)
            / 100.0);
    m.put("java", System.getProperty("java.version"));
    m.put("at", Instant.now().toString());
    return new Result(o);
  }
}
