package io.ogpm.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.junit.jupiter.api.Test;

/** Waiting for a job's status, on a job client that reports a scripted sequence of statuses. */
class AwaitTest {
  private static final JobID ID = JobID.fromHexString("0123456789abcdef0123456789abcdef");

  /** Reports the statuses in order, then the last one for ever; counts how often it was asked. */
  private static class ScriptedJob implements JobClient {
    final Deque<JobStatus> statuses;
    int asked;

    ScriptedJob(JobStatus... statuses) {
      this.statuses = new ArrayDeque<>(List.of(statuses));
    }

    @Override
    public CompletableFuture<JobStatus> getJobStatus() {
      asked++;
      return CompletableFuture.completedFuture(
          statuses.size() > 1 ? statuses.poll() : statuses.peek());
    }

    @Override
    public JobID getJobID() {
      return ID;
    }

    @Override
    public CompletableFuture<Void> cancel() {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<String> stopWithSavepoint(
        boolean drain, String dir, SavepointFormatType type) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<String> triggerSavepoint(String dir, SavepointFormatType type) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<Map<String, Object>> getAccumulators() {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<JobExecutionResult> getJobExecutionResult() {
      throw new UnsupportedOperationException();
    }
  }

  @Test
  void waitsUntilTheJobHasTheStatus() {
    ScriptedJob job = new ScriptedJob(JobStatus.INITIALIZING, JobStatus.CREATED, JobStatus.RUNNING);
    Await.jobStatus(job, JobStatus.RUNNING);
    assertThat(job.asked).isEqualTo(3);
    ScriptedJob cancelled = new ScriptedJob(JobStatus.CANCELLING, JobStatus.CANCELED);
    Await.jobStatus(cancelled, JobStatus.CANCELED);
    assertThat(cancelled.asked).isEqualTo(2);
  }

  @Test
  void aJobThatEndsInAnotherStateFailsTheWaitAtOnce() {
    ScriptedJob job = new ScriptedJob(JobStatus.CREATED, JobStatus.FAILED);
    assertThatThrownBy(() -> Await.jobStatus(job, JobStatus.RUNNING))
        .isInstanceOf(AssertionError.class)
        .hasMessage("job 0123456789abcdef0123456789abcdef RUNNING: the job ended FAILED");
    assertThat(job.asked).isEqualTo(2);
  }

  @Test
  void aJobWithoutStatusIsNamed() {
    JobClient job =
        new ScriptedJob(JobStatus.RUNNING) {
          @Override
          public CompletableFuture<JobStatus> getJobStatus() {
            return CompletableFuture.failedFuture(new IllegalArgumentException("unknown job"));
          }
        };
    assertThatThrownBy(() -> Await.jobStatus(job, JobStatus.RUNNING))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("job 0123456789abcdef0123456789abcdef has no status: ")
        .hasRootCauseMessage("unknown job");
  }
}
