package io.ogpm.cli;

import io.ogpm.demo.Accounting;
import io.ogpm.jobs.cli.AggregateJobCommand;
import io.ogpm.jobs.cli.CommandGroup;
import io.ogpm.jobs.cli.CommandLineRunner;
import io.ogpm.jobs.cli.PerturbJobCommand;
import io.ogpm.jobs.cli.Version;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code java -jar ogpm.jar COMMAND [options]}: every command. Exit 0 on success, 2 on a usage or
 * configuration error with one line on stderr naming the option or field, 1 on any other failure;
 * never {@code System.exit} when Flink runs it ({@link CommandLineRunner}).
 */
@Command(
    name = "ogpm",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description =
        "Local differential privacy for bounded numerical sensor streams (optimal piecewise mechanism).",
    subcommands = {
      MechanismCommand.class,
      ErrorCommand.class,
      AdviseCommand.class,
      SampleCommand.class,
      SolveCommand.class,
      PolarSplitCommand.class,
      PerturbCommand.class,
      PerturbJobCommand.class,
      AggregateJobCommand.class,
      DemoCommand.class,
      TopicsCommand.class,
      EstimateCommand.class,
      AuditCommand.class,
      BenchCommand.class,
      ReproduceCommand.class,
      CommandLine.HelpCommand.class
    })
public final class OgpmCli extends CommandGroup {
  public static void main(String[] args) {
    ClosingCheckpointFilter.install();
    runner().main(args);
  }

  /** Runs the command line with the given streams; returns the exit status. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    return runner().run(args, out, err);
  }

  private static CommandLineRunner runner() {
    return CommandLineRunner.of(new OgpmCli())
        .withOneLineFailures(Accounting.MismatchException.class);
  }
}
