package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.jobs.cli.CommandRun;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo's usage errors: one line, exit status 2, before anything starts. */
class DemoCommandTest {
  @Test
  void theDemoNamesAMissingConfigurationInOneLine(@TempDir Path dir) throws Exception {
    CommandRun r =
        CommandRun.inJvm(
            OgpmCli.class,
            Duration.ofMinutes(2),
            "demo",
            "--config",
            dir.resolve("missing.yaml").toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo(
            "ogpm: --config "
                + dir.resolve("missing.yaml")
                + ": cannot read it (NoSuchFileException)\n");
    CommandRun data =
        CommandRun.inJvm(
            OgpmCli.class,
            Duration.ofMinutes(2),
            "demo",
            "--data",
            dir.resolve("missing.jsonl").toString());
    assertThat(data.status()).isEqualTo(2);
    assertThat(data.err())
        .isEqualTo(
            "ogpm: --data "
                + dir.resolve("missing.jsonl")
                + ": cannot read it (NoSuchFileException)\n");
  }
}
