package io.ogpm.jobs.cli;

import io.ogpm.jobs.JobRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.List;
import picocli.CommandLine;

/**
 * Runs a picocli command line the way every ogpm entry point does: exit 0 on success, 2 on a usage
 * or configuration error with one line on stderr naming the option or field, 1 on any other failure
 * (one line too for the failures listed as {@linkplain #withOneLineFailures one-line}).
 *
 * <p>When Flink runs {@code main} ({@code flink run}, or the web UI and the REST API, where it runs
 * inside the JobManager), {@link #main} never calls {@link System#exit}, which would stop the
 * client or the JobManager itself: it returns normally, or throws {@link CommandFailedException}
 * with the one-line message, which Flink reports to the submitter. Flink's own control-flow errors
 * (plan extraction) pass through untouched.
 */
public final class CommandLineRunner {
  private final Object command;
  private final List<Class<? extends RuntimeException>> oneLine;

  private CommandLineRunner(Object command, List<Class<? extends RuntimeException>> oneLine) {
    this.command = command;
    this.oneLine = oneLine;
  }

  /** A runner for a picocli command object. */
  public static CommandLineRunner of(Object command) {
    return new CommandLineRunner(command, List.of());
  }

  /** Also prints these failures as their message alone, on one line (exit status 1). */
  @SafeVarargs
  public final CommandLineRunner withOneLineFailures(
      Class<? extends RuntimeException>... failures) {
    return new CommandLineRunner(command, List.of(failures));
  }

  /** The entry point: {@link System#exit} with the status, except under Flink's program runner. */
  public void main(String[] args) {
    if (FlinkProgram.isRunningUnderFlink()) {
      runUnderFlink(args);
      return;
    }
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs for Flink's program runner: no exit; a failure is an exception with the one line. */
  void runUnderFlink(String[] args) {
    StringWriter errors = new StringWriter();
    PrintWriter err = new PrintWriter(new Tee(errors, new PrintWriter(System.err, true)), true);
    int status = run(args, new PrintWriter(System.out, true), err);
    if (status != 0) {
      String message =
          errors
              .toString()
              .strip()
              .lines()
              .reduce((a, b) -> b)
              .orElse("ogpm: exit status " + status);
      throw new CommandFailedException(message, status);
    }
  }

  /** Runs the command line with the given streams; returns the exit status. */
  public int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = new CommandLine(command);
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
          if (ex instanceof JobRunner.JobFailedException
              || oneLine.stream().anyMatch(c -> c.isInstance(ex))) {
            err.println("ogpm: " + ex.getMessage());
            err.flush();
            return 1;
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
