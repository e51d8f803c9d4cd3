package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A normal demo run prints no alarming line: its own JVM, with the jar's logging configuration
 * (src/main/resources/log4j2.properties), as a user runs it. The harmless warnings of the embedded
 * broker and the MiniCluster are denied there by their wording; any WARN or ERROR line left is
 * printed by the assertion.
 */
class DemoConsoleIT {
  @Test
  void aNormalDemoRunPrintsNoWarningOrError() throws Exception {
    CliProcess demo = CliProcess.run(Duration.ofMinutes(10), "demo", "--records", "1200");
    assertThat(demo.status()).as(demo.err()).isZero();
    List<String> alarming = demo.err().lines().filter(l -> l.matches("\\S+ (WARN|ERROR) .*")).toList();
    assertThat(alarming).as("WARN/ERROR lines of a normal demo run").isEmpty();
    assertThat(demo.out()).contains("AggregateJob:");
  }

  @Test
  void versionPrintsTheProjectsVersion() throws Exception {
    CliProcess v = CliProcess.run(Duration.ofMinutes(1), "--version");
    assertThat(v.status()).isZero();
    assertThat(v.out().strip()).matches("ogpm \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
  }
}
