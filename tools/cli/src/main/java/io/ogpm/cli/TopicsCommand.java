package io.ogpm.cli;

import io.ogpm.flink.kafka.KafkaPreflight;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.jobs.cli.DurationConverter;
import io.ogpm.jobs.cli.KafkaConnectionOptions;
import io.ogpm.jobs.cli.UsageError;
import io.ogpm.jobs.topics.Deviation;
import io.ogpm.jobs.topics.ObservedTopic;
import io.ogpm.jobs.topics.TopicAudit;
import io.ogpm.jobs.topics.TopicLayout;
import io.ogpm.jobs.topics.TopicRequirement;
import io.ogpm.jobs.topics.TopicSpec;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Creates, or checks, the Kafka topics of a deployment with the settings the jobs need. */
@Command(
    name = "topics",
    mixinStandardHelpOptions = true,
    description = {
      "Creates the topics a deployment needs (raw, perturbed, dead letters, stats) with the settings the jobs rely on,"
          + " and says why for each; sets those settings on topics that exist. With --check, changes nothing: prints"
          + " one line per deviation (topic or broker, what was found, what is needed, why) and exits 1 if there is any."
          + " Partitions and the replication factor of an existing topic are reported, never changed."
    })
final class TopicsCommand implements Callable<Integer> {
  @Mixin KafkaConnectionOptions connection;

  @Option(
      names = "--check",
      description = "Change nothing; report each deviation on one line, exit 1 if there is any.")
  boolean check;

  @Option(
      names = "--raw-topic",
      defaultValue = TopicLayout.RAW,
      description = "Default: ${DEFAULT-VALUE}.")
  String rawTopic;

  @Option(
      names = "--perturbed-topic",
      defaultValue = TopicLayout.PERTURBED,
      description = "Default: ${DEFAULT-VALUE}.")
  String perturbedTopic;

  @Option(
      names = "--dead-letter-topic",
      defaultValue = TopicLayout.DEAD_LETTERS,
      description = "Default: ${DEFAULT-VALUE}.")
  String deadLetterTopic;

  @Option(
      names = "--stats-topic",
      defaultValue = TopicLayout.STATS,
      description = "Default: ${DEFAULT-VALUE}.")
  String statsTopic;

  @Option(
      names = "--perturb-parallelism",
      paramLabel = "N",
      defaultValue = "6",
      description =
          "The perturb job's parallelism: the raw and perturbed topics need at least this many partitions."
              + " Default: ${DEFAULT-VALUE}.")
  int perturbParallelism;

  @Option(
      names = "--partitions",
      paramLabel = "N",
      description =
          "Partitions of a new raw or perturbed topic (room to scale out later). Default: --perturb-parallelism.")
  Integer partitions;

  @Option(
      names = "--raw-retention",
      paramLabel = "DURATION",
      defaultValue = "1d",
      converter = DurationConverter.class,
      description =
          "The longest the raw topic may keep a reading; it must outlive a perturb-job outage. Default: ${DEFAULT-VALUE}.")
  Duration rawRetention;

  @Option(
      names = "--replication-factor",
      paramLabel = "N",
      defaultValue = "3",
      description = "Default: ${DEFAULT-VALUE}.")
  int replicationFactor;

  @Option(
      names = "--min-insync-replicas",
      paramLabel = "N",
      description =
          "Replicas that must have a write before it is acknowledged. Default: 2, or 1 with --replication-factor 1.")
  Integer minInsyncReplicas;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    KafkaSettings kafka = connection.settings();
    TopicLayout layout = layout(kafka);
    try {
      KafkaPreflight.of(kafka, connection.timeout()).run();
    } catch (KafkaPreflight.PreflightException e) {
      throw new UsageError(e.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<String> names = layout.topics().stream().map(TopicSpec::name).toList();
    try (KafkaTopicAdmin admin =
        KafkaTopicAdmin.create(kafka.adminConfig(), connection.timeout())) {
      Map<String, ObservedTopic> observed = admin.describe(names);
      if (!check) {
        apply(layout, observed, admin, out);
        observed = admin.describe(names);
      }
      List<Deviation> deviations = TopicAudit.check(layout, observed, admin.brokers());
      deviations.forEach(d -> out.println(d.line()));
      out.flush();
      if (!deviations.isEmpty()) {
        err.println(
            "ogpm: topics: "
                + deviations.size()
                + (deviations.size() == 1 ? " deviation" : " deviations")
                + (check
                    ? " (ogpm topics without --check sets topic settings; partitions, replicas and broker settings are yours to change)"
                    : " left (partitions, replicas and broker settings are yours to change)"));
        err.flush();
        return 1;
      }
      out.println(
          "ok: "
              + String.join(", ", names)
              + " and "
              + kafka.bootstrapServers()
              + " meet what the jobs need");
      return 0;
    } catch (KafkaTopicAdmin.AdminFailure e) {
      throw new UsageError(e.getMessage());
    }
  }

  /** The layout from the options; a bad value is a usage error naming the option. */
  TopicLayout layout(KafkaSettings kafka) {
    if (minInsyncReplicas != null && minInsyncReplicas < 1) {
      throw new UsageError("--min-insync-replicas must be >= 1, got " + minInsyncReplicas);
    }
    if (partitions != null && partitions < 1) {
      throw new UsageError("--partitions must be >= 1, got " + partitions);
    }
    String timeout = kafka.producerProperties().getProperty("transaction.timeout.ms");
    long timeoutMs;
    try {
      timeoutMs = Long.parseLong(timeout.trim());
    } catch (NumberFormatException e) {
      throw new UsageError(
          "--kafka-properties: transaction.timeout.ms must be a number of milliseconds, got '"
              + timeout
              + "'");
    }
    connection.timeout(); // a usage error unless positive
    try {
      return TopicLayout.builder()
          .topics(rawTopic, perturbedTopic, deadLetterTopic, statsTopic)
          .perturbParallelism(perturbParallelism)
          .partitions(partitions == null ? 0 : partitions)
          .rawRetention(rawRetention)
          .replicationFactor(replicationFactor)
          .minInsyncReplicas(minInsyncReplicas == null ? 0 : minInsyncReplicas)
          .transactionTimeout(Duration.ofMillis(timeoutMs))
          .build();
    } catch (IllegalArgumentException e) {
      throw new UsageError(e.getMessage());
    }
  }

  /**
   * Creates the missing topics and sets the settings that cure deviations of existing ones, saying
   * why.
   */
  private static void apply(
      TopicLayout layout,
      Map<String, ObservedTopic> observed,
      KafkaTopicAdmin admin,
      PrintWriter out) {
    Map<String, Map<String, String>> fixes = TopicAudit.fixes(layout, observed);
    for (TopicSpec t : layout.topics()) {
      if (!observed.containsKey(t.name())) {
        admin.create(t);
        out.println(
            "created "
                + t.name()
                + " ("
                + t.role()
                + "): "
                + t.partitions()
                + (t.partitions() == 1 ? " partition" : " partitions")
                + ", replication factor "
                + t.replicationFactor()
                + ", "
                + settings(t.configs()));
        explain(t, out);
      } else if (fixes.containsKey(t.name())) {
        Map<String, String> fix = fixes.get(t.name());
        admin.alter(t.name(), fix);
        ObservedTopic before = observed.get(t.name());
        out.println(
            "updated "
                + t.name()
                + " ("
                + t.role()
                + "): "
                + fix.entrySet().stream()
                    .map(
                        e ->
                            e.getKey()
                                + "="
                                + e.getValue()
                                + " (was "
                                + before.config(e.getKey()).orElse("unset")
                                + ")")
                    .collect(Collectors.joining(", ")));
        explain(t, out);
      } else {
        out.println(
            "kept " + t.name() + " (" + t.role() + "): its settings meet what the jobs need");
      }
    }
    out.println("every broker: " + layout.brokerRequirement());
  }

  private static void explain(TopicSpec t, PrintWriter out) {
    for (TopicRequirement r : t.requirements()) {
      if (r instanceof TopicRequirement.InsyncWithinReplicas) {
        continue; // implied by the replication factor and min.insync.replicas above
      }
      out.println("  " + r.needed() + ": " + r.why());
    }
  }

  private static String settings(Map<String, String> configs) {
    return configs.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", "));
  }
}
