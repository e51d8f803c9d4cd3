package io.ogpm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * A pipeline against its baseline as JSON, repetition by repetition: each pair of runs gives a
 * ratio, and the spread of the ratios says how far to trust their median. Rates come with the
 * subject first; CPU per record with the baseline first, so that its ratio (the baseline's over the
 * subject's) is what the rates' ratio would be on a machine that only ran these jobs and whose
 * every core they kept busy.
 */
final class SideBySide {
  private SideBySide() {}

  /**
   * Writes into {@code o} the rates ({@code recordsPerSecond} against {@code
   * <baseline>RecordsPerSecond}, measured as {@code rateMeasure} says), then {@code cpu}: the
   * process's CPU per record, and {@code jobCpu}: the job's own threads' where the JVM measures
   * them; {@code withJit}: also each run's JIT milliseconds in {@code cpu}, where measured.
   *
   * @param subject what is compared, as the ratios' description names it ({@code perturbation})
   * @param baseline what it is compared with, the prefix of its keys ({@code identity})
   */
  static void write(
      ObjectNode o,
      String subject,
      List<Timing> runs,
      String baseline,
      List<Timing> baselineRuns,
      String rateMeasure,
      boolean withJit) {
    pairs(
        o,
        "recordsPerSecond",
        series(runs, Timing::rate),
        baseline + "RecordsPerSecond",
        series(baselineRuns, Timing::rate),
        false);
    o.put("measure", rateMeasure);
    String ratio = "; ratio: the " + baseline + "'s over the " + subject + "'s";
    ObjectNode cpu = o.putObject("cpu");
    pairs(
        cpu,
        baseline + "MicrosPerRecord",
        series(baselineRuns, Timing::cpuMicros),
        "microsPerRecord",
        series(runs, Timing::cpuMicros),
        true);
    cpu.put(
        "measure",
        "CPU time of the whole process (broker, clients, jobs, JIT) while the job ran, per record"
            + ratio);
    if (Stream.concat(baselineRuns.stream(), runs.stream()).allMatch(t -> t.jobCpuMicros() >= 0)) {
      ObjectNode job = o.putObject("jobCpu");
      pairs(
          job,
          baseline + "MicrosPerRecord",
          series(baselineRuns, Timing::jobCpuMicros),
          "microsPerRecord",
          series(runs, Timing::jobCpuMicros),
          true);
      job.put(
          "measure",
          "CPU time of the job's own threads (Flink tasks, Kafka source fetchers, the sinks' producers;"
              + " not the broker, the garbage collector or the JIT) per record"
              + ratio);
    }
    if (withJit
        && Stream.concat(baselineRuns.stream(), runs.stream()).allMatch(t -> t.jitMillis() >= 0)) {
      // Left out where the JVM does not measure it: a 0 would read as "no compilation".
      ArrayNode jit = cpu.putArray(baseline + "JitMillisRuns");
      baselineRuns.forEach(t -> jit.add(t.jitMillis()));
      ArrayNode subjectJit = cpu.putArray("jitMillisRuns");
      runs.forEach(t -> subjectJit.add(t.jitMillis()));
      cpu.put(
          "jitMeasure",
          "time the JIT compilers spent while each run's job ran (CompilationMXBean), in ms: part"
              + " of its CPU time, and one cause of the spread between runs of one pipeline");
    }
  }

  static double median(List<Double> xs) {
    List<Double> s = xs.stream().sorted().toList();
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  /** To three decimals, as every ratio is reported. */
  static double round(double x) {
    return Math.round(x * 1000) / 1000.0;
  }

  private static List<Double> series(List<Timing> runs, ToDoubleFunction<Timing> figure) {
    return runs.stream().map(t -> figure.applyAsDouble(t)).toList();
  }

  /**
   * The medians of a pair's two series, the median of their ratios, and the spread of the ratios;
   * {@code fractional}: the series to 0.01, not to 1.
   */
  private static void pairs(
      ObjectNode o,
      String name,
      List<Double> a,
      String otherName,
      List<Double> b,
      boolean fractional) {
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      ratios.add(a.get(i) / b.get(i));
    }
    o.set(name, figure(median(a), fractional));
    o.set(otherName, figure(median(b), fractional));
    o.put("ratio", round(median(ratios)));
    o.put(
        "ratioMin",
        round(ratios.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN)));
    o.put(
        "ratioMax",
        round(ratios.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN)));
    ArrayNode all = o.putArray("ratios");
    ratios.forEach(r -> all.add(round(r)));
    ArrayNode as = o.putArray(name + "Runs");
    a.forEach(x -> as.add(figure(x, fractional)));
    ArrayNode bs = o.putArray(otherName + "Runs");
    b.forEach(x -> bs.add(figure(x, fractional)));
  }

  private static JsonNode figure(double x, boolean fractional) {
    return fractional
        ? JsonNodeFactory.instance.numberNode(Math.round(x * 100) / 100.0)
        : JsonNodeFactory.instance.numberNode(Math.round(x));
  }
}
