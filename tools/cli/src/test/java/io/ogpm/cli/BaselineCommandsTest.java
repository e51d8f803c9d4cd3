package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.jobs.cli.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaselineCommandsTest {
  @Test
  void truncatedMechanismsPrintTheirAtoms() throws Exception {
    CommandRun r = CliRunner.run("mechanism", "--mechanism", "t-pm", "--epsilon", "2", "--x", "0");
    assertThat(r.status()).isZero();
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertThat(root.get("atoms")).hasSize(2);
    assertThat(root.get("atoms").get(0).get("at").asDouble()).isEqualTo(0.0);
    assertThat(root.get("atoms").get(0).get("mass").asDouble()).isGreaterThan(0.1);
  }

  @Test
  void continuousMechanismsHaveNoPieces() {
    CommandRun r =
        CliRunner.run("mechanism", "--mechanism", "t-laplace", "--epsilon", "2", "--x", "0");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err())
        .contains("--mechanism t-laplace has no piecewise-uniform output distribution");
  }

  @Test
  void errorsForBaselinesWithMetricAndDistance() {
    assertThat(
            Double.parseDouble(
                CliRunner.run("error", "--mechanism", "t-laplace", "--epsilon", "2", "--x", "0")
                    .out()))
        .isCloseTo(0.216166, within(5e-7));
    assertThat(
            Double.parseDouble(
                CliRunner.run(
                        "error",
                        "--mechanism",
                        "purkayastha",
                        "--domain",
                        "circular",
                        "--epsilon",
                        "1",
                        "--worst")
                    .out()))
        .isCloseTo(1.313259, within(5e-7));
    double linear =
        Double.parseDouble(
            CliRunner.run(
                    "error",
                    "--mechanism",
                    "pm-c",
                    "--domain",
                    "circular",
                    "--epsilon",
                    "2",
                    "--metric",
                    "l2",
                    "--distance",
                    "linear",
                    "--x",
                    "0")
                .out());
    double circular =
        Double.parseDouble(
            CliRunner.run(
                    "error",
                    "--mechanism",
                    "pm-c",
                    "--domain",
                    "circular",
                    "--epsilon",
                    "2",
                    "--metric",
                    "l2",
                    "--x",
                    "0")
                .out());
    assertThat(circular).isLessThan(linear);
    assertThat(
            CliRunner.run("error", "--mechanism", "purkayastha", "--epsilon", "1", "--worst").err())
        .contains("--mechanism purkayastha is not defined on a classical domain");
    assertThat(
            CliRunner.run(
                    "error", "--mechanism", "pm", "--objective", "l2", "--epsilon", "1", "--worst")
                .err())
        .contains("--objective l2 applies to ogpm and staircase only, not pm");
  }

  @Test
  void everyMechanismSamples() {
    for (String name :
        new String[] {
          "pm", "sw", "pm-c", "sw-c", "t-pm", "t-sw", "staircase", "t-laplace", "b-laplace"
        }) {
      CommandRun r =
          CliRunner.run(
              "sample",
              "--mechanism",
              name,
              "--epsilon",
              "2",
              "--x",
              "0.5",
              "--n",
              "20",
              "--seed",
              "1");
      assertThat(r.status()).as(name).isZero();
      assertThat(r.out().split("\n")).as(name).hasSize(20);
    }
    CommandRun p =
        CliRunner.run(
            "sample",
            "--mechanism",
            "purkayastha",
            "--domain",
            "circular",
            "--epsilon",
            "2",
            "--x",
            "1",
            "--n",
            "20");
    assertThat(p.status()).isZero();
  }

  @Test
  void reproduceWritesItsReport(@TempDir Path dir) throws Exception {
    CommandRun r = CliRunner.run("reproduce", "--out", dir.toString(), "--repetitions", "2");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).contains("paper 94.2 %", "wrote 23 figures");
    assertThat(Files.readString(dir.resolve("summary.md")))
        .contains(
            "## MotionSense estimation",
            "| 1.0 |",
            "## Field sampling against splitting",
            "### Which K auto picks");
    assertThat(Files.exists(dir.resolve("field-sampling-histogram.png"))).isTrue();
    assertThat(Files.exists(dir.resolve("summary.md"))).isTrue();
    assertThat(Files.exists(dir.resolve("classical-worst-case-l1.png"))).isTrue();
  }
}
