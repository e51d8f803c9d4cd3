package io.ogpm.jobs;

import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * What the deployable jobs set on their environment, and the library never does: exactly-once
 * checkpoints (the Kafka sinks commit on them), the parallelism if one is given, and no generic
 * types (a type that would fall back to Kryo fails the build of the job instead).
 */
public final class JobEnvironment {
  private JobEnvironment() {}

  /** @param parallelism 0: leave the environment's */
  public static void configure(StreamExecutionEnvironment env, Duration checkpointInterval, int parallelism) {
    env.enableCheckpointing(checkpointInterval.toMillis(), CheckpointingMode.EXACTLY_ONCE);
    if (parallelism > 0) {
      env.setParallelism(parallelism);
    }
    Configuration noKryo = new Configuration();
    noKryo.set(PipelineOptions.GENERIC_TYPES, false);
    env.configure(noKryo);
  }
}
