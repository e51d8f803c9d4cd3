package io.ogpm.cli;

import io.ogpm.jobs.cli.CommandRun;

/** The ogpm command line in this JVM ({@link CommandRun#inProcess}). */
final class CliRunner {
  private CliRunner() {}

  static CommandRun run(String... args) {
    return CommandRun.inProcess(OgpmCli::run, args);
  }
}
