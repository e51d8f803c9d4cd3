package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.jobs.cli.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdviseCommandTest {
  static final String CONFIG =
      """
      mechanism: auto
      records-per-window: 20000
      fields:
        - {name: a, min: 0, max: 1, epsilon: 1, optimize-for: means}
        - {name: b, min: 0, max: 1, epsilon: 1, mechanism: ogpm}
      """;

  @Test
  void printsEachFieldsCandidatesAndTheChoiceWithItsReason(@TempDir Path dir) throws Exception {
    Path config = Files.writeString(dir.resolve("ogpm.yaml"), CONFIG);
    CommandRun run = CliRunner.run("advise", "--config", config.toString());
    assertThat(run.status()).as(run.err()).isZero();
    String out = run.out();
    assertThat(out)
        .contains(
            "field 'a' on [0.000, 1.000], epsilon 1.000 per report, 20000 reports per window,"
                + " optimize-for means")
        .contains("| hm (chosen) | ")
        .contains("choice hm: the narrowest window-mean interval at its worst")
        .contains("field 'b' on [0.000, 1.000], epsilon 1.000 per report, 1000 reports per window,")
        .contains("configured ogpm; auto would choose ");
    // hm's interval is the same for every input: 0.0288 at eps 1 and n 20,000 on [0, 1]
    assertThat(out)
        .containsPattern("\\| hm \\(chosen\\) \\| [0-9.]+ \\| 0\\.0288[0-9]* \\| 0\\.0288");
  }

  @Test
  void aWindowSizeOnTheCommandLineOverridesTheConfigurations(@TempDir Path dir) throws Exception {
    Path config = Files.writeString(dir.resolve("ogpm.yaml"), CONFIG);
    CommandRun run =
        CliRunner.run(
            "advise",
            "--config",
            config.toString(),
            "--records-per-window",
            "200000",
            "--optimize-for",
            "values");
    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).contains("200000 reports per window, optimize-for values");
    CommandRun bad = CliRunner.run("advise", "--config", config.toString(), "--optimize-for", "x");
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err()).contains("optimize-for must be one of");
  }
}
