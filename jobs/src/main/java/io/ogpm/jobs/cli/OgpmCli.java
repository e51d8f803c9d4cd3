package io.ogpm.jobs.cli;

import io.ogpm.jobs.demo.Accounting;
import io.ogpm.jobs.flink.JobRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code java -jar ogpm.jar COMMAND [options]}: exit 0 on success, 2 on a usage or configuration
 * error with one line on stderr naming the option or field, 1 on any other failure.
 *
 * <p>When Flink runs {@code main} ({@code flink run}, or the web UI and the REST API, where it runs
 * inside the JobManager) it never calls {@link System#exit}, which would stop the client or the
 * JobManager itself: it returns normally, or throws {@link CommandFailedException} with the
 * one-line message, which Flink reports to the submitter.
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
    if (FlinkProgram.isRunningUnderFlink()) {
      runUnderFlink(args);
      return;
    }
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs a command for Flink's program runner: no exit; a failure is an exception. */
  static void runUnderFlink(String[] args) {
    StringWriter errors = new StringWriter();
    PrintWriter err = new PrintWriter(new Tee(errors, new PrintWriter(System.err, true)), true);
    int status = run(args, new PrintWriter(System.out, true), err);
    if (status != 0) {
      String message = errors.toString().strip().lines().reduce((a, b) -> b).orElse("ogpm: exit status " + status);
      throw new CommandFailedException(message, status);
    }
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
          if (ex instanceof JobRunner.JobFailedException || ex instanceof Accounting.MismatchException) {
            err.println("ogpm: " + ex.getMessage());
            err.flush();
            return 1;
          }
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

  /** A command that failed while Flink ran {@code main}: the message is the one line it printed. */
  public static final class CommandFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    CommandFailedException(String message, int status) {
      super(message);
      this.status = status;
    }

    /** The exit status the standalone command line would have returned. */
    public int status() {
      return status;
    }
  }

  /** Writes to two writers. */
  private static final class Tee extends Writer {
    private final Writer a;
    private final Writer b;

    Tee(Writer a, Writer b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(char[] buf, int off, int len) throws IOException {
      a.write(buf, off, len);
      b.write(buf, off, len);
    }

    @Override
    public void flush() throws IOException {
      a.flush();
      b.flush();
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
