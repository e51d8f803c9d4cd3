package io.ogpm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.runtime.checkpoint.CheckpointException;
import org.apache.flink.runtime.checkpoint.CheckpointFailureReason;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.Test;

class ClosingCheckpointFilterTest {
  static Filter.Result filter(Throwable thrown) {
    return new ClosingCheckpointFilter()
        .filter(
            Log4jLogEvent.newBuilder()
                .setLoggerName(ClosingCheckpointFilter.LOGGER)
                .setLevel(Level.WARN)
                .setMessage(
                    new SimpleMessage(
                        "Failed to trigger or complete checkpoint 2 for job x. (0 consecutive failed attempts so far)"))
                .setThrown(thrown)
                .build());
  }

  @Test
  void onlyACheckpointThatRacedTheEndOfTheJobIsDenied() {
    assertThat(
            filter(
                new CheckpointException(CheckpointFailureReason.CHECKPOINT_DECLINED_TASK_CLOSING)))
        .isEqualTo(Filter.Result.DENY);
    assertThat(
            filter(
                new RuntimeException(
                    "wrapped",
                    new CheckpointException(
                        CheckpointFailureReason.CHECKPOINT_DECLINED_TASK_CLOSING))))
        .isEqualTo(Filter.Result.DENY);
    assertThat(
            filter(
                new CheckpointException(
                    "TaskManager received a checkpoint request for unknown task 9a9f_0_0.",
                    CheckpointFailureReason.TASK_CHECKPOINT_FAILURE)))
        .isEqualTo(Filter.Result.DENY);
    assertThat(
            filter(new CheckpointException(CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND)))
        .isEqualTo(Filter.Result.DENY);
    assertThat(filter(new CheckpointException(CheckpointFailureReason.TASK_CHECKPOINT_FAILURE)))
        .isEqualTo(Filter.Result.NEUTRAL);
    assertThat(filter(new CheckpointException(CheckpointFailureReason.CHECKPOINT_EXPIRED)))
        .isEqualTo(Filter.Result.NEUTRAL);
    assertThat(filter(new CheckpointException(CheckpointFailureReason.TASK_FAILURE)))
        .isEqualTo(Filter.Result.NEUTRAL);
    assertThat(filter(null)).isEqualTo(Filter.Result.NEUTRAL);
  }

  @Test
  void installingAddsTheFilterToThatLogger() {
    ClosingCheckpointFilter.install();
    var context =
        (org.apache.logging.log4j.core.LoggerContext)
            org.apache.logging.log4j.LogManager.getContext(false);
    var logger = context.getConfiguration().getLoggerConfig(ClosingCheckpointFilter.LOGGER);
    assertThat(logger.getName()).isEqualTo(ClosingCheckpointFilter.LOGGER);
    assertThat(logger.getFilter()).isNotNull();
  }
}
