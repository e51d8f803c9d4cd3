package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.jobs.cli.CommandRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A normal demo run prints no alarming line: the built {@code ogpm.jar} in its own JVM, with the
 * logging configuration and bindings it ships (the test classpath has others), as a user runs it.
 * The harmless warnings of the embedded broker and the MiniCluster are denied in
 * src/main/resources/log4j2.properties by their wording; any WARN or ERROR line left is printed by
 * the assertion. (Run with the test classpath instead, the child logged nothing at all: its SLF4J
 * binding is not the jar's, and the test passed with the filters removed.)
 */
class DemoConsoleIT {
  static final Path JAR = Path.of(System.getProperty("ogpm.cli.jar", "target/ogpm.jar"));

  @Test
  void aNormalDemoRunPrintsNoWarningOrError() throws Exception {
    CommandRun demo = run(Duration.ofMinutes(10), "demo", "--records", "1200");
    assertThat(demo.status()).as(demo.err()).isZero();
    List<String> alarming = warningsAndErrors(demo.err());
    // The whole stderr on failure: a WARN line's cause (a stack trace, the lines before it) is not
    // on it.
    assertThat(alarming)
        .as("WARN/ERROR lines of a normal demo run; its stderr:%n%s", demo.err())
        .isEmpty();
    assertThat(demo.out()).contains("AggregateJob:");
  }

  @Test
  void versionPrintsTheProjectsVersion() throws Exception {
    CommandRun v = run(Duration.ofMinutes(1), "--version");
    assertThat(v.status()).isZero();
    assertThat(v.out().strip()).matches("ogpm \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
  }

  /**
   * The WARN and ERROR lines of a run's stderr (the jar's layout: time, level, logger, message).
   */
  static List<String> warningsAndErrors(String stderr) {
    return stderr.lines().filter(l -> l.matches("\\S+ (WARN|ERROR) .*")).toList();
  }

  /** The built jar in a JVM of its own. */
  static CommandRun run(Duration timeout, String... args) throws Exception {
    return CommandRun.jar(JAR, timeout, args);
  }
}
