package io.ogpm.cli;

import org.apache.flink.runtime.checkpoint.CheckpointException;
import org.apache.flink.runtime.checkpoint.CheckpointFailureReason;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.filter.AbstractFilter;

/**
 * Denies one harmless warning that log4j2.properties cannot tell apart by its wording: a checkpoint
 * "declined (task is closing)", requested from a task the TaskManager no longer knows ("unknown
 * task"), or aborted because the job left RUNNING ("Checkpoint Coordinator is suspending"), which
 * Flink's CheckpointFailureManager logs as a WARN with a stack trace when a periodic checkpoint
 * races the end of a bounded job (the job's final checkpoint commits its output, so nothing is
 * lost; a task that is gone, or a job that stopped running, because something failed is reported by
 * the failure itself). The reason is in the exception, not in the message, so this filter reads the
 * exception's {@link CheckpointFailureReason} and message; every other checkpoint failure
 * (timeouts, failing tasks, storage errors) still shows. Installed in code rather than by the
 * configuration's plugin discovery, which the shaded jar would have to merge.
 */
final class ClosingCheckpointFilter extends AbstractFilter {
  static final String LOGGER = "org.apache.flink.runtime.checkpoint.CheckpointFailureManager";

  /**
   * The other form of the same race: the task had finished when the checkpoint request reached it.
   */
  static final String UNKNOWN_TASK = "TaskManager received a checkpoint request for unknown task";

  ClosingCheckpointFilter() {
    super(Filter.Result.DENY, Filter.Result.NEUTRAL);
  }

  /** Adds the filter to the running Log4j configuration, if Log4j Core is the logging backend. */
  static void install() {
    if (!(LogManager.getContext(false) instanceof LoggerContext context)) {
      return;
    }
    Configuration config = context.getConfiguration();
    LoggerConfig logger = config.getLoggerConfig(LOGGER);
    if (!logger.getName().equals(LOGGER)) {
      logger = new LoggerConfig(LOGGER, logger.getLevel(), true); // the level it inherited
      config.addLogger(LOGGER, logger);
    }
    logger.addFilter(new ClosingCheckpointFilter());
    context.updateLoggers();
  }

  @Override
  public Result filter(LogEvent event) {
    return declinedWhileClosing(event.getThrown()) ? onMatch : onMismatch;
  }

  static boolean declinedWhileClosing(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof CheckpointException e
          && (e.getCheckpointFailureReason()
                  == CheckpointFailureReason.CHECKPOINT_DECLINED_TASK_CLOSING
              || e.getCheckpointFailureReason()
                  == CheckpointFailureReason.CHECKPOINT_COORDINATOR_SUSPEND
              || String.valueOf(e.getMessage()).startsWith(UNKNOWN_TASK))) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "ClosingCheckpointFilter";
  }
}
