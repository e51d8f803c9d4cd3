package io.ogpm.cli;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the command line as its own JVM, as a user does: what a user sees on stderr includes the
 * log lines of Flink and the Kafka clients, which an in-process run ({@link CliRunner}) does not
 * capture. The exit status is the real one ({@code System.exit}).
 */
record CliProcess(int status, String out, String err) {
  static CliProcess run(Duration timeout, String... args) throws Exception {
    Path out = Files.createTempFile("ogpm-cli-out", ".txt");
    Path err = Files.createTempFile("ogpm-cli-err", ".txt");
    try {
      List<String> command = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx512m", "-cp", System.getProperty("java.class.path"), OgpmCli.class.getName()));
      command.addAll(List.of(args));
      Process p = new ProcessBuilder(command)
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(out.toFile())
          .redirectError(err.toFile())
          .start();
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor();
        throw new AssertionError("ogpm " + String.join(" ", args) + " did not exit within " + timeout
            + "; stderr so far:\n" + Files.readString(err, StandardCharsets.UTF_8));
      }
      return new CliProcess(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
