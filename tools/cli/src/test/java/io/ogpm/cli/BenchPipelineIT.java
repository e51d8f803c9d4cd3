package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.jobs.cli.CommandRun;
import org.junit.jupiter.api.Test;

/**
 * {@code ogpm bench pipeline} with a tiny input on its embedded broker and MiniCluster: one JSON
 * object with the perturbation's and the aggregations' figures and ratios. The bench itself checks
 * that every input record reached each perturbation's output (it fails otherwise); this test checks
 * the keys and that the figures are positive, never a time.
 */
class BenchPipelineIT {
  @Test
  void pipelineGivesRatiosOfPerturbationAndAggregation() throws Exception {
    CommandRun r =
        CliRunner.run(
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
    assertThat(r.status()).as(r.err()).isZero();
    JsonNode j = new ObjectMapper().readTree(r.out());
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
