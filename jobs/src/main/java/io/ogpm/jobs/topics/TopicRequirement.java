package io.ogpm.jobs.topics;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * One thing a topic must satisfy for the jobs, with the reason. Each kind knows how to tell a
 * deviation ({@link #found}) and, when a topic setting cures it, which one ({@link #fix}); the
 * partitions and the replication factor of an existing topic are never changed here (more
 * partitions move keys to other partitions; more replicas need a reassignment).
 */
public sealed interface TopicRequirement {
  String RETENTION_MS = "retention.ms";
  String CLEANUP_POLICY = "cleanup.policy";
  String MIN_INSYNC_REPLICAS = "min.insync.replicas";

  /** What is needed, for the explanation printed when topics are created. */
  String needed();

  /** Why the jobs need it. */
  String why();

  /** What was found and what is needed instead, if the topic does not satisfy this. */
  Optional<String> found(ObservedTopic topic);

  /** The topic setting that cures a deviation, if one does. */
  default Optional<Map.Entry<String, String>> fix(ObservedTopic topic) {
    return Optional.empty();
  }

  /** At least {@code min} partitions. */
  record MinPartitions(int min, String option, String why) implements TopicRequirement {
    @Override
    public String needed() {
      return "at least " + min + " partitions (" + option + ")";
    }

    @Override
    public Optional<String> found(ObservedTopic t) {
      return t.partitions() >= min
          ? Optional.empty()
          : Optional.of(
              plural(t.partitions(), "partition")
                  + ", needs at least "
                  + min
                  + " ("
                  + option
                  + ")");
    }
  }

  /** Every partition has at least {@code min} replicas. */
  record MinReplicas(int min, String why) implements TopicRequirement {
    @Override
    public String needed() {
      return "replication factor " + min + " (--replication-factor)";
    }

    @Override
    public Optional<String> found(ObservedTopic t) {
      return t.replicationFactor() >= min
          ? Optional.empty()
          : Optional.of(
              plural(t.replicationFactor(), "replica")
                  + ", needs "
                  + min
                  + " (--replication-factor)");
    }
  }

  /** A topic setting with exactly this value. */
  record ConfigEquals(String key, String value, String why) implements TopicRequirement {
    @Override
    public String needed() {
      return key + "=" + value;
    }

    @Override
    public Optional<String> found(ObservedTopic t) {
      String actual = t.config(key).orElse("(not reported)");
      return actual.equals(value)
          ? Optional.empty()
          : Optional.of(key + "=" + actual + ", needs " + value);
    }

    @Override
    public Optional<Map.Entry<String, String>> fix(ObservedTopic t) {
      return found(t).map(f -> Map.entry(key, value));
    }
  }

  /**
   * Records deleted by time, after at most {@code max}: {@code retention.ms} in {@code (0, max]}.
   */
  record RetentionAtMost(Duration max, String option, String why) implements TopicRequirement {
    @Override
    public String needed() {
      return RETENTION_MS
          + "="
          + max.toMillis()
          + " ("
          + TopicLayout.human(max)
          + ", "
          + option
          + ") or less";
    }

    @Override
    public Optional<String> found(ObservedTopic t) {
      String actual = t.config(RETENTION_MS).orElse("(not reported)");
      long ms;
      try {
        ms = Long.parseLong(actual);
      } catch (NumberFormatException e) {
        ms = -1;
      }
      if (ms >= 0 && ms <= max.toMillis()) {
        return Optional.empty();
      }
      String shown =
          ms < 0 && actual.equals("-1")
              ? "-1 (forever)"
              : ms < 0 ? actual : actual + " (" + TopicLayout.human(Duration.ofMillis(ms)) + ")";
      return Optional.of(
          RETENTION_MS
              + "="
              + shown
              + ", needs at most "
              + max.toMillis()
              + " ("
              + TopicLayout.human(max)
              + ", "
              + option
              + ")");
    }

    @Override
    public Optional<Map.Entry<String, String>> fix(ObservedTopic t) {
      return found(t).map(f -> Map.entry(RETENTION_MS, Long.toString(max.toMillis())));
    }
  }

  /** {@code cleanup.policy} without {@code compact}. */
  record NoCompaction(String why) implements TopicRequirement {
    @Override
    public String needed() {
      return CLEANUP_POLICY + "=delete";
    }

    @Override
    public Optional<String> found(ObservedTopic t) {
      String actual = t.config(CLEANUP_POLICY).orElse("delete");
      boolean compacted =
          Arrays.stream(actual.split(",")).map(String::trim).anyMatch("compact"::equals);
      return compacted
          ? Optional.of(CLEANUP_POLICY + "=" + actual + ", needs delete")
          : Optional.empty();
    }

    @Override
    public Optional<Map.Entry<String, String>> fix(ObservedTopic t) {
      return found(t).map(f -> Map.entry(CLEANUP_POLICY, "delete"));
    }
  }

  /**
   * {@code min.insync.replicas} at least {@code min}: an acknowledged write is on that many
   * replicas.
   */
  record MinInsyncReplicas(int min, String why) implements TopicRequirement {
    @Override
    public String needed() {
      return MIN_INSYNC_REPLICAS + "=" + min + " (--min-insync-replicas)";
    }

    @Override
    public Optional<String> found(ObservedTopic t) {
      int actual = insyncReplicas(t);
      return actual >= min
          ? Optional.empty()
          : Optional.of(
              MIN_INSYNC_REPLICAS
                  + "="
                  + actual
                  + ", needs at least "
                  + min
                  + " (--min-insync-replicas)");
    }

    @Override
    public Optional<Map.Entry<String, String>> fix(ObservedTopic t) {
      return found(t)
          .filter(f -> min <= t.replicationFactor())
          .map(f -> Map.entry(MIN_INSYNC_REPLICAS, Integer.toString(min)));
    }
  }

  /**
   * {@code min.insync.replicas} at most the replication factor, or no {@code acks=all} write
   * succeeds.
   */
  record InsyncWithinReplicas(int wanted, String why) implements TopicRequirement {
    @Override
    public String needed() {
      return MIN_INSYNC_REPLICAS + " at most the replication factor";
    }

    @Override
    public Optional<String> found(ObservedTopic t) {
      int actual = insyncReplicas(t);
      return actual <= t.replicationFactor()
          ? Optional.empty()
          : Optional.of(
              MIN_INSYNC_REPLICAS
                  + "="
                  + actual
                  + " with "
                  + plural(t.replicationFactor(), "replica")
                  + ", needs at most "
                  + t.replicationFactor());
    }

    /**
     * Lowered to the wanted value when the topic's replicas allow it, else to its replication
     * factor.
     */
    @Override
    public Optional<Map.Entry<String, String>> fix(ObservedTopic t) {
      return found(t)
          .map(
              f ->
                  Map.entry(
                      MIN_INSYNC_REPLICAS,
                      Integer.toString(Math.min(wanted, t.replicationFactor()))));
    }
  }

  /** The topic's effective {@code min.insync.replicas}; Kafka's default is 1. */
  private static int insyncReplicas(ObservedTopic t) {
    try {
      return Integer.parseInt(t.config(MIN_INSYNC_REPLICAS).orElse("1"));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  private static String plural(int n, String noun) {
    return Deviation.plural(n, noun);
  }
}
