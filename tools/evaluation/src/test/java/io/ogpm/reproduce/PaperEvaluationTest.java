package io.ogpm.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PaperEvaluationTest {
  static PaperEvaluation evaluation;

  @BeforeAll
  static void compute() {
    evaluation = PaperEvaluation.compute();
  }

  @Test
  void classicalWholeDomainRatiosAreWithinHalfAPercentagePoint() {
    List<Claim> l1 =
        evaluation.claims().stream()
            .filter(
                c -> c.where().startsWith("Expected errors, classical domain (Fig. whole-domain"))
            .toList();
    assertThat(l1).hasSize(4);
    for (Claim c : l1) {
      assertThat(Math.abs(c.difference()))
          .as(c.where() + ": " + c.statement())
          .isLessThanOrEqualTo(0.5);
    }
  }

  @Test
  void everyRatioClaimIsWithinTwoPercentagePointsAndCheckedValuesMatch() {
    for (Claim c : evaluation.claims()) {
      if (c.percent()) {
        assertThat(Math.abs(c.difference()))
            .as(c.where() + ": " + c.statement())
            .isLessThanOrEqualTo(2.0);
      }
    }
    long checked =
        evaluation.claims().stream()
            .filter(c -> !c.percent() && c.note().startsWith("docs/mechanisms.md#checked-examples"))
            .peek(c -> assertThat(Math.abs(c.difference())).as(c.statement()).isLessThan(5e-7))
            .count();
    assertThat(checked).isEqualTo(5);
  }

  @Test
  void writesEveryFigureAsPngAndCsvWithASummary(@TempDir Path dir) throws IOException {
    Reports.write(evaluation.figures(), evaluation.claims(), dir);
    for (Figure f : evaluation.figures()) {
      byte[] png = Files.readAllBytes(dir.resolve(f.name() + ".png"));
      assertThat(png).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
      List<String> csv = Files.readAllLines(dir.resolve(f.name() + ".csv"));
      assertThat(csv.size()).isGreaterThan(10);
    }
    String summary = Files.readString(dir.resolve("summary.md"));
    assertThat(summary)
        .contains(
            "| 94.2 % | 94.2 % |",
            "linear distance", "docs/mechanisms.md#circular-comparisons-and-distance");
    assertThat(evaluation.figures())
        .extracting(Figure::name)
        .contains(
            "classical-whole-domain-eps2",
            "classical-worst-case-l2",
            "circular-whole-domain-eps4",
            "circular-worst-case-l1",
            "pm-original-truncated-eps2",
            "laplace-family-worst-case",
            "purkayastha-worst-case-l1",
            "small-epsilon-eps0_4");
  }
}
