package io.ogpm.jobs.cli;

/** The jobs' command line ({@link OgpmJobs}) in this JVM ({@link CommandRun#inProcess}). */
final class CliRunner {
  private CliRunner() {}

  static CommandRun run(String... args) {
    return CommandRun.inProcess(CommandLineRunner.of(new OgpmJobs())::run, args);
  }
}
