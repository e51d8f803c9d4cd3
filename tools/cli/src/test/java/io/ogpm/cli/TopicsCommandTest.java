package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.jobs.cli.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ogpm topics}'s usage errors: one line naming the option, exit status 2, before any
 * connection.
 */
class TopicsCommandTest {
  @Test
  void badOptionsAreNamedBeforeKafkaIsAsked(@TempDir Path dir) throws Exception {
    assertError("ogpm: --perturb-parallelism must be >= 1, got 0", "--perturb-parallelism", "0");
    assertError(
        "ogpm: --partitions must be at least --perturb-parallelism (6), got 2",
        "--partitions",
        "2");
    assertError("ogpm: --partitions must be >= 1, got 0", "--partitions", "0");
    assertError("ogpm: --min-insync-replicas must be >= 1, got 0", "--min-insync-replicas", "0");
    assertError(
        "ogpm: --min-insync-replicas must be in [1, --replication-factor 1], got 2",
        "--replication-factor",
        "1",
        "--min-insync-replicas",
        "2");
    assertError(
        "ogpm: --stats-topic 'ogpm.raw' is also another topic of the deployment: each needs its own",
        "--stats-topic",
        "ogpm.raw");
    Path props = dir.resolve("client.properties");
    Files.writeString(props, "transaction.timeout.ms=ten minutes\n");
    assertError(
        "ogpm: --kafka-properties: transaction.timeout.ms must be a number of milliseconds, got 'ten minutes'",
        "--kafka-properties",
        props.toString());
  }

  private static void assertError(String line, String... options) {
    String[] args = new String[options.length + 3];
    args[0] = "topics";
    args[1] = "--bootstrap-servers";
    args[2] = "127.0.0.1:1";
    System.arraycopy(options, 0, args, 3, options.length);
    CommandRun r = CliRunner.run(args);
    assertThat(r.status()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).isEqualTo(line + "\n");
  }
}
