package io.ogpm.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The {@code java} launcher of this JVM, for the processes the test starts. */
final class JavaCommand {
  private JavaCommand() {}

  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * A Log4j 2 configuration for a process the test starts: INFO and up to its console (the file
   * {@link ManagedProcesses} keeps), one line per event, then {@code loggers}, lines of the same
   * properties format that set some loggers' levels.
   */
  static String consoleLog4j(String... loggers) {
    List<String> lines =
        new ArrayList<>(
            List.of(
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.out.ref = out",
                "appender.out.type = Console",
                "appender.out.name = out",
                "appender.out.layout.type = PatternLayout",
                "appender.out.layout.pattern = %d{HH:mm:ss.SSS} %-5p %c{1} - %m%n"));
    lines.addAll(List.of(loggers));
    lines.add("");
    return String.join("\n", lines);
  }
}
