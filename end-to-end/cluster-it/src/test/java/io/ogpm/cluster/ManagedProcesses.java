package io.ogpm.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * The processes a test starts, each with its output in its own log file; all of them are killed
 * when the test class ends, whatever happened, and by a JVM shutdown hook if the test JVM itself is
 * stopped first (a build interrupted with Ctrl-C, a failsafe timeout). A failed test prints the end
 * of every process's log, since that is where a cluster says what went wrong.
 */
final class ManagedProcesses implements AfterAllCallback, TestWatcher {
  private static final int TAIL_LINES = 40;

  private final List<ManagedProcess> processes = new ArrayList<>();
  private final Thread shutdownHook = new Thread(this::destroyAll, "ogpm-cluster-cleanup");
  private boolean hooked;

  /** A started process: its name, handle, and logs (its output first, then any file it logs to). */
  record ManagedProcess(String name, Process process, List<Path> logs) {
    /**
     * {@code kill -9}: SIGKILL to the process (no shutdown hooks, no goodbye to the cluster), then
     * waits for it.
     */
    void kill() {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      try {
        process.waitFor(1, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    boolean alive() {
      return process.isAlive();
    }

    /** Sends {@code kill -<signal>} (STOP, CONT...) to the process, and waits for the command. */
    void signal(String signal) {
      try {
        Process kill =
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                .redirectErrorStream(true)
                .start();
        String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (kill.waitFor() != 0) {
          throw new IllegalStateException("kill -" + signal + " " + name + ": " + output);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    /** The last lines of each of its logs. */
    String tail(int lines) {
      StringBuilder out = new StringBuilder();
      for (Path log : logs) {
        out.append("-- ").append(log).append('\n');
        if (!Files.exists(log)) {
          out.append("(none)\n");
          continue;
        }
        try {
          List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
          out.append(String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size())))
              .append('\n');
        } catch (IOException | UncheckedIOException e) {
          out.append("(cannot read it: ").append(e.getMessage()).append(")\n");
        }
      }
      return out.toString();
    }
  }

  /**
   * Starts {@code command} with stdout and stderr appended to {@code log} (and nothing on stdin);
   * it is killed with the others when the test class ends. {@code moreLogs}: files the process logs
   * to, shown with its output when a test fails.
   */
  synchronized ManagedProcess start(
      String name,
      List<String> command,
      Map<String, String> environment,
      Path log,
      Path... moreLogs) {
    if (!hooked) {
      Runtime.getRuntime().addShutdownHook(shutdownHook);
      hooked = true;
    }
    try {
      Files.createDirectories(log.getParent());
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
      builder.environment().putAll(environment);
      Process process = builder.start();
      process.getOutputStream().close();
      List<Path> logs = new ArrayList<>(List.of(log));
      logs.addAll(List.of(moreLogs));
      ManagedProcess p = new ManagedProcess(name, process, List.copyOf(logs));
      processes.add(p);
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + ": " + String.join(" ", command), e);
    }
  }

  /**
   * Runs {@code command} to its end and returns its exit status; output to {@code log}.
   *
   * @throws AssertionError if it does not end within {@code patience} (it is killed)
   */
  int run(
      String name,
      List<String> command,
      Map<String, String> environment,
      Path log,
      Duration patience) {
    ManagedProcess p = start(name, command, environment, log);
    try {
      if (!p.process().waitFor(patience.toMillis(), TimeUnit.MILLISECONDS)) {
        p.kill();
        throw new AssertionError(
            name
                + " did not end within "
                + patience
                + "; its log ends with:\n"
                + p.tail(TAIL_LINES));
      }
      return p.process().exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.kill();
      throw new IllegalStateException("interrupted while running " + name, e);
    } finally {
      synchronized (this) {
        processes.remove(p);
      }
    }
  }

  /** Kills every process still running, newest first (clients before servers). */
  synchronized void destroyAll() {
    for (int i = processes.size() - 1; i >= 0; i--) {
      ManagedProcess p = processes.get(i);
      if (p.alive()) {
        p.kill();
      }
    }
    processes.clear();
  }

  @Override
  public void testFailed(ExtensionContext context, Throwable cause) {
    StringBuilder out =
        new StringBuilder(
            "\n==== the end of each process's log ("
                + context.getDisplayName()
                + " failed) ====\n");
    List<ManagedProcess> all;
    synchronized (this) {
      all = List.copyOf(processes);
    }
    for (ManagedProcess p : all) {
      out.append("---- ")
          .append(p.name())
          .append(p.alive() ? "" : " (ended)")
          .append('\n')
          .append(p.tail(TAIL_LINES));
    }
    System.err.println(out);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    destroyAll();
    if (hooked) {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException e) {
        // the JVM is already shutting down: the hook runs anyway, harmlessly
      }
      hooked = false;
    }
  }
}
