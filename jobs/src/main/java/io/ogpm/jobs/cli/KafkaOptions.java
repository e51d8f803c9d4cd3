package io.ogpm.jobs.cli;

import io.ogpm.flink.kafka.KafkaPreflight;
import io.ogpm.jobs.JobRunner;
import io.ogpm.jobs.KafkaJobSettings;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Options shared by the Flink jobs: Kafka access ({@link KafkaConnectionOptions}), the group and
 * transactional ids, checkpointing, parallelism, restarts.
 */
final class KafkaOptions {
  @Mixin KafkaConnectionOptions connection;

  @Option(
      names = "--group-id",
      paramLabel = "ID",
      description = "Consumer group id. Default: the job's name.")
  String groupId;

  @Option(
      names = "--transactional-id-prefix",
      paramLabel = "PREFIX",
      description =
          "Prefix of the exactly-once sinks' transactional ids; unique per job on a cluster. Default: the job's name.")
  String transactionalIdPrefix;

  @Option(
      names = "--parallelism",
      paramLabel = "N",
      defaultValue = "0",
      description = "Job parallelism (0: the cluster's default).")
  int parallelism;

  @Option(
      names = "--checkpoint-interval",
      paramLabel = "DURATION",
      defaultValue = "10s",
      converter = DurationConverter.class,
      description =
          "Checkpoint interval; exactly-once outputs become visible to read_committed consumers at each checkpoint. Default: ${DEFAULT-VALUE}.")
  Duration checkpointInterval;

  @Option(
      names = "--restart-attempts",
      paramLabel = "N",
      defaultValue = "10",
      description =
          "Consecutive restarts before the job fails (exponential backoff 1 s to 1 min, counted afresh after"
              + " an hour without failure; 0: never restart). Used only when the cluster configures no restart strategy."
              + " Default: ${DEFAULT-VALUE}.")
  int restartAttempts;

  @Option(
      names = "--bounded",
      description =
          "Stop at the input topic's current end (backfills, tests) instead of running forever.")
  boolean bounded;

  /**
   * The start-up checks of a job: the cluster, its input and output topic; a job adds its own (its
   * other topics, their settings).
   */
  KafkaPreflight check(KafkaJobSettings settings) {
    return KafkaPreflight.of(settings.kafka(), connection.timeout())
        .topic(settings.inputTopic(), "input topic (--input-topic)")
        .topic(settings.outputTopic(), "output topic (--output-topic)");
  }

  /**
   * Runs a job as both commands do: the start-up checks first (a failure is a usage error: exit 2,
   * one line), then the job, built by {@code job} on an environment whose restarts are bounded
   * ({@code --restart-attempts}), named {@code ogpm <name> <input> -> <output>}; a bounded run
   * returns once every output topic is committed.
   */
  void run(
      String name,
      KafkaJobSettings settings,
      KafkaPreflight check,
      List<String> outputTopics,
      Consumer<StreamExecutionEnvironment> job) {
    try {
      check.run();
    } catch (KafkaPreflight.PreflightException e) {
      throw new UsageError(e.getMessage());
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    JobRunner.boundRestarts(env, restartAttempts);
    job.accept(env);
    JobRunner.execute(
        env,
        "ogpm " + name + " " + settings.inputTopic() + " -> " + settings.outputTopic(),
        settings.bounded(),
        settings.kafka(),
        outputTopics);
  }

  /**
   * Sets these options on a job's settings: Kafka, the group id and the transactional id prefix
   * (when given: else the job's defaults stay), bounded, the checkpoint interval and the
   * parallelism.
   */
  <B extends KafkaJobSettings.Builder<B>> B applyTo(B settings) {
    if (groupId != null) {
      settings.groupId(groupId);
    }
    if (transactionalIdPrefix != null) {
      settings.transactionalIdPrefix(transactionalIdPrefix);
    }
    return settings
        .kafka(connection.settings())
        .bounded(bounded)
        .checkpointInterval(checkpointInterval)
        .parallelism(parallelism);
  }

  void validate() {
    if (parallelism < 0) {
      throw new UsageError("--parallelism must be >= 0, got " + parallelism);
    }
    if (restartAttempts < 0) {
      throw new UsageError("--restart-attempts must be >= 0, got " + restartAttempts);
    }
    connection.timeout(); // a usage error unless positive
    if (checkpointInterval.isZero() || checkpointInterval.isNegative()) {
      throw new UsageError("--checkpoint-interval must be positive, got " + checkpointInterval);
    }
  }
}
