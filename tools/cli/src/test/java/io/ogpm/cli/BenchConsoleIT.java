package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.jobs.cli.CommandRun;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code bench pipeline} from the built jar with a tiny input, as {@link DemoConsoleIT} runs the
 * demo: its jobs differ from the demo's (a perturbation without a budget chains both Kafka sinks
 * behind the source, whose task name Flink then truncates in its metrics), and a normal run prints
 * no WARN or ERROR line either; its one JSON object has every figure and ratio.
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
    // One JSON object with the perturbation's and the aggregations' figures and ratios. The bench
    // itself checks that every input record reached each perturbation's output (it fails
    // otherwise); here the keys, and that the figures are positive, never a time.
    JsonNode j = new ObjectMapper().readTree(bench.out());
    JsonNode p = j.get("perturbation");
    for (String key :
        new String[] {
          "recordsPerSecond",
          "identityRecordsPerSecond",
          "ratio",
          "ratioMin",
          "ratioMax",
          "netRunTimeRecordsPerSecond"
        }) {
      assertThat(p.get(key).asDouble()).as(key).isPositive();
    }
    assertThat(p.get("ratios")).hasSize(1);
    assertThat(j.get("perturbationWithoutBudget").get("ratio").asDouble()).isPositive();
    JsonNode bounded = j.get("perturbationWithContributionBound");
    assertThat(bounded.get("ratio").asDouble()).isPositive();
    assertThat(bounded.get("jobCpu").get("ratio").asDouble()).isPositive();
    assertThat(bounded.get("reservoirBytesPerRecord").asLong()).isPositive();
    JsonNode order = j.get("partitionOrder");
    for (String key : new String[] {"recordsPerSecond", "unorderedRecordsPerSecond", "ratio"}) {
      assertThat(order.get(key).asDouble()).as("partitionOrder." + key).isPositive();
    }
    assertThat(order.get("jobCpu").get("ratio").asDouble()).isPositive();
    for (String name : new String[] {"perturbation", "perturbationWithoutBudget"}) {
      JsonNode cpu = j.get(name).get("cpu");
      for (String key : new String[] {"microsPerRecord", "identityMicrosPerRecord", "ratio"}) {
        assertThat(cpu.get(key).asDouble()).as(name + ".cpu." + key).isPositive();
      }
      assertThat(cpu.get("jitMillisRuns")).as(name).hasSize(1);
      assertThat(cpu.get("identityJitMillisRuns").get(0).asLong()).as(name).isNotNegative();
      // The privacy's own cost: against the same job with the values written as read.
      JsonNode unperturbed = j.get(name).get("againstUnperturbed");
      for (String key : new String[] {"recordsPerSecond", "unperturbedRecordsPerSecond", "ratio"}) {
        assertThat(unperturbed.get(key).asDouble())
            .as(name + ".againstUnperturbed." + key)
            .isPositive();
      }
      for (String key : new String[] {"microsPerRecord", "unperturbedMicrosPerRecord", "ratio"}) {
        assertThat(unperturbed.get("cpu").get(key).asDouble())
            .as(name + ".againstUnperturbed.cpu." + key)
            .isPositive();
      }
      assertThat(unperturbed.get("ratios")).as(name).hasSize(1);
      assertThat(unperturbed.get("jobCpu").get("ratio").asDouble())
          .as(name + ".againstUnperturbed.jobCpu.ratio")
          .isPositive();
      assertThat(j.get(name).get("jobCpu").get("identityMicrosPerRecord").asDouble())
          .as(name)
          .isPositive();
    }
    JsonNode ceiling = j.get("unperturbedAgainstIdentity");
    for (String key : new String[] {"recordsPerSecond", "identityRecordsPerSecond", "ratio"}) {
      assertThat(ceiling.get(key).asDouble()).as("unperturbedAgainstIdentity." + key).isPositive();
    }
    assertThat(ceiling.get("jobCpu").get("ratio").asDouble()).isPositive();
    for (String name :
        new String[] {"aggregation", "aggregationManyGroups", "aggregationOneFieldNoGroup"}) {
      JsonNode a = j.get(name);
      for (String key :
          new String[] {
            "recordsPerSecond",
            "countRecordsPerSecond",
            "ratio",
            "perturbationRecordsPerSecond",
            "overPerturbation"
          }) {
        assertThat(a.get(key).asDouble()).as(name + "." + key).isPositive();
      }
      for (String key : new String[] {"countMicrosPerRecord", "microsPerRecord", "ratio"}) {
        assertThat(a.get("cpu").get(key).asDouble()).as(name + ".cpu." + key).isPositive();
        assertThat(a.get("jobCpu").get(key).asDouble()).as(name + ".jobCpu." + key).isPositive();
      }
    }
    assertThat(j.get("aggregation").get("groups").asInt()).isEqualTo(100);
    assertThat(j.get("aggregation").get("method").asText()).isEqualTo("em");
    assertThat(j.get("aggregationManyGroups").get("groups").asInt()).isEqualTo(1000);
    assertThat(j.get("aggregationOneFieldNoGroup").get("fields").asInt()).isEqualTo(1);
    assertThat(j.get("records").asInt()).isEqualTo(300);
  }
}
