package io.ogpm.jobs;

import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * What the deployable jobs set on their environment, and the library never does: exactly-once
 * checkpoints (the Kafka sinks commit on them), the parallelism if one is given, no generic types
 * (a type that would fall back to Kryo fails the build of the job instead), and object reuse.
 *
 * <p>Object reuse: without it Flink copies every record, through its serializer, at each hand-over
 * between chained operators (the raw record into the perturbation, the perturbed one into the sink:
 * a reflective POJO copy of the raw record's bytes). The jobs' operators allow it: none keeps an
 * input beyond the call (the window operator copies what it keeps), the perturbation emits new
 * records, and the budget, which sets the fingerprint on a record it releases, gets its records
 * fresh from the shuffle by user. A user's job that wires the library itself chooses for itself.
 */
public final class JobEnvironment {
  private JobEnvironment() {}

  /**
   * @param parallelism 0: leave the environment's
   */
  public static void configure(
      StreamExecutionEnvironment env, Duration checkpointInterval, int parallelism) {
    env.enableCheckpointing(checkpointInterval.toMillis(), CheckpointingMode.EXACTLY_ONCE);
    if (parallelism > 0) {
      env.setParallelism(parallelism);
    }
    Configuration options = new Configuration();
    options.set(PipelineOptions.GENERIC_TYPES, false);
    options.set(PipelineOptions.OBJECT_REUSE, true);
    env.configure(options);
  }
}
