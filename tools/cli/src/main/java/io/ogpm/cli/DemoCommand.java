package io.ogpm.cli;

import io.ogpm.demo.Demo;
import io.ogpm.jobs.cli.DurationConverter;
import io.ogpm.jobs.cli.UsageError;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The whole system on one machine: embedded Kafka, a Flink MiniCluster, both jobs, the sample. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Starts an embedded Kafka broker and a Flink MiniCluster (web UI on localhost), replays the"
          + " MotionSense sample into the raw topic, runs PerturbJob and AggregateJob, and prints each"
          + " window's estimates next to the true values (computed from the raw replay, for the demo"
          + " only). Exits 0 when the sample is consumed; --follow keeps everything running."
    })
final class DemoCommand implements Callable<Integer> {
  @Option(
      names = "--records",
      paramLabel = "N",
      defaultValue = "2147483647",
      description = "Replay at most N records. Default: all 8,076.")
  int records;

  @Option(
      names = "--data",
      paramLabel = "FILE",
      description = "JSON lines to replay instead of the bundled sample.")
  Path data;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "Field configuration instead of the bundled sample-data/ogpm.yaml.")
  Path config;

  @Option(
      names = "--report",
      paramLabel = "DIR",
      description = "Also write an HTML report with charts to DIR/index.html.")
  Path report;

  @Option(
      names = "--follow",
      description = "Keep the broker, the jobs and the web UI running (Ctrl-C to stop).")
  boolean follow;

  @Option(
      names = "--web-ui-port",
      paramLabel = "PORT",
      defaultValue = "8081",
      description = "Flink web UI port (0: any free port). Default: ${DEFAULT-VALUE}.")
  int webUiPort;

  @Option(
      names = "--window",
      defaultValue = "10s",
      converter = DurationConverter.class,
      description = "Window size. Default: ${DEFAULT-VALUE}.")
  Duration window;

  @Mixin BinsOption bins;

  @Option(
      names = "--parallelism",
      defaultValue = "2",
      description = "Parallelism of both jobs. Default: ${DEFAULT-VALUE}.")
  int parallelism;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (records < 1) {
      throw new UsageError("--records must be >= 1, got " + records);
    }
    int binCount = bins.bins();
    if (parallelism < 1) {
      throw new UsageError("--parallelism must be >= 1, got " + parallelism);
    }
    Demo.Options options =
        new Demo.Options(
            records, data, config, report, follow, webUiPort, window, binCount, parallelism);
    try {
      return Demo.run(options, spec.commandLine().getOut());
    } catch (Demo.BadOption e) {
      throw new UsageError(e.getMessage());
    }
  }
}
