package io.ogpm.jobs.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code java -jar ogpm.jar COMMAND [options]}: exit 0 on success, 2 on a usage or configuration
 * error with one line on stderr naming the option or field, 1 on any other failure.
 */
@Command(
    name = "ogpm",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "Local differential privacy for bounded numerical sensor streams (optimal piecewise mechanism).",
    subcommands = {
      MechanismCommand.class,
      ErrorCommand.class,
      SampleCommand.class,
      PerturbCommand.class,
      PerturbJobCommand.class,
      AggregateJobCommand.class,
      DemoCommand.class,
      EstimateCommand.class,
      AuditCommand.class,
      ReproduceCommand.class,
      CommandLine.HelpCommand.class
    })
public final class OgpmCli implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a command is required (see --help)");
  }

  public static void main(String[] args) {
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the command line with the given streams; returns the exit status. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = new CommandLine(new OgpmCli());
    cli.setOut(out);
    cli.setErr(err);
    cli.setParameterExceptionHandler(
        (ex, a) -> {
          err.println("ogpm: " + ex.getMessage());
          err.flush();
          return 2;
        });
    cli.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          if (ex instanceof UsageError) {
            err.println("ogpm: " + ex.getMessage());
            err.flush();
            return 2;
          }
          err.println("ogpm: " + ex.getClass().getSimpleName() + ": " + ex.getMessage());
          err.flush();
          return 1;
        });
    int status = cli.execute(args);
    out.flush();
    return status;
  }
}
