package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.jobs.cli.CommandRun;
import org.junit.jupiter.api.Test;

class PolarSplitCommandTest {
  @Test
  void printsTheSplitOfPaperNotesSectionSeven() throws Exception {
    CommandRun r =
        CliRunner.run(
            "polar-split", "--epsilon", Double.toString(1 + 2 * Math.PI), "--metric", "l2");
    assertThat(r.status()).as(r.err()).isZero();
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertThat(root.get("objective").asText()).isEqualTo("l2"); // the metric's by default
    assertThat(root.get("epsRadius").asDouble()).isCloseTo(1.53, within(0.005));
    assertThat(root.get("epsAngle").asDouble()).isCloseTo(5.75, within(0.005));
    assertThat(root.get("error").asDouble()).isCloseTo(0.299, within(0.0005));
    assertThat(root.get("error").asDouble())
        .isCloseTo(
            root.get("errorRadius").asDouble() + root.get("errorAngle").asDouble(), within(1e-15));
    assertThat(root.has("curve")).isFalse();
  }

  @Test
  void curveOnRequestAndTheRadiusScales() throws Exception {
    CommandRun r =
        CliRunner.run(
            "polar-split",
            "--epsilon",
            "4",
            "--radius-max",
            "10",
            "--metric",
            "l1",
            "--objective",
            "l1",
            "--curve",
            "4");
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertThat(root.get("curve")).hasSize(5);
    assertThat(root.get("curve").get(0).get("epsRadius").asDouble()).isZero();
    assertThat(root.get("curve").get(4).get("epsAngle").asDouble()).isZero();
    // eps1 = 0: the radius is uniform on [0, 10), worst-case l1 error 5, plus the angle's at eps 4.
    assertThat(root.get("curve").get(0).get("error").asDouble()).isGreaterThan(5);
    for (JsonNode p : root.get("curve")) {
      assertThat(root.get("error").asDouble()).isLessThanOrEqualTo(p.get("error").asDouble());
    }
  }

  @Test
  void badOptionsAreNamed() {
    assertThat(CliRunner.run("polar-split", "--epsilon", "-1", "--metric", "l1").err())
        .contains("--epsilon must be > 0, got -1.0");
    assertThat(
            CliRunner.run("polar-split", "--epsilon", "1", "--radius-max", "0", "--metric", "l1")
                .err())
        .contains("--radius-max must be > 0");
    assertThat(
            CliRunner.run("polar-split", "--epsilon", "1", "--metric", "l1", "--curve", "0").err())
        .contains("--curve must be >= 1, got 0");
    assertThat(CliRunner.run("polar-split", "--epsilon", "1", "--metric", "l3").status())
        .isEqualTo(2);
  }
}
