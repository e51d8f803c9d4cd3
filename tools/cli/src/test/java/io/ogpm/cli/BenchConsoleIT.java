package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.jobs.cli.CommandRun;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code bench pipeline} from the built jar, as {@link DemoConsoleIT} runs the demo: its jobs
 * differ from the demo's (a perturbation without a budget chains both Kafka sinks behind the
 * source, whose task name Flink then truncates in its metrics), and a normal run prints no WARN or
 * ERROR line either.
 */
class BenchConsoleIT {
  @Test
  void aNormalPipelineBenchPrintsNoWarningOrError() throws Exception {
    CommandRun bench =
        DemoConsoleIT.run(
            Duration.ofMinutes(10),
            "bench",
            "pipeline",
            "--json",
            "--records",
            "300",
            "--repetitions",
            "1",
            "--records-per-window",
            "100",
            "--warmup-rounds",
            "0");
    assertThat(bench.status()).as(bench.err()).isZero();
    List<String> alarming = DemoConsoleIT.warningsAndErrors(bench.err());
    assertThat(alarming)
        .as("WARN/ERROR lines of a normal bench run; its stderr:%n%s", bench.err())
        .isEmpty();
    assertThat(bench.out()).contains("\"identityRecordsPerSecond\"");
  }
}
