package io.ogpm.jobs.cli;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.jobs.flink.PerturbJob;
import io.ogpm.record.RandomnessMode;
import io.ogpm.record.RecordPerturber;
import java.nio.file.Path;
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
    description = "Runs the Flink job that perturbs the raw topic into the perturbed topic (exactly once),"
        + " rejected records into the dead-letter topic. Locally on a MiniCluster with java -jar, or on a"
        + " cluster with flink run.")
public final class PerturbJobCommand implements Callable<Integer> {
  @Option(names = "--config", paramLabel = "FILE", required = true, description = "The field configuration (YAML).")
  Path config;

  @Option(names = "--input-topic", defaultValue = "ogpm.raw", description = "Raw topic. Default: ${DEFAULT-VALUE}.")
  String inputTopic;

  @Option(names = "--output-topic", defaultValue = "ogpm.perturbed", description = "Perturbed topic. Default: ${DEFAULT-VALUE}.")
  String outputTopic;

  @Option(names = "--dead-letter-topic", defaultValue = "ogpm.dead-letters", description = "Dead-letter topic. Default: ${DEFAULT-VALUE}.")
  String deadLetterTopic;

  @Mixin KafkaOptions kafka;

  @ArgGroup(exclusive = true)
  Key key;

  static final class Key {
    @Option(names = "--key-file", paramLabel = "FILE",
        description = "Keyed (replay-safe) randomness with the secret in FILE (the same path on every task manager).")
    Path file;

    @Option(names = "--key-env", paramLabel = "VAR",
        description = "Keyed randomness with the secret in environment variable VAR (set on every task manager).")
    String env;
  }

  @Override
  public Integer call() throws Exception {
    PerturbJob.Settings settings = settings();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    PerturbJob.build(env, settings);
    env.execute("ogpm perturb " + inputTopic + " -> " + outputTopic);
    return 0;
  }

  /** Validated settings: the configuration and the key are checked here, before submission. */
  PerturbJob.Settings settings() {
    kafka.validate();
    PrivacyConfig cfg = ConfigOption.load(config);
    KeySource keySource = key == null ? KeySource.none()
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
      throw new UsageError("--config " + config + ": " + e.getMessage());
    } finally {
      mode.destroy();
    }
    return new PerturbJob.Settings(cfg, kafka.settings(), inputTopic, outputTopic, deadLetterTopic,
        kafka.groupIdOr("ogpm-perturb"), kafka.transactionalIdPrefixOr("ogpm-perturb"), keySource,
        kafka.bounded, true, kafka.checkpointInterval, kafka.parallelism);
  }
}
