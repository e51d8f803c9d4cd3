package io.ogpm.cluster;

import java.nio.file.Path;

/** The {@code java} launcher of this JVM, for the processes the test starts. */
final class JavaCommand {
  private JavaCommand() {}

  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
