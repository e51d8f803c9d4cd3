package io.ogpm.jobs.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The decisions of {@code ogpm topics}, without a broker: what deviates, why, and what a setting
 * cures.
 */
class TopicAuditTest {
  static final TopicLayout LAYOUT =
      TopicLayout.builder().perturbParallelism(4).replicationFactor(3).build();
  static final ObservedBroker GOOD_BROKER =
      new ObservedBroker(1, Map.of("transaction.max.timeout.ms", "900000"));

  /**
   * The topics as `ogpm topics` creates them, with what a broker reports by default for the rest.
   */
  static Map<String, ObservedTopic> asCreated(TopicLayout layout) {
    Map<String, ObservedTopic> out = new LinkedHashMap<>();
    for (TopicSpec t : layout.topics()) {
      Map<String, String> configs =
          new HashMap<>(
              Map.of(
                  "retention.ms",
                  "604800000",
                  "cleanup.policy",
                  "delete",
                  "message.timestamp.type",
                  "CreateTime",
                  "min.insync.replicas",
                  "1"));
      configs.putAll(t.configs());
      out.put(
          t.name(), new ObservedTopic(t.name(), t.partitions(), t.replicationFactor(), configs));
    }
    return out;
  }

  static Map<String, ObservedTopic> with(
      Map<String, ObservedTopic> topics,
      String name,
      int partitions,
      int replicas,
      Map<String, String> changes) {
    Map<String, ObservedTopic> out = new LinkedHashMap<>(topics);
    ObservedTopic t = topics.get(name);
    Map<String, String> configs = new HashMap<>(t.configs());
    configs.putAll(changes);
    out.put(name, new ObservedTopic(name, partitions, replicas, configs));
    return out;
  }

  static Map<String, ObservedTopic> with(
      Map<String, ObservedTopic> topics, String name, Map<String, String> changes) {
    ObservedTopic t = topics.get(name);
    return with(topics, name, t.partitions(), t.replicationFactor(), changes);
  }

  static List<String> lines(Map<String, ObservedTopic> topics, ObservedBroker... brokers) {
    return TopicAudit.check(LAYOUT, topics, List.of(brokers)).stream()
        .map(Deviation::line)
        .toList();
  }

  @Test
  void topicsAsCreatedOnABrokerThatFitsTheSinksDeviateInNothing() {
    assertThat(TopicAudit.check(LAYOUT, asCreated(LAYOUT), List.of(GOOD_BROKER))).isEmpty();
    assertThat(TopicAudit.fixes(LAYOUT, asCreated(LAYOUT))).isEmpty();
  }

  /**
   * A raw topic grown past the perturbed topic's partitions: their records would share partitions.
   */
  @Test
  void aPerturbedTopicWithFewerPartitionsThanTheRawTopicDeviates() {
    Map<String, ObservedTopic> grown = with(asCreated(LAYOUT), "ogpm.raw", 6, 3, Map.of());
    assertThat(lines(grown, GOOD_BROKER))
        .containsExactly(
            "ogpm.perturbed: 4 partitions, fewer than the 6 of ogpm.raw: "
                + TopicLayout.WHY_PARTITIONS_FOLLOW_RAW);
    assertThat(lines(with(asCreated(LAYOUT), "ogpm.perturbed", 6, 3, Map.of()), GOOD_BROKER))
        .as("more is fine")
        .isEmpty();
  }

  @Test
  void theLayoutCreatesWhatTheJobsNeed() {
    Map<String, TopicSpec> topics = new LinkedHashMap<>();
    LAYOUT.topics().forEach(t -> topics.put(t.name(), t));
    assertThat(topics)
        .containsOnlyKeys("ogpm.raw", "ogpm.perturbed", "ogpm.dead-letters", "ogpm.stats");
    assertThat(topics.get("ogpm.raw").partitions()).isEqualTo(4);
    assertThat(topics.get("ogpm.raw").configs())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "retention.ms",
                "86400000",
                "cleanup.policy",
                "delete",
                "message.timestamp.type",
                "LogAppendTime",
                "min.insync.replicas",
                "2"));
    assertThat(topics.get("ogpm.perturbed").partitions()).isEqualTo(4);
    assertThat(topics.get("ogpm.perturbed").configs())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("cleanup.policy", "delete", "min.insync.replicas", "2"));
    assertThat(topics.get("ogpm.dead-letters").partitions()).isEqualTo(1);
    assertThat(topics.get("ogpm.stats").configs())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "cleanup.policy",
                "delete",
                "message.timestamp.type",
                "LogAppendTime",
                "min.insync.replicas",
                "2"));
    assertThat(topics.values()).allSatisfy(t -> assertThat(t.replicationFactor()).isEqualTo(3));
    TopicLayout roomy = TopicLayout.builder().perturbParallelism(4).partitions(12).build();
    assertThat(roomy.topics().get(0).partitions()).isEqualTo(12);
    assertThat(roomy.topics().get(1).partitions()).isEqualTo(12);
  }

  /**
   * The demo's layout: the topics the jobs write keep every record whatever its time stamp; the raw
   * topic keeps its short retention, and the topics as created still meet every requirement.
   */
  @Test
  void keepOutputsKeepsWhatTheJobsWriteAndLeavesTheRawRetention() {
    TopicLayout kept = TopicLayout.builder().perturbParallelism(4).keepOutputs().build();
    Map<String, TopicSpec> topics = new LinkedHashMap<>();
    kept.topics().forEach(t -> topics.put(t.name(), t));
    assertThat(topics.get("ogpm.raw").configs()).containsEntry("retention.ms", "86400000");
    for (String output : List.of("ogpm.perturbed", "ogpm.dead-letters", "ogpm.stats")) {
      assertThat(topics.get(output).configs()).as(output).containsEntry("retention.ms", "-1");
    }
    assertThat(TopicAudit.check(kept, asCreated(kept), List.of(GOOD_BROKER))).isEmpty();
    assertThat(LAYOUT.topics())
        .allSatisfy(
            t ->
                assertThat(t.configs().getOrDefault("retention.ms", ""))
                    .as(t.name())
                    .isNotEqualTo("-1"));
  }

  @Test
  void aMissingTopicIsOneDeviation() {
    Map<String, ObservedTopic> topics = new LinkedHashMap<>(asCreated(LAYOUT));
    topics.remove("ogpm.dead-letters");
    assertThat(lines(topics, GOOD_BROKER))
        .containsExactly(
            "ogpm.dead-letters: does not exist: the dead letters, written by perturb-job (ogpm topics creates it)");
  }

  @Test
  void fewerPartitionsThanPerturbSubtasksDeviateOnBothTheRawAndThePerturbedTopic() {
    Map<String, ObservedTopic> topics =
        with(with(asCreated(LAYOUT), "ogpm.raw", 3, 3, Map.of()), "ogpm.perturbed", 1, 3, Map.of());
    assertThat(lines(topics, GOOD_BROKER))
        .containsExactly(
            "ogpm.raw: 3 partitions, needs at least 4 (--perturb-parallelism): "
                + TopicLayout.WHY_RAW_PARTITIONS,
            "ogpm.perturbed: 1 partition, needs at least 4 (--perturb-parallelism): "
                + TopicLayout.WHY_PERTURBED_PARTITIONS,
            "ogpm.perturbed: 1 partition, fewer than the 3 of ogpm.raw: "
                + TopicLayout.WHY_PARTITIONS_FOLLOW_RAW);
    assertThat(TopicAudit.fixes(LAYOUT, topics)).as("partitions are never changed").isEmpty();
    assertThat(lines(with(asCreated(LAYOUT), "ogpm.raw", 4, 3, Map.of()), GOOD_BROKER))
        .as("exactly as many")
        .isEmpty();
    assertThat(
            lines(
                with(
                    with(asCreated(LAYOUT), "ogpm.raw", 40, 3, Map.of()),
                    "ogpm.perturbed",
                    40,
                    3,
                    Map.of()),
                GOOD_BROKER))
        .as("more")
        .isEmpty();
    assertThat(lines(with(asCreated(LAYOUT), "ogpm.dead-letters", 1, 3, Map.of()), GOOD_BROKER))
        .as("one dead-letter partition")
        .isEmpty();
  }

  @Test
  void rawReadingsKeptForeverOrLongerThanTheRawRetentionDeviateAndAreCuredByTheRetention() {
    Map<String, ObservedTopic> forever =
        with(asCreated(LAYOUT), "ogpm.raw", Map.of("retention.ms", "-1"));
    assertThat(lines(forever, GOOD_BROKER))
        .containsExactly(
            "ogpm.raw: retention.ms=-1 (forever), needs at most 86400000 (1d, --raw-retention): "
                + TopicLayout.WHY_RAW_RETENTION);
    assertThat(TopicAudit.fixes(LAYOUT, forever))
        .isEqualTo(Map.of("ogpm.raw", Map.of("retention.ms", "86400000")));
    Map<String, ObservedTopic> week =
        with(asCreated(LAYOUT), "ogpm.raw", Map.of("retention.ms", "604800000"));
    assertThat(lines(week, GOOD_BROKER))
        .containsExactly(
            "ogpm.raw: retention.ms=604800000 (7d), needs at most 86400000 (1d, --raw-retention): "
                + TopicLayout.WHY_RAW_RETENTION);
    assertThat(
            lines(
                with(asCreated(LAYOUT), "ogpm.raw", Map.of("retention.ms", "86400001")),
                GOOD_BROKER))
        .hasSize(1);
    assertThat(
            lines(
                with(asCreated(LAYOUT), "ogpm.raw", Map.of("retention.ms", "86400000")),
                GOOD_BROKER))
        .isEmpty();
    assertThat(
            lines(
                with(asCreated(LAYOUT), "ogpm.raw", Map.of("retention.ms", "3600000")),
                GOOD_BROKER))
        .as("shorter")
        .isEmpty();
    assertThat(
            lines(
                with(asCreated(LAYOUT), "ogpm.perturbed", Map.of("retention.ms", "-1")),
                GOOD_BROKER))
        .as("perturbed records may be kept as long as wanted")
        .isEmpty();
    TopicLayout hours =
        TopicLayout.builder().perturbParallelism(4).rawRetention(Duration.ofHours(36)).build();
    assertThat(
            TopicAudit.check(
                hours, with(asCreated(hours), "ogpm.raw", Map.of("retention.ms", "-1")), List.of()))
        .extracting(Deviation::found)
        .containsExactly(
            "retention.ms=-1 (forever), needs at most 129600000 (36h, --raw-retention)");
  }

  @Test
  void compactionDeviatesOnEveryTopicWithItsOwnReason() {
    Map<String, ObservedTopic> topics = asCreated(LAYOUT);
    topics = with(topics, "ogpm.raw", Map.of("cleanup.policy", "compact"));
    topics = with(topics, "ogpm.stats", Map.of("cleanup.policy", "compact,delete"));
    topics = with(topics, "ogpm.perturbed", Map.of("cleanup.policy", "delete"));
    assertThat(lines(topics, GOOD_BROKER))
        .containsExactly(
            "ogpm.raw: cleanup.policy=compact, needs delete: " + TopicLayout.WHY_RAW_NO_COMPACTION,
            "ogpm.stats: cleanup.policy=compact,delete, needs delete: "
                + TopicLayout.WHY_OUTPUT_NO_COMPACTION);
    assertThat(TopicAudit.fixes(LAYOUT, topics))
        .isEqualTo(
            Map.of(
                "ogpm.raw",
                Map.of("cleanup.policy", "delete"),
                "ogpm.stats",
                Map.of("cleanup.policy", "delete")));
  }

  @Test
  void theRawAndStatsTopicsNeedTheBrokersClockAndThePerturbedTopicKeepsItsOwn() {
    Map<String, ObservedTopic> topics = asCreated(LAYOUT);
    topics = with(topics, "ogpm.raw", Map.of("message.timestamp.type", "CreateTime"));
    topics = with(topics, "ogpm.stats", Map.of("message.timestamp.type", "CreateTime"));
    assertThat(lines(topics, GOOD_BROKER))
        .containsExactly(
            "ogpm.raw: message.timestamp.type=CreateTime, needs LogAppendTime: "
                + TopicLayout.WHY_RAW_LOG_APPEND_TIME,
            "ogpm.stats: message.timestamp.type=CreateTime, needs LogAppendTime: "
                + TopicLayout.WHY_STATS_LOG_APPEND_TIME);
    assertThat(TopicAudit.fixes(LAYOUT, topics).get("ogpm.raw"))
        .isEqualTo(Map.of("message.timestamp.type", "LogAppendTime"));
    assertThat(
            lines(
                with(
                    asCreated(LAYOUT),
                    "ogpm.perturbed",
                    Map.of("message.timestamp.type", "LogAppendTime")),
                GOOD_BROKER))
        .as("the aggregate job may use the perturbed records' own time")
        .isEmpty();
  }

  @Test
  void tooFewReplicasAndTooFewInSyncReplicasDeviate() {
    Map<String, ObservedTopic> topics =
        with(asCreated(LAYOUT), "ogpm.perturbed", 4, 1, Map.of("min.insync.replicas", "1"));
    assertThat(lines(topics, GOOD_BROKER))
        .containsExactly(
            "ogpm.perturbed: 1 replica, needs 3 (--replication-factor): "
                + TopicLayout.WHY_REPLICAS,
            "ogpm.perturbed: min.insync.replicas=1, needs at least 2 (--min-insync-replicas): "
                + TopicLayout.WHY_MIN_INSYNC);
    assertThat(TopicAudit.fixes(LAYOUT, topics))
        .as("2 in-sync replicas cannot be set on a topic with one")
        .isEmpty();
    Map<String, ObservedTopic> oneInSync =
        with(asCreated(LAYOUT), "ogpm.dead-letters", Map.of("min.insync.replicas", "1"));
    assertThat(lines(oneInSync, GOOD_BROKER))
        .containsExactly(
            "ogpm.dead-letters: min.insync.replicas=1, needs at least 2 (--min-insync-replicas): "
                + TopicLayout.WHY_MIN_INSYNC);
    assertThat(TopicAudit.fixes(LAYOUT, oneInSync))
        .isEqualTo(Map.of("ogpm.dead-letters", Map.of("min.insync.replicas", "2")));
    assertThat(
            lines(
                with(asCreated(LAYOUT), "ogpm.raw", Map.of("min.insync.replicas", "3")),
                GOOD_BROKER))
        .as("all three")
        .isEmpty();
  }

  @Test
  void moreInSyncReplicasThanReplicasMakeATopicUnwritable() {
    Map<String, ObservedTopic> topics =
        with(asCreated(LAYOUT), "ogpm.stats", Map.of("min.insync.replicas", "4"));
    assertThat(lines(topics, GOOD_BROKER))
        .containsExactly(
            "ogpm.stats: min.insync.replicas=4 with 3 replicas, needs at most 3: "
                + TopicLayout.WHY_INSYNC_WITHIN);
    assertThat(TopicAudit.fixes(LAYOUT, topics))
        .isEqualTo(Map.of("ogpm.stats", Map.of("min.insync.replicas", "2")));
    TopicLayout single = TopicLayout.builder().perturbParallelism(2).replicationFactor(1).build();
    assertThat(single.minInsyncReplicas()).isEqualTo(1);
    Map<String, ObservedTopic> one =
        with(asCreated(single), "ogpm.raw", Map.of("min.insync.replicas", "2"));
    assertThat(TopicAudit.check(single, one, List.of(GOOD_BROKER)))
        .extracting(Deviation::line)
        .containsExactly(
            "ogpm.raw: min.insync.replicas=2 with 1 replica, needs at most 1: "
                + TopicLayout.WHY_INSYNC_WITHIN);
    assertThat(TopicAudit.fixes(single, one))
        .isEqualTo(Map.of("ogpm.raw", Map.of("min.insync.replicas", "1")));
  }

  @Test
  void aBrokerWhoseTransactionCeilingIsBelowTheJobsTimeoutDeviates() {
    ObservedBroker low = new ObservedBroker(2, Map.of("transaction.max.timeout.ms", "599999"));
    ObservedBroker equal = new ObservedBroker(3, Map.of("transaction.max.timeout.ms", "600000"));
    ObservedBroker silent = new ObservedBroker(4, Map.of());
    assertThat(lines(asCreated(LAYOUT), GOOD_BROKER, low, equal, silent))
        .containsExactly(
            "broker 2: transaction.max.timeout.ms=599999, needs at least 600000 (the jobs' transaction.timeout.ms): "
                + TopicLayout.WHY_TRANSACTION_TIMEOUT,
            "broker 4: transaction.max.timeout.ms=(not reported), needs at least 600000 (the jobs' transaction.timeout.ms): "
                + TopicLayout.WHY_TRANSACTION_TIMEOUT);
    TopicLayout shortTransactions =
        TopicLayout.builder().transactionTimeout(Duration.ofMinutes(1)).build();
    assertThat(shortTransactions.check(low)).isEmpty();
    assertThat(shortTransactions.brokerRequirement())
        .startsWith(
            "transaction.max.timeout.ms at least 60000 (1m, the jobs' transaction.timeout.ms): ");
  }

  @Test
  void everyDeviationIsOneLine() {
    Map<String, ObservedTopic> topics = asCreated(LAYOUT);
    topics =
        with(
            topics,
            "ogpm.raw",
            1,
            1,
            Map.of(
                "retention.ms",
                "-1",
                "cleanup.policy",
                "compact",
                "message.timestamp.type",
                "CreateTime",
                "min.insync.replicas",
                "2"));
    topics.remove("ogpm.stats");
    List<String> lines =
        lines(topics, new ObservedBroker(1, Map.of("transaction.max.timeout.ms", "1000")));
    assertThat(lines).hasSize(8).allSatisfy(l -> assertThat(l).doesNotContain("\n"));
  }

  @Test
  void badOptionsAreNamed() {
    assertThatThrownBy(() -> TopicLayout.builder().perturbParallelism(0).build())
        .hasMessage("--perturb-parallelism must be >= 1, got 0");
    assertThatThrownBy(() -> TopicLayout.builder().perturbParallelism(6).partitions(5).build())
        .hasMessage("--partitions must be at least --perturb-parallelism (6), got 5");
    assertThatThrownBy(() -> TopicLayout.builder().rawRetention(Duration.ZERO).build())
        .hasMessage("--raw-retention must be positive, got PT0S");
    assertThatThrownBy(() -> TopicLayout.builder().replicationFactor(0).build())
        .hasMessage("--replication-factor must be >= 1, got 0");
    assertThatThrownBy(
            () -> TopicLayout.builder().replicationFactor(2).minInsyncReplicas(3).build())
        .hasMessage("--min-insync-replicas must be in [1, --replication-factor 2], got 3");
    assertThatThrownBy(() -> TopicLayout.builder().topics("a", "b", "a", "c").build())
        .hasMessage(
            "--dead-letter-topic 'a' is also another topic of the deployment: each needs its own");
    assertThatThrownBy(() -> TopicLayout.builder().topics("a", " ", "b", "c").build())
        .hasMessage("--perturbed-topic: must not be blank, got ' '");
    assertThatThrownBy(() -> TopicLayout.builder().transactionTimeout(Duration.ZERO).build())
        .hasMessage("transaction.timeout.ms must be positive, got 0");
  }

  @Test
  void durationsPrintInTheirLargestWholeUnit() {
    assertThat(TopicLayout.human(Duration.ofDays(1))).isEqualTo("1d");
    assertThat(TopicLayout.human(Duration.ofHours(36))).isEqualTo("36h");
    assertThat(TopicLayout.human(Duration.ofSeconds(90))).isEqualTo("90s");
    assertThat(TopicLayout.human(Duration.ofMillis(1500))).isEqualTo("1500ms");
  }
}
