package io.ogpm.jobs;

import java.time.Duration;
import java.util.function.Consumer;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A MiniCluster with several task managers, for failure and restore tests. With one slot per task
 * manager and parallelism 2, each task manager runs one subtask of every operator (slot sharing),
 * so killing any of them is sure to hit the job.
 */
final class TestCluster implements AutoCloseable {
  final MiniCluster cluster;

  TestCluster(int taskManagers, int slots) throws Exception {
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 20);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
    conf.setString("metrics.reporter.capture.factory.class", CapturingReporter.class.getName());
    cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
        .setConfiguration(conf)
        .setNumTaskManagers(taskManagers)
        .setNumSlotsPerTaskManager(slots)
        .withRandomPorts()
        .build());
    cluster.start();
  }

  /** Builds a job with {@code pipeline} and submits it, optionally restoring a savepoint. */
  JobID submit(Consumer<StreamExecutionEnvironment> pipeline, String savepoint) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    pipeline.accept(env);
    JobGraph graph = env.getStreamGraph().getJobGraph();
    if (savepoint != null) {
      graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(savepoint));
    }
    return cluster.submitJob(graph).get().getJobID();
  }

  JobResult await(JobID job, Duration timeout) throws Exception {
    return cluster.requestJobResult(job).get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /** Waits until the job is running. */
  void awaitRunning(JobID job, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (cluster.getJobStatus(job).get() != JobStatus.RUNNING) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("job " + job + " not running after " + timeout);
      }
      Thread.sleep(50);
    }
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
