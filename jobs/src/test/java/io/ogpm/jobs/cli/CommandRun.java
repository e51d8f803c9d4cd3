package io.ogpm.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a run of a command line returned and printed, for the tests of the jobs' command line and of
 * {@code ogpm}'s (a test-jar: the one launcher of both). Three ways to run one:
 *
 * <ul>
 *   <li>{@link #inProcess}: in this JVM, fast; the log lines of Flink and the Kafka clients are not
 *       captured, and the exit status is the one {@code System.exit} would be given;
 *   <li>{@link #inJvm}: a main class in a JVM of its own on the test class path, as a user runs it:
 *       stderr with those log lines, the real exit status;
 *   <li>{@link #jar}: the built jar in a JVM of its own, with the logging configuration and
 *       bindings it ships (the test class path has others).
 * </ul>
 */
public record CommandRun(int status, String out, String err) {
  /** The largest heap of a command's own JVM unless a test asks for more. */
  static final String MAX_HEAP = "512m";

  /** A command line run in this JVM with these streams, returning its exit status. */
  @FunctionalInterface
  public interface CommandLine {
    int run(String[] args, PrintWriter out, PrintWriter err);
  }

  /** Runs {@code cli} in this JVM and captures its streams. */
  public static CommandRun inProcess(CommandLine cli, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = cli.run(args, new PrintWriter(out), new PrintWriter(err));
    return new CommandRun(status, out.toString(), err.toString());
  }

  /** Runs {@code main} in a JVM of its own on this test's class path, no input. */
  public static CommandRun inJvm(Class<?> main, Duration timeout, String... args) throws Exception {
    return run(
        timeout, List.of("-cp", System.getProperty("java.class.path"), main.getName()), args);
  }

  /** Runs the built {@code jar} in a JVM of its own, no input. */
  public static CommandRun jar(Path jar, Duration timeout, String... args) throws Exception {
    assertThat(jar).as("the built jar (mvn package)").isRegularFile();
    return run(timeout, List.of("-jar", jar.toString()), args);
  }

  /**
   * Starts the built {@code jar} in a JVM of its own with this maximum heap, no input, stdout and
   * stderr to these files; for a command that runs until it is stopped.
   */
  public static Process startJar(Path jar, String maxHeap, Path out, Path err, String... args)
      throws IOException {
    assertThat(jar).as("the built jar (mvn package)").isRegularFile();
    return start(maxHeap, List.of("-jar", jar.toString()), out, err, args);
  }

  private static CommandRun run(Duration timeout, List<String> program, String... args)
      throws Exception {
    Path out = Files.createTempFile("ogpm-run-out", ".txt");
    Path err = Files.createTempFile("ogpm-run-err", ".txt");
    try {
      Process p = start(MAX_HEAP, program, out, err, args);
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor();
        throw new AssertionError(
            String.join(" ", args)
                + " did not exit within "
                + timeout
                + "; stderr so far:\n"
                + Files.readString(err, StandardCharsets.UTF_8));
      }
      return new CommandRun(
          p.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  private static Process start(
      String maxHeap, List<String> program, Path out, Path err, String... args) throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + maxHeap));
    command.addAll(program);
    command.addAll(List.of(args));
    return new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(out.toFile())
        .redirectError(err.toFile())
        .start();
  }
}
