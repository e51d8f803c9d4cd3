package io.ogpm.jobs.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The entry point of {@code ogpm-job.jar} for {@code flink run}, Flink's web UI and REST API:
 * {@code perturb-job} and {@code aggregate-job} (the runnable {@code ogpm.jar} has them too, with
 * every other command). See {@link CommandLineRunner} for exit statuses and behaviour under Flink.
 */
@Command(
    name = "ogpm",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description =
        "The ogpm Flink jobs: perturb-job (raw topic to perturbed topic) and aggregate-job (perturbed topic to"
            + " windowed statistics).",
    subcommands = {
      PerturbJobCommand.class,
      AggregateJobCommand.class,
      CommandLine.HelpCommand.class
    })
public final class OgpmJobs extends CommandGroup {
  public static void main(String[] args) {
    CommandLineRunner.of(new OgpmJobs()).main(args);
  }
}
