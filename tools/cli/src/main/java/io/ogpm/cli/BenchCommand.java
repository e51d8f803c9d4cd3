package io.ogpm.cli;

import io.ogpm.bench.Bench;
import io.ogpm.bench.BenchCharts;
import io.ogpm.config.ConfigException;
import io.ogpm.flink.EstimationMethod;
import io.ogpm.jobs.cli.UsageError;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Measures the sampler, the record path and the pipelines on this machine; prints one JSON object.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Measures on this machine and prints one JSON object: 'samplers' (values/s per mechanism and"
          + " randomness mode, one thread), 'records' (JSON record in, JSON record out through the"
          + " operator's code, one thread: records/s and bytes allocated per record, also by number of"
          + " fields; the aggregation's work by records per window, and on the sample's windows of"
          + " the pipeline's aggregation), 'pipeline' (embedded Kafka and Flink MiniCluster: perturbation against an identity"
          + " map, aggregation against a count per window, alternated, as ratios)."
    })
final class BenchCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "WHAT", description = "samplers | records | pipeline")
  String what;

  @Option(
      names = "--json",
      description = "JSON output (the only output on stdout; progress lines go to stderr).")
  boolean json;

  @Option(
      names = "--seconds",
      defaultValue = "3",
      description = "samplers, records: measured seconds per case. Default: ${DEFAULT-VALUE}.")
  double seconds;

  @Option(
      names = "--warmup",
      defaultValue = "2",
      description = "samplers, records: warm-up seconds per case. Default: ${DEFAULT-VALUE}.")
  double warmup;

  @Option(
      names = "--fields",
      split = ",",
      defaultValue = "1,2,4,6,12,24",
      description = "records: numbers of fields of the sweep. Default: ${DEFAULT-VALUE}.")
  int[] fields;

  /**
   * A string, not an int[]: picocli would refuse the empty list ({@code --windows=}) that turns the
   * sweep off.
   */
  @Option(
      names = "--windows",
      paramLabel = "N[,N...]",
      defaultValue = "1000,10000,100000,1000000",
      description =
          "records: records per window of the aggregation sweep (empty, --windows=: none, and no sample windows either). Default: ${DEFAULT-VALUE}.")
  String windows;

  @Option(
      names = "--passthrough",
      paramLabel = "NAME[,NAME...]",
      split = ",",
      description =
          "records: also measure the"
              + " sample with these of its fields passed through besides its configuration's (e.g. gravity, an object of three"
              + " decimals), as sampleWithPassthrough. Default: none.")
  List<String> passthrough = List.of();

  @Option(
      names = "--chart",
      paramLabel = "DIR",
      description =
          "records: also draw the sweeps as DIR/throughput-by-fields.png and DIR/throughput-by-window.png.")
  Path chart;

  @Option(
      names = "--records",
      defaultValue = "200000",
      description = "pipeline: records per run. Default: ${DEFAULT-VALUE}.")
  int records;

  @Option(
      names = "--repetitions",
      defaultValue = "3",
      description = "pipeline: pairs of runs. Default: ${DEFAULT-VALUE}.")
  int repetitions;

  @Option(
      names = "--parallelism",
      defaultValue = "1",
      description = "pipeline: parallelism of every job. Default: ${DEFAULT-VALUE}.")
  int parallelism;

  @Option(
      names = "--records-per-window",
      defaultValue = "100000",
      description =
          "pipeline: records per event-time window of the aggregations. Default: ${DEFAULT-VALUE}.")
  int recordsPerWindow;

  @Option(
      names = "--method",
      defaultValue = "em",
      description =
          "pipeline: the aggregation's headline histogram and"
              + " mean, raw or em (the EMS reconstruction, the aggregate job's default). Default: ${DEFAULT-VALUE}.")
  String method;

  @Option(
      names = "--warmup-rounds",
      defaultValue = "2",
      description =
          "pipeline: untimed rounds first, each running every"
              + " pipeline compared once. Default: ${DEFAULT-VALUE}.")
  int warmupRounds;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (seconds <= 0 || warmup < 0) {
      throw new UsageError(
          "--seconds must be > 0 and --warmup >= 0, got " + seconds + " and " + warmup);
    }
    if (records < 1 || repetitions < 1 || parallelism < 1 || recordsPerWindow < 1) {
      throw new UsageError(
          "--records, --repetitions, --parallelism and --records-per-window must be >= 1");
    }
    if (!method.equals("raw") && !method.equals("em")) {
      throw new UsageError("--method must be raw or em, got '" + method + "'");
    }
    int[] windowSizes = windowSizes();
    for (int k : fields) {
      if (k < 1) {
        throw new UsageError("--fields must be >= 1, got " + k);
      }
    }
    Duration measure = Duration.ofMillis(Math.round(seconds * 1000));
    Duration warm = Duration.ofMillis(Math.round(warmup * 1000));
    Bench.Result result =
        switch (what) {
          case "samplers" -> Bench.samplers(warm, measure);
          case "records" -> records(warm, measure, windowSizes);
          case "pipeline" ->
              Bench.pipeline(
                  new Bench.PipelineOptions(
                      records,
                      repetitions,
                      parallelism,
                      recordsPerWindow,
                      method.equals("em") ? EstimationMethod.EM : EstimationMethod.RAW,
                      Math.max(0, warmupRounds)),
                  spec.commandLine().getErr());
          default ->
              throw new UsageError(
                  "bench: WHAT must be samplers, records or pipeline, got '" + what + "'");
        };
    if (chart != null && what.equals("records")) {
      BenchCharts.write(result.json(), chart);
    }
    spec.commandLine().getOut().println(result.json());
    spec.commandLine().getOut().flush();
    return 0;
  }

  private Bench.Result records(Duration warm, Duration measure, int[] windowSizes) {
    try {
      return Bench.records(warm, measure, fields, windowSizes, passthrough);
    } catch (ConfigException e) {
      throw new UsageError("--passthrough: " + e.getMessage());
    }
  }

  /** {@code --windows}: comma-separated records per window, each >= 1; none when blank. */
  private int[] windowSizes() {
    if (windows.isBlank()) {
      return new int[0];
    }
    String[] parts = windows.split(",", -1);
    int[] sizes = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      try {
        sizes[i] = Integer.parseInt(parts[i].strip());
      } catch (NumberFormatException e) {
        sizes[i] = 0;
      }
      if (sizes[i] < 1) {
        throw new UsageError(
            "--windows must be whole numbers >= 1 separated by commas, or empty, got '"
                + parts[i]
                + "'");
      }
    }
    return sizes;
  }
}
