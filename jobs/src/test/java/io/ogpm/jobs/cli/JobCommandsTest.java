package io.ogpm.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jobs refuse a bad configuration at start-up, naming the field or option, before any Flink
 * work.
 */
class JobCommandsTest {
  static final String GOOD =
      "fields:\n  - name: accel_x\n    min: -2\n    max: 2\n    epsilon: 1\n";

  @Test
  void badFieldConfigurationFailsAtStartUpNamingTheField(@TempDir Path dir) throws Exception {
    Path bad =
        Files.writeString(
            dir.resolve("bad.yaml"),
            "fields:\n  - name: accel_x\n    min: 2\n    max: -2\n    epsilon: 1\n");
    for (String job : new String[] {"perturb-job", "aggregate-job"}) {
      CommandRun r = CliRunner.run(job, "--config", bad.toString());
      assertThat(r.status()).as(job).isEqualTo(2);
      assertThat(r.err()).as(job).contains("field 'accel_x'").hasLineCount(1);
    }
  }

  @Test
  void keyedModeWithoutAKeyFailsAtStartUp(@TempDir Path dir) throws Exception {
    Path withId = Files.writeString(dir.resolve("c.yaml"), "id-field: id\n" + GOOD);
    CommandRun missing =
        CliRunner.run(
            "perturb-job",
            "--config",
            withId.toString(),
            "--key-file",
            dir.resolve("nope").toString());
    assertThat(missing.status()).isEqualTo(2);
    assertThat(missing.err()).contains("--key-file: cannot read the key file");
    Path shortKey = Files.writeString(dir.resolve("short"), "tooshort\n");
    CommandRun tooShort =
        CliRunner.run(
            "perturb-job", "--config", withId.toString(), "--key-file", shortKey.toString());
    assertThat(tooShort.err())
        .contains("must hold at least 16 bytes of secret, it has 8")
        .doesNotContain("tooshort");
    Path weakKey = Files.writeString(dir.resolve("weak"), "x".repeat(32) + "\n");
    CommandRun weak =
        CliRunner.run(
            "perturb-job", "--config", withId.toString(), "--key-file", weakKey.toString());
    assertThat(weak.status()).isEqualTo(2);
    assertThat(weak.err())
        .contains("--key-file: the key file " + weakKey + " holds one byte value repeated 32 times")
        .doesNotContain("xxxx");
    CommandRun env =
        CliRunner.run(
            "perturb-job", "--config", withId.toString(), "--key-env", "OGPM_TEST_UNSET_VARIABLE");
    assertThat(env.err())
        .contains(
            "--key-env: the environment variable OGPM_TEST_UNSET_VARIABLE holding the key is not set");
    Path noId = Files.writeString(dir.resolve("noid.yaml"), GOOD);
    Path key = Files.writeString(dir.resolve("key"), "0123456789abcdef0123456789abcdef");
    CommandRun needsId =
        CliRunner.run("perturb-job", "--config", noId.toString(), "--key-file", key.toString());
    assertThat(needsId.err()).contains("keyed randomness needs an id-field");
  }

  @Test
  void badWindowOptionsAreNamed(@TempDir Path dir) throws Exception {
    Path config = Files.writeString(dir.resolve("c.yaml"), GOOD);
    assertThat(
            CliRunner.run("aggregate-job", "--config", config.toString(), "--window", "0s").err())
        .contains("--window: must be positive, got PT0S");
    assertThat(
            CliRunner.run(
                    "aggregate-job",
                    "--config",
                    config.toString(),
                    "--window",
                    "10s",
                    "--slide",
                    "1m")
                .err())
        .contains("--slide: must be at most the window (PT10S), got PT1M");
    assertThat(
            CliRunner.run("aggregate-job", "--config", config.toString(), "--window", "ten").err())
        .contains("expected a duration such as 500ms");
    assertThat(
            CliRunner.run("aggregate-job", "--config", config.toString(), "--quantiles", "0.5,0.25")
                .err())
        .isEqualTo(
            "ogpm: --quantiles: quantile probabilities must increase without repeats, got 0.25"
                + " after 0.5\n");
    assertThat(
            CliRunner.run("aggregate-job", "--config", config.toString(), "--quantiles", "1.5")
                .err())
        .contains("--quantiles: a quantile's probability must be in (0, 1), got 1.5");
    assertThat(
            CliRunner.run(
                    "perturb-job", "--config", config.toString(), "--checkpoint-interval", "0s")
                .err())
        .contains("--checkpoint-interval must be positive");
    assertThat(
            CliRunner.run(
                    "perturb-job",
                    "--config",
                    config.toString(),
                    "--kafka-properties",
                    dir.resolve("none").toString())
                .err())
        .contains("--kafka-properties: cannot read the Kafka properties file");
    // Dead letters in the perturbed topic would be read as perturbed records; the raw topic as
    // output, a loop.
    CommandRun same =
        CliRunner.run(
            "perturb-job",
            "--config",
            config.toString(),
            "--output-topic",
            "t",
            "--dead-letter-topic",
            "t");
    assertThat(same.status()).isEqualTo(2);
    assertThat(same.err())
        .isEqualTo("ogpm: --dead-letter-topic: must differ from the output topic, got 't'\n");
    assertThat(
            CliRunner.run(
                    "perturb-job", "--config", config.toString(), "--output-topic", "ogpm.raw")
                .err())
        .isEqualTo("ogpm: --output-topic: must differ from the input topic, got 'ogpm.raw'\n");
    assertThat(CliRunner.run("perturb-job", "--config", config.toString(), "--group-id", " ").err())
        .isEqualTo("ogpm: --group-id: must not be blank, got ' '\n");
  }

  @Test
  void anUnreachableBrokerFailsAtStartUpWithOneLine(@TempDir Path dir) throws Exception {
    Path config = Files.writeString(dir.resolve("c.yaml"), GOOD);
    int port = freePort();
    for (String job : new String[] {"perturb-job", "aggregate-job"}) {
      CommandRun r =
          CommandRun.inJvm(
              OgpmJobs.class,
              Duration.ofMinutes(3),
              job,
              "--config",
              config.toString(),
              "--bootstrap-servers",
              "localhost:" + port,
              "--kafka-timeout",
              "5s");
      assertThat(r.status()).as(job).isEqualTo(2);
      assertThat(r.err())
          .as(job)
          .hasLineCount(1)
          .startsWith("ogpm: cannot reach Kafka at localhost:" + port + " (")
          .endsWith("(--bootstrap-servers)\n");
    }
    CommandRun unknown =
        CommandRun.inJvm(
            OgpmJobs.class,
            Duration.ofMinutes(3),
            "perturb-job",
            "--config",
            config.toString(),
            "--bootstrap-servers",
            "no-such-host.invalid:9092");
    assertThat(unknown.status()).isEqualTo(2);
    assertThat(unknown.err())
        .isEqualTo(
            "ogpm: cannot reach Kafka at no-such-host.invalid:9092 (unknown host) (--bootstrap-servers)\n");
  }

  @Test
  void theConfigurationCanBeGivenInline() throws Exception {
    CommandRun bad =
        CliRunner.run(
            "perturb-job",
            "--config-yaml",
            "{fields: [{name: x, min: 1, max: 0, epsilon: 1}]}",
            "--bootstrap-servers",
            "localhost:" + freePort());
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err()).startsWith("ogpm: --config-yaml: field 'x'").hasLineCount(1);
    CommandRun good =
        CliRunner.run(
            "perturb-job",
            "--config-yaml",
            "{fields: [{name: x, min: 0, max: 1, epsilon: 1}]}",
            "--bootstrap-servers",
            "localhost:" + freePort(),
            "--kafka-timeout",
            "2s");
    // The configuration is accepted; the check of the (absent) broker is what stops it.
    assertThat(good.err()).startsWith("ogpm: cannot reach Kafka");
    CommandRun both = CliRunner.run("perturb-job", "--config", "a.yaml", "--config-yaml", "{}");
    assertThat(both.status()).isEqualTo(2);
    assertThat(both.err()).contains("mutually exclusive");
  }

  /**
   * {@code --quantiles} reaches the aggregation; by default the deciles 0.1 and 0.9 and the median.
   */
  @Test
  void theQuantilesReachTheAggregation(@TempDir Path dir) throws Exception {
    Path config = Files.writeString(dir.resolve("c.yaml"), GOOD);
    AggregateJobCommand defaults = new AggregateJobCommand();
    new picocli.CommandLine(defaults).parseArgs("--config", config.toString());
    assertThat(defaults.settings().aggregation().quantiles()).containsExactly(0.1, 0.5, 0.9);
    AggregateJobCommand asked = new AggregateJobCommand();
    new picocli.CommandLine(asked)
        .parseArgs("--config", config.toString(), "--quantiles", "0.25,0.75");
    assertThat(asked.settings().aggregation().quantiles()).containsExactly(0.25, 0.75);
  }

  /** A port nothing listens on (bound, then released). */
  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
