package io.ogpm.jobs.cli;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.kafka.KafkaPreflight;
import io.ogpm.jobs.JobRunner;
import io.ogpm.jobs.PerturbJob;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.RecordPerturber;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Runs PerturbJob: raw topic to perturbed topic and dead-letter topic. */
@Command(
    name = "perturb-job",
    mixinStandardHelpOptions = true,
    description =
        "Runs the Flink job that perturbs the raw topic into the perturbed topic (exactly once),"
            + " rejected records into the dead-letter topic. Locally on a MiniCluster with java -jar, or on a"
            + " cluster with flink run.")
public final class PerturbJobCommand implements Callable<Integer> {
  @ArgGroup(exclusive = true, multiplicity = "1")
  JobConfigSource config;

  @Option(
      names = "--input-topic",
      defaultValue = "ogpm.raw",
      description = "Raw topic. Default: ${DEFAULT-VALUE}.")
  String inputTopic;

  @Option(
      names = "--output-topic",
      defaultValue = "ogpm.perturbed",
      description = "Perturbed topic. Default: ${DEFAULT-VALUE}.")
  String outputTopic;

  @Option(
      names = "--dead-letter-topic",
      defaultValue = "ogpm.dead-letters",
      description = "Dead-letter topic. Default: ${DEFAULT-VALUE}.")
  String deadLetterTopic;

  @Mixin KafkaOptions kafka;

  @ArgGroup(exclusive = true)
  Key key;

  static final class Key {
    @Option(
        names = "--key-file",
        paramLabel = "FILE",
        description =
            "Keyed (replay-safe) randomness with the secret in FILE (the same path on every task manager).")
    Path file;

    @Option(
        names = "--key-env",
        paramLabel = "VAR",
        description =
            "Keyed randomness with the secret in environment variable VAR (set on every task manager).")
    String env;
  }

  @Override
  public Integer call() {
    PerturbJob.Settings settings = settings();
    KafkaPreflight check =
        kafka
            .check(settings.kafka())
            .topic(inputTopic, "input topic (--input-topic)")
            .topic(outputTopic, "output topic (--output-topic)")
            .topic(deadLetterTopic, "dead-letter topic (--dead-letter-topic)");
    if (settings
        .config()
        .budget()
        .map(b -> b.clock() == BudgetClock.LOG_APPEND_TIME)
        .orElse(false)) {
      // Otherwise every record would be dead-lettered as untrusted-time: say so before starting.
      check.logAppendTime(inputTopic, "the budget's clock log-append-time");
    }
    kafka.preflight(check);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    JobRunner.boundRestarts(env, kafka.restartAttempts);
    PerturbJob.build(env, settings);
    JobRunner.execute(
        env,
        "ogpm perturb " + inputTopic + " -> " + outputTopic,
        settings.bounded(),
        settings.kafka(),
        List.of(outputTopic, deadLetterTopic));
    return 0;
  }

  /** Validated settings: the configuration and the key are checked here, before submission. */
  /** The job's settings from the parsed options, validated (naming a bad option). */
  public PerturbJob.Settings settings() {
    kafka.validate();
    PrivacyConfig cfg = config.load();
    KeySource keySource =
        key == null
            ? KeySource.none()
            : key.file != null ? KeySource.file(key.file) : KeySource.environment(key.env);
    RandomnessMode mode;
    try {
      mode = keySource.load();
    } catch (IllegalArgumentException e) {
      throw new UsageError((key.file != null ? "--key-file: " : "--key-env: ") + e.getMessage());
    }
    try {
      new RecordPerturber(cfg, mode);
    } catch (IllegalArgumentException e) {
      throw new UsageError(
          (config.file != null ? "--config " + config.file : "--config-yaml")
              + ": "
              + e.getMessage());
    } finally {
      mode.destroy();
    }
    try {
      return PerturbJob.Settings.builder()
          .config(cfg)
          .kafka(kafka.settings())
          .inputTopic(inputTopic)
          .outputTopic(outputTopic)
          .deadLetterTopic(deadLetterTopic)
          .groupId(kafka.groupIdOr("ogpm-perturb"))
          .transactionalIdPrefix(kafka.transactionalIdPrefixOr("ogpm-perturb"))
          .keySource(keySource)
          .bounded(kafka.bounded)
          .checkpointInterval(kafka.checkpointInterval)
          .parallelism(kafka.parallelism)
          .build();
    } catch (IllegalArgumentException e) {
      throw new UsageError(option(e.getMessage()));
    }
  }

  /** The command line's name of the option a settings message starts with. */
  static String option(String message) {
    return message
        .replaceFirst("^inputTopic:", "--input-topic:")
        .replaceFirst("^outputTopic:", "--output-topic:")
        .replaceFirst("^deadLetterTopic:", "--dead-letter-topic:")
        .replaceFirst("^groupId:", "--group-id:")
        .replaceFirst("^transactionalIdPrefix:", "--transactional-id-prefix:");
  }
}
