package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
    Run demo = run(Duration.ofMinutes(10), "demo", "--records", "1200");
    assertThat(demo.status()).as(demo.err()).isZero();
    List<String> alarming = warningsAndErrors(demo.err());
    // The whole stderr on failure: a WARN line's cause (a stack trace, the lines before it) is not on it.
    assertThat(alarming).as("WARN/ERROR lines of a normal demo run; its stderr:%n%s", demo.err()).isEmpty();
    assertThat(demo.out()).contains("AggregateJob:");
  }

  @Test
  void versionPrintsTheProjectsVersion() throws Exception {
    Run v = run(Duration.ofMinutes(1), "--version");
    assertThat(v.status()).isZero();
    assertThat(v.out().strip()).matches("ogpm \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
  }

  record Run(int status, String out, String err) {}

  /** The WARN and ERROR lines of a run's stderr (the jar's layout: time, level, logger, message). */
  static List<String> warningsAndErrors(String stderr) {
    return stderr.lines().filter(l -> l.matches("\\S+ (WARN|ERROR) .*")).toList();
  }

  /** The built jar in a JVM of its own with this maximum heap, no input, stdout and stderr to these files. */
  static Process startJar(String maxHeap, Path out, Path err, String... args) throws IOException {
    assertThat(JAR).as("the built jar (mvn package)").isRegularFile();
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + maxHeap, "-jar", JAR.toString()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
  }

  static Run run(Duration timeout, String... args) throws Exception {
    Path out = Files.createTempFile("ogpm-jar-out", ".txt");
    Path err = Files.createTempFile("ogpm-jar-err", ".txt");
    try {
      Process p = startJar("512m", out, err, args);
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor();
        throw new AssertionError("ogpm " + String.join(" ", args) + " did not exit within " + timeout);
      }
      return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
