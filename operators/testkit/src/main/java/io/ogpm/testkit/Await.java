package io.ogpm.testkit;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;

/**
 * Waits for a condition, never for a fixed time: a test ends as soon as the condition holds, and
 * the deadline only bounds a real failure. Why: on a busy shared machine a job can be many times
 * slower than on an idle one, and a fixed sleep is either too short (a flaky test) or too long.
 */
public final class Await {
  private static final long POLL_MILLIS = 200;
  private static final int MAX_SHOWN = 300;

  private Await() {}

  /** {@link #until(String, Duration, Supplier, Predicate)} with {@link KafkaFixture#PATIENCE}. */
  public static <T> T until(String what, Supplier<T> probe, Predicate<? super T> done) {
    return until(what, KafkaFixture.PATIENCE, probe, done);
  }

  /**
   * Calls {@code probe} until {@code done} accepts its result, and returns that result.
   *
   * @param what the condition, for the message (e.g. {@code "500 records in topic out"})
   * @throws AssertionError if the condition does not hold within {@code patience}; the message
   *     names {@code what}, the patience and the last result seen
   */
  public static <T> T until(
      String what, Duration patience, Supplier<T> probe, Predicate<? super T> done) {
    long deadline = System.nanoTime() + patience.toNanos();
    while (true) {
      T seen = probe.get();
      if (done.test(seen)) {
        return seen;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(
            what + ": not within " + patience + "; last seen: " + shorten(String.valueOf(seen)));
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + what, e);
      }
    }
  }

  /**
   * Waits until a job has {@code status} (for instance {@code RUNNING} after {@code executeAsync},
   * before producing its input; {@code CANCELED} after {@code cancel()}), within {@link
   * KafkaFixture#PATIENCE}. A job that ends in another state fails the wait at once.
   *
   * @throws AssertionError naming the job, the status waited for and the one it has
   */
  public static void jobStatus(JobClient job, JobStatus status) {
    String what = "job " + job.getJobID() + " " + status;
    JobStatus seen =
        until(what, () -> statusOf(job), s -> s == status || s.isGloballyTerminalState());
    if (seen != status) {
      throw new AssertionError(what + ": the job ended " + seen);
    }
  }

  private static JobStatus statusOf(JobClient job) {
    try {
      return job.getJobStatus().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "interrupted while asking job " + job.getJobID() + " for its status", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "job " + job.getJobID() + " has no status: " + e.getCause(), e.getCause());
    }
  }

  private static String shorten(String s) {
    return s.length() <= MAX_SHOWN
        ? s
        : s.substring(0, MAX_SHOWN) + "... (" + s.length() + " characters)";
  }
}
