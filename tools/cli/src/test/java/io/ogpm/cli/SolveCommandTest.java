package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.jobs.cli.CommandRun;
import org.junit.jupiter.api.Test;

/**
 * {@code solve}: the m-piece solver on the command line, and its mechanism in the other commands.
 */
class SolveCommandTest {
  static JsonNode json(CommandRun r) throws Exception {
    assertThat(r.status()).as(r.err()).isZero();
    return new ObjectMapper().readTree(r.out());
  }

  @Test
  void solvesThePapersX0ExampleAndMergesToThreePieces() throws Exception {
    JsonNode root =
        json(
            CliRunner.run(
                "solve", "--pieces", "5", "--metric", "l1", "--epsilon", "1", "--x0", "0.2"));
    // docs/mechanisms.md, "Checked examples": error 0.24137, high density 1.5459; at x0 = 0.2 the
    // high piece is
    // clamped to 0.
    assertThat(root.get("error").asDouble()).isCloseTo(0.24137, within(5e-6));
    JsonNode pieces = root.get("pieces");
    assertThat(pieces).hasSize(2);
    assertThat(pieces.get(0).get("from").asDouble()).isEqualTo(0.0);
    assertThat(pieces.get(0).get("density").asDouble()).isCloseTo(1.5459, within(5e-5));
    assertThat(pieces.get(1).get("to").asDouble()).isEqualTo(1.0);
    assertThat(root.get("at").asDouble()).isEqualTo(0.2);
  }

  @Test
  void theWorstCaseIsTheoremThreeOnAnyDomain() throws Exception {
    JsonNode root =
        json(
            CliRunner.run(
                "solve",
                "--pieces",
                "4",
                "--metric",
                "l1",
                "--epsilon",
                "2",
                "--worst",
                "--lo",
                "-1",
                "--hi",
                "1"));
    // docs/mechanisms.md, "Checked examples": worst-case l1 at eps 2 on [0, 1) is 0.268941; twice
    // that on a width of
    // 2.
    assertThat(root.get("error").asDouble()).isCloseTo(2 * 0.268941, within(1e-6));
    assertThat(root.get("pieces").get(0).get("from").asDouble()).isEqualTo(-1.0);
  }

  @Test
  void theSolvedMechanismIsUsableByTheOtherCommands() throws Exception {
    JsonNode solved =
        json(
            CliRunner.run(
                "solve",
                "--pieces",
                "3",
                "--metric",
                "l2",
                "--epsilon",
                "1.5",
                "--x0",
                "3",
                "--lo",
                "0",
                "--hi",
                "10"));
    double error =
        Double.parseDouble(
            CliRunner.run(
                    "error",
                    "--epsilon",
                    "1.5",
                    "--objective",
                    "l2",
                    "--metric",
                    "l2",
                    "--optimize-at",
                    "3",
                    "--hi",
                    "10",
                    "--x",
                    "3")
                .out());
    assertThat(error).isCloseTo(solved.get("error").asDouble(), within(1e-9 * error));
    JsonNode mechanism =
        json(
            CliRunner.run(
                "mechanism",
                "--epsilon",
                "1.5",
                "--objective",
                "l2",
                "--optimize-at",
                "3",
                "--hi",
                "10",
                "--x",
                "3"));
    assertThat(mechanism.get("pieces")).hasSize(solved.get("pieces").size());
    for (int i = 0; i < mechanism.get("pieces").size(); i++) {
      assertThat(mechanism.get("pieces").get(i).get("to").asDouble())
          .isCloseTo(solved.get("pieces").get(i).get("to").asDouble(), within(1e-3));
    }
    CommandRun sample =
        CliRunner.run(
            "sample",
            "--epsilon",
            "1.5",
            "--objective",
            "l2",
            "--optimize-at",
            "3",
            "--hi",
            "10",
            "--x",
            "7",
            "--n",
            "10",
            "--seed",
            "1");
    assertThat(sample.status()).isZero();
    assertThat(sample.out().split("\n")).hasSize(10);
  }

  @Test
  void checkCollapsePrintsOneLinePerComparisonAndASummary() throws Exception {
    CommandRun r = CliRunner.run("solve", "--check-collapse", "2", "--metric", "l2");
    assertThat(r.status()).as(r.err()).isZero();
    String[] lines = r.out().split("\n");
    assertThat(lines).hasSize(5);
    JsonNode summary = new ObjectMapper().readTree(lines[4]);
    assertThat(summary.get("checked").asInt()).isEqualTo(4);
    assertThat(summary.get("failed").asInt()).isZero();
    assertThat(new ObjectMapper().readTree(lines[0]).get("collapsed").asBoolean()).isTrue();
  }

  @Test
  void badOptionsAreNamed() {
    assertThat(CliRunner.run("solve", "--pieces", "2", "--epsilon", "1", "--worst").err())
        .contains("--pieces must be in [3, 12], got 2");
    assertThat(CliRunner.run("solve", "--epsilon", "1", "--x0", "2").err())
        .contains("--x0 must be in [0.0, 1.0], got 2.0");
    assertThat(CliRunner.run("solve", "--worst").err()).contains("--epsilon is required");
    assertThat(CliRunner.run("solve", "--epsilon", "1", "--worst", "--lo", "2").err())
        .contains("--lo must be < --hi");
    assertThat(CliRunner.run("solve", "--epsilon", "1").status()).isEqualTo(2);
    assertThat(
            CliRunner.run(
                    "error",
                    "--epsilon",
                    "1",
                    "--domain",
                    "circular",
                    "--optimize-at",
                    "1",
                    "--worst")
                .err())
        .contains("--optimize-at applies to ogpm on a classical domain only");
  }
}
