package io.ogpm.jobs.cli;

import picocli.CommandLine;

/**
 * A top-level command that only groups subcommands ({@code ogpm} of {@code ogpm-job.jar} and of
 * {@code ogpm.jar}): run without one, it is a usage error (exit status 2) that points to {@code
 * --help}, so both command lines answer a missing command alike.
 */
public abstract class CommandGroup implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public final void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "a command is required (see --help)");
  }
}
