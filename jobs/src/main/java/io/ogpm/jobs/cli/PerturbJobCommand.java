package io.ogpm.jobs.cli;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.kafka.KafkaPreflight;
import io.ogpm.jobs.PerturbJob;
import io.ogpm.jobs.topics.TopicLayout;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.RecordPerturber;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
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
      defaultValue = TopicLayout.RAW,
      description = "Raw topic. Default: ${DEFAULT-VALUE}.")
  String inputTopic;

  @Option(
      names = "--output-topic",
      defaultValue = TopicLayout.PERTURBED,
      description = "Perturbed topic. Default: ${DEFAULT-VALUE}.")
  String outputTopic;

  @Option(
      names = "--dead-letter-topic",
      defaultValue = TopicLayout.DEAD_LETTERS,
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
        kafka.check(settings).topic(deadLetterTopic, "dead-letter topic (--dead-letter-topic)");
    if (settings
        .config()
        .budget()
        .map(b -> b.clock() == BudgetClock.LOG_APPEND_TIME)
        .orElse(false)) {
      // Otherwise every record would be dead-lettered as untrusted-time: say so before starting.
      check.logAppendTime(inputTopic, "the budget's clock log-append-time");
    }
    kafka.run(
        "perturb",
        settings,
        check,
        List.of(outputTopic, deadLetterTopic),
        env -> PerturbJob.build(env, settings));
    return 0;
  }

  /**
   * The job's settings from the parsed options, validated (naming a bad option): the configuration
   * and the key are checked here, before submission.
   */
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
      throw new UsageError(config.origin() + ": " + e.getMessage());
    } finally {
      mode.destroy();
    }
    try {
      return kafka
          .applyTo(PerturbJob.Settings.builder())
          .config(cfg)
          .inputTopic(inputTopic)
          .outputTopic(outputTopic)
          .deadLetterTopic(deadLetterTopic)
          .keySource(keySource)
          .build();
    } catch (IllegalArgumentException e) {
      throw new UsageError(OptionNames.commandLine(e.getMessage()));
    }
  }
}
