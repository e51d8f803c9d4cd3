package io.ogpm.jobs;

import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.flink.kafka.StableOffsets;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;

/**
 * Runs a job built on an environment the way the command line and the demo need it: with a bounded
 * restart strategy unless the cluster configures one, and, for a bounded run that waits for its
 * result, returning only once its output is committed and visible to {@code read_committed}
 * readers.
 */
public final class JobRunner {
  /**
   * How long a finished bounded job's output may take to become visible: the commit markers are
   * written by the broker after the commit returns. Well below the sinks' transaction timeout (10
   * minutes), so an open transaction of ours is reported rather than silently aborted.
   */
  public static final Duration OUTPUT_VISIBILITY_TIMEOUT = Duration.ofMinutes(5);

  /** Backoff of the restart strategy set by {@link #boundRestarts}. */
  static final Duration INITIAL_BACKOFF = Duration.ofSeconds(1);

  static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

  /** A job that ran this long without failing starts counting its restarts again. */
  static final Duration RESET_AFTER = Duration.ofHours(1);

  private JobRunner() {}

  /**
   * Unless the environment (the cluster's or the submitter's configuration) already names a restart
   * strategy, makes the job fail after {@code attempts} consecutive restarts instead of restarting
   * forever: exponential delay from 1 s to 1 min, the count reset after an hour without failure.
   * Why: with checkpointing on, Flink's default restarts without end, so a job whose sink can never
   * work (a broker refusing its transaction timeout, a topic deleted) would only ever print
   * warnings.
   *
   * @return whether this strategy was applied
   */
  public static boolean boundRestarts(StreamExecutionEnvironment env, int attempts) {
    if (env.getConfiguration().getOptional(RestartStrategyOptions.RESTART_STRATEGY).isPresent()) {
      return false;
    }
    Configuration c = new Configuration();
    if (attempts == 0) {
      c.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    } else {
      c.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
      c.set(
          RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF,
          INITIAL_BACKOFF);
      c.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF, MAX_BACKOFF);
      c.set(
          RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD,
          RESET_AFTER);
      c.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS, attempts);
    }
    env.configure(c);
    return true;
  }

  /**
   * Executes the job. When it is bounded and the run is attached (the result is awaited: a local
   * run, or {@code flink run} without {@code -d}), returns only once every transaction on {@code
   * outputTopics} is decided, so a reader started next sees all of the output.
   *
   * @return the result, or null for a detached submission (web UI, REST API, {@code flink run -d})
   * @throws JobFailedException with a one-line message (the root cause) if the job fails
   */
  public static JobExecutionResult execute(
      StreamExecutionEnvironment env,
      String name,
      boolean bounded,
      KafkaSettings kafka,
      List<String> outputTopics) {
    JobExecutionResult result;
    try {
      result = env.execute(name);
    } catch (Exception e) {
      throw new JobFailedException("job '" + name + "' failed: " + rootCause(e), e);
    }
    if (result == null || !result.isJobExecutionResult()) {
      return null;
    }
    if (bounded) {
      try (Admin admin = Admin.create(kafka.adminConfig())) {
        StableOffsets.awaitTopics(admin, outputTopics, OUTPUT_VISIBILITY_TIMEOUT);
      } catch (IllegalStateException e) {
        throw new JobFailedException(
            "job '" + name + "' finished but its output is not visible: " + e.getMessage(), e);
      }
    }
    return result;
  }

  /** The innermost cause, as {@code Class: message} on one line. */
  static String rootCause(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message =
        root.getMessage() == null ? "" : ": " + root.getMessage().lines().findFirst().orElse("");
    return root.getClass().getSimpleName() + message;
  }

  /** A job that failed or whose output did not become visible; the message is one line. */
  public static final class JobFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    JobFailedException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
