package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.jobs.cli.CommandRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ogpm bench samplers} and {@code bench records} with tiny measuring times: one JSON object
 * on stdout with the documented keys and positive figures. No time is asserted (the pipeline's
 * test, which needs a broker, is {@code BenchConsoleIT}).
 */
class BenchCommandTest {
  private static JsonNode json(CommandRun r) throws Exception {
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out().strip().lines()).hasSize(1);
    return new ObjectMapper().readTree(r.out());
  }

  @Test
  void samplersGivesValuesPerSecondForEveryMechanismAndMode() throws Exception {
    JsonNode j =
        json(CliRunner.run("bench", "samplers", "--json", "--seconds", "0.02", "--warmup", "0"));
    JsonNode values = j.get("valuesPerSecond");
    List<String> keys = new ArrayList<>();
    values.fieldNames().forEachRemaining(keys::add);
    assertThat(keys)
        .containsExactly(
            "ogpm-classical.secure",
            "ogpm-classical.seeded",
            "ogpm-classical.keyed",
            "ogpm-circular.secure",
            "ogpm-circular.seeded",
            "ogpm-circular.keyed",
            "ogpm-u.secure",
            "ogpm-u.seeded",
            "ogpm-u.keyed");
    assertThat(keys).filteredOn(k -> k.contains("keyed")).hasSize(3);
    values.forEach(v -> assertThat(v.asLong()).isPositive());
    assertThat(j.get("machine").get("availableProcessors").asInt()).isPositive();
    assertThat(j.get("machine").has("loadAverage")).isTrue();
  }

  @Test
  void recordsGivesRecordsPerSecondAndAllocationPerRecord(@TempDir Path charts) throws Exception {
    JsonNode j =
        json(
            CliRunner.run(
                "bench",
                "records",
                "--json",
                "--seconds",
                "0.02",
                "--warmup",
                "0",
                "--fields",
                "1,3",
                "--windows",
                "100,1000",
                "--chart",
                charts.toString()));
    assertThat(j.get("recordsPerSecond").asLong()).isPositive();
    // Allocation is measured (a perturbed record is at least its output bytes), not asserted small.
    assertThat(j.get("bytesAllocatedPerRecord").asLong()).isPositive();
    assertThat(j.get("randomness").asText()).isEqualTo("secure");
    List<String> fields = new ArrayList<>();
    j.get("recordsPerSecondByFields").fieldNames().forEachRemaining(fields::add);
    assertThat(fields).containsExactly("1", "3");
    List<String> windows = new ArrayList<>();
    j.get("aggregationRecordsPerSecondByRecordsPerWindow")
        .fieldNames()
        .forEachRemaining(windows::add);
    assertThat(windows).containsExactly("100", "1000");
    // The pipeline's 6-field, 100-group windows on the sample: at least one, whatever --seconds.
    JsonNode sample = j.get("aggregationSampleWindows");
    assertThat(sample.get("recordsPerWindow").asInt()).isEqualTo(100_000);
    assertThat(sample.get("groups").asInt()).isEqualTo(100);
    assertThat(sample.get("windows").asInt()).isPositive();
    assertThat(sample.get("recordsPerSecond").asLong()).isPositive();
    assertThat(sample.get("emsIterationsPerEmission").asLong()).isPositive();
    assertThat(sample.get("firstWindowEmissionsStoppedBySettling").asLong()).isBetween(0L, 600L);
    assertThat(sample.get("firstWindowIterationsOfThose").asLong())
        .isBetween(0L, sample.get("firstWindowIterations").asLong());
    assertThat(charts.resolve("throughput-by-fields.png")).isNotEmptyFile();
    assertThat(charts.resolve("throughput-by-window.png")).isNotEmptyFile();
  }

  @Test
  void badArgumentsAreUsageErrors() {
    CommandRun r = CliRunner.run("bench", "everything");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("samplers, records or pipeline");
    assertThat(CliRunner.run("bench", "records", "--fields", "0").status()).isEqualTo(2);
    assertThat(CliRunner.run("bench", "samplers", "--seconds", "0").status()).isEqualTo(2);
    CommandRun badWindow = CliRunner.run("bench", "records", "--windows", "1000,x");
    assertThat(badWindow.status()).isEqualTo(2);
    assertThat(badWindow.err()).contains("--windows", "'x'");
    assertThat(CliRunner.run("bench", "records", "--windows", "0").status()).isEqualTo(2);
    CommandRun badMethod = CliRunner.run("bench", "pipeline", "--method", "ems");
    assertThat(badMethod.status()).isEqualTo(2);
    assertThat(badMethod.err()).contains("--method must be raw or em, got 'ems'");
  }

  /**
   * {@code --passthrough} measures the sample once more with those fields copied into the output.
   */
  @Test
  void morePassthroughFieldsMeasureTheSampleAgain() throws Exception {
    JsonNode j =
        json(
            CliRunner.run(
                "bench",
                "records",
                "--json",
                "--seconds",
                "0.02",
                "--warmup",
                "0",
                "--fields",
                "1",
                "--windows=",
                "--passthrough",
                "gravity,rotationRate.x"));
    JsonNode more = j.get("sampleWithPassthrough");
    List<String> names = new ArrayList<>();
    more.get("passthrough").forEach(n -> names.add(n.asText()));
    assertThat(names).containsExactly("id", "ts", "activity", "gravity", "rotationRate.x");
    assertThat(more.get("recordsPerSecond").asLong()).isPositive();
    assertThat(more.get("bytesAllocatedPerRecord").asLong()).isPositive();
    assertThat(
            json(CliRunner.run(
                    "bench",
                    "records",
                    "--json",
                    "--seconds",
                    "0.02",
                    "--warmup",
                    "0",
                    "--fields",
                    "1",
                    "--windows="))
                .has("sampleWithPassthrough"))
        .isFalse();
    CommandRun clash = CliRunner.run("bench", "records", "--passthrough", "attitude");
    assertThat(clash.status()).isEqualTo(2);
    assertThat(clash.err()).contains("--passthrough", "attitude");
  }

  /**
   * {@code --windows=} turns the aggregation sweep and the sample windows off, as the help says.
   */
  @Test
  void anEmptyWindowListMeasuresTheRecordPathOnly() throws Exception {
    JsonNode j =
        json(
            CliRunner.run(
                "bench",
                "records",
                "--json",
                "--seconds",
                "0.02",
                "--warmup",
                "0",
                "--fields",
                "1",
                "--windows="));
    assertThat(j.get("recordsPerSecond").asLong()).isPositive();
    assertThat(j.has("aggregationRecordsPerSecondByRecordsPerWindow")).isFalse();
    assertThat(j.has("aggregationSampleWindows")).isFalse();
  }
}
