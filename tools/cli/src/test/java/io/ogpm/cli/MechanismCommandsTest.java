package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.jobs.cli.CommandRun;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MechanismCommandsTest {
  @Test
  void mechanismPrintsSortedPiecesOfMassOne() throws Exception {
    CommandRun r = CliRunner.run("mechanism", "--epsilon", "1", "--domain", "circular", "--x", "0");
    assertThat(r.status()).isZero();
    JsonNode root = new ObjectMapper().readTree(r.out());
    double mass = 0;
    double previousTo = 0;
    for (JsonNode p : root.get("pieces")) {
      assertThat(p.get("from").asDouble()).isEqualTo(previousTo);
      previousTo = p.get("to").asDouble();
      mass += p.get("density").asDouble() * (p.get("to").asDouble() - p.get("from").asDouble());
    }
    assertThat(previousTo).isEqualTo(2 * Math.PI);
    assertThat(mass).isCloseTo(1, within(1e-12));
    assertThat(root.get("atoms")).isEmpty();
  }

  @Test
  void errorPrintsFullPrecision() {
    CommandRun r = CliRunner.run("error", "--epsilon", "2", "--worst");
    assertThat(r.status()).isZero();
    assertThat(r.out().trim()).isEqualTo(Double.toString(Double.parseDouble(r.out().trim())));
    assertThat(Double.parseDouble(r.out())).isCloseTo(0.268941, within(5e-7));
    CommandRun l2 =
        CliRunner.run("error", "--epsilon", "1", "--objective", "l2", "--metric", "l2", "--x", "0");
    assertThat(Double.parseDouble(l2.out())).isCloseTo(0.217299, within(5e-7));
  }

  @Test
  void errorScalesWithTheDomain() {
    double unit = Double.parseDouble(CliRunner.run("error", "--epsilon", "1", "--x", "0.25").out());
    double wide =
        Double.parseDouble(
            CliRunner.run("error", "--epsilon", "1", "--lo", "-2", "--hi", "2", "--x", "-1").out());
    assertThat(wide).isCloseTo(4 * unit, within(1e-12));
  }

  @Test
  void sampleWithASeedIsReproducibleAndInTheDomain() {
    CommandRun a =
        CliRunner.run(
            "sample",
            "--epsilon",
            "1",
            "--lo",
            "-2",
            "--hi",
            "2",
            "--x",
            "2",
            "--n",
            "1000",
            "--seed",
            "5");
    CommandRun b =
        CliRunner.run(
            "sample",
            "--epsilon",
            "1",
            "--lo",
            "-2",
            "--hi",
            "2",
            "--x",
            "2",
            "--n",
            "1000",
            "--seed",
            "5");
    assertThat(a.status()).isZero();
    assertThat(a.out()).isEqualTo(b.out());
    String[] lines = a.out().split("\n");
    assertThat(lines).hasSize(1000);
    for (String line : lines) {
      assertThat(Double.parseDouble(line)).isGreaterThanOrEqualTo(-2).isLessThan(2);
    }
  }

  @Test
  void sampleWithoutASeedDiffersBetweenRuns() {
    String a = CliRunner.run("sample", "--epsilon", "1", "--x", "0.5", "--n", "50").out();
    String b = CliRunner.run("sample", "--epsilon", "1", "--x", "0.5", "--n", "50").out();
    assertThat(a).isNotEqualTo(b);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "mechanism --epsilon 0 --x 0                        | --epsilon must be > 0, got 0.0",
        // docs/cli.md, "Examples": its example and the line it shows.
        "error --epsilon 0 --worst                          | ogpm: --epsilon must be > 0, got 0.0",
        "error --epsilon 30 --worst                         | ogpm: --epsilon must be <= 20.0 for ogpm (above it its moments and bands are not exact in doubles), got 30.0",
        "error --epsilon 13 --mechanism sw --worst          | --epsilon must be <= 12.0 for sw",
        "mechanism --epsilon -1 --x 0                       | --epsilon must be > 0, got -1.0",
        "mechanism --epsilon NaN --x 0                      | --epsilon must be a finite number, got NaN",
        "error --epsilon Infinity --worst                   | --epsilon must be a finite number, got Infinity",
        "mechanism --epsilon 1 --lo 1 --hi 0 --x 0          | --lo must be < --hi",
        "mechanism --epsilon 1 --lo NaN --x 0               | --lo must be a finite number, got NaN",
        "mechanism --epsilon 1 --x 1.5                      | --x must be in [0.0, 1.0], got 1.5",
        "error --epsilon 1 --x NaN                          | --x must be in [0.0, 1.0], got NaN",
        "sample --epsilon 1 --x -0.1 --n 2                  | --x must be in [0.0, 1.0], got -0.1",
        "mechanism --epsilon 1 --mechanism nope --x 0       | '--mechanism': mechanism must be auto or one of",
        "mechanism --epsilon 1 --domain torus --x 0         | '--domain': domain must be classical or circular",
        "error --epsilon 1 --worst --metric l3              | '--metric': metric must be l1 or l2",
        "error --epsilon 1 --worst --distance manhattan     | '--distance': distance must be linear or circular",
        "mechanism --epsilon 1 --objective l9 --x 0         | '--objective': objective must be l1 or l2",
        "mechanism --epsilon 1 --mechanism ogpm-u --domain circular --x 0 | --mechanism ogpm-u is not defined on a circular domain",
        "mechanism --x 0                                    | Missing required option: '--epsilon=E'",
        "error --epsilon 1                                  | Missing required argument",
        "sample --epsilon 1 --x 0 --n -1                    | --n must be >= 0, got -1",
        "mechanism --epsilon 1 --x 0 --grid-bits 0          | --grid-bits must be in [1, 52], got 0",
        "frobnicate                                         | Unmatched argument at index 0: 'frobnicate'",
      })
  void badArgumentsExitTwoWithOneLineNamingTheOption(String args, String message) {
    CommandRun r = CliRunner.run(args.trim().split("\\s+"));
    assertThat(r.status()).as(args).isEqualTo(2);
    assertThat(r.err().lines().count()).as(args).isEqualTo(1);
    assertThat(r.err()).as(args).contains(message);
  }

  @Test
  void everyCommandHasHelpListingEachOptionOnce() {
    String[] commands = {
      "mechanism",
      "error",
      "sample",
      "perturb",
      "perturb-job",
      "aggregate-job",
      "demo",
      "estimate",
      "audit",
      "reproduce"
    };
    for (String command : commands) {
      CommandRun r = CliRunner.run(command, "--help");
      assertThat(r.status()).isZero();
      assertThat(r.out()).contains("Usage: ogpm " + command);
      // Options from an argument group in a mixin were listed twice by picocli 4.7.6 (#2309).
      List<String> optionLines = r.out().lines().filter(l -> l.matches("\\s+-.*")).toList();
      assertThat(optionLines).as(command).doesNotHaveDuplicates();
    }
    assertThat(CliRunner.run("--help").out()).contains(commands);
  }

  /** auto takes the mechanism `advise` chooses: hm for means at eps 1 and 20,000 reports. */
  @Test
  void autoIsTheMechanismAdviseChooses() {
    CommandRun auto =
        CliRunner.run(
            "error",
            "--mechanism",
            "auto",
            "--optimize-for",
            "means",
            "--records-per-window",
            "20000",
            "--epsilon",
            "1",
            "--x",
            "0.3");
    assertThat(auto.status()).as(auto.err()).isZero();
    assertThat(auto.out())
        .isEqualTo(
            CliRunner.run("error", "--mechanism", "hm", "--epsilon", "1", "--x", "0.3").out());
    // For one value under the square error ogpm is optimal (under l1, t-pm and t-sw beat it).
    CommandRun values =
        CliRunner.run(
            "error",
            "--mechanism",
            "auto",
            "--optimize-for",
            "values",
            "--objective",
            "l2",
            "--epsilon",
            "1",
            "--worst");
    assertThat(values.out())
        .isEqualTo(CliRunner.run("error", "--objective", "l2", "--epsilon", "1", "--worst").out());
  }

  @Test
  void autosOptionsAreRefusedWithANamedMechanism() {
    CommandRun r =
        CliRunner.run(
            "error", "--mechanism", "pm", "--optimize-for", "means", "--epsilon", "1", "--worst");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("--optimize-for applies to --mechanism auto only, not to pm");
    CommandRun bad = CliRunner.run("error", "--mechanism", "best", "--epsilon", "1", "--worst");
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err()).contains("mechanism must be auto or one of ogpm, ");
    CommandRun q =
        CliRunner.run(
            "error", "--mechanism", "auto", "--optimize-for", "x", "--epsilon", "1", "--worst");
    assertThat(q.err()).contains("--optimize-for must be one of");
    CommandRun circle =
        CliRunner.run(
            "error",
            "--mechanism",
            "auto",
            "--optimize-for",
            "distributions",
            "--domain",
            "circular",
            "--epsilon",
            "1",
            "--worst");
    assertThat(circle.status()).isEqualTo(2);
    assertThat(circle.err())
        .contains("--optimize-for distributions is not weighed on a circular domain");
    CommandRun n =
        CliRunner.run(
            "error",
            "--mechanism",
            "auto",
            "--records-per-window",
            "0",
            "--epsilon",
            "1",
            "--worst");
    assertThat(n.err()).contains("--records-per-window must be at least 1, got 0");
  }
}
