package io.ogpm.jobs.cli;

/** Whether {@code main} was called by Flink's program runner rather than by {@code java -jar}. */
final class FlinkProgram {
  /**
   * Flink calls a job jar's {@code main} through {@code PackagedProgram} in every submission path:
   * {@code flink run} in the client, and the web UI, REST API and application mode inside the
   * JobManager.
   */
  static final String RUNNER = "org.apache.flink.client.program.PackagedProgram";

  private FlinkProgram() {}

  static boolean isRunningUnderFlink() {
    return StackWalker.getInstance()
        .walk(frames -> frames.anyMatch(f -> f.getClassName().equals(RUNNER)));
  }
}
