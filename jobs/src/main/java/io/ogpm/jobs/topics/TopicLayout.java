package io.ogpm.jobs.topics;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.Options;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The four topics of a deployment (raw, perturbed, dead letters, stats) and the broker setting the
 * jobs rely on, each with the reason: what {@code ogpm topics} creates and checks, and what the
 * demo creates on its own broker. Built and validated by {@link #builder()}; defaults are the jobs'
 * own: the topic names are written here once ({@link #RAW}, {@link #PERTURBED}, {@link
 * #DEAD_LETTERS}, {@link #STATS}) and are the jobs' settings' and command lines' defaults; the
 * transaction timeout is the sinks' 10 minutes.
 *
 * <ul>
 *   <li>Raw and perturbed topics: at least as many partitions as perturb subtasks. A Kafka source
 *       subtask reads whole partitions, so subtasks beyond the raw topic's partitions read nothing;
 *       and the aggregate job (any consumer group) reads the perturbed topic with at most one
 *       subtask per partition.
 *   <li>Raw topic: a short time-based retention, no compaction, and the broker's clock ({@code
 *       message.timestamp.type=LogAppendTime}).
 *   <li>Written by the exactly-once sinks (perturbed, dead letters, stats): no compaction, since
 *       dead letters and stats (and perturbed records without an id) have no key.
 *   <li>Stats: the broker's clock, because stats records carry their window's time.
 *   <li>Every topic: the replication factor and {@code min.insync.replicas}.
 *   <li>Every broker: {@code transaction.max.timeout.ms} at least the jobs' {@code
 *       transaction.timeout.ms}.
 * </ul>
 */
public final class TopicLayout {
  /** The broker setting bounding the transaction timeout a producer may ask for. */
  public static final String TRANSACTION_MAX_TIMEOUT = "transaction.max.timeout.ms";

  // The jobs' default topic names.
  public static final String RAW = "ogpm.raw";
  public static final String PERTURBED = "ogpm.perturbed";
  public static final String DEAD_LETTERS = "ogpm.dead-letters";
  public static final String STATS = "ogpm.stats";

  /** {@code retention.ms} that deletes nothing by time. */
  static final String KEEP_FOREVER = "-1";

  static final String WHY_RAW_PARTITIONS =
      "each perturb source subtask reads whole partitions: subtasks beyond the"
          + " raw topic's partitions read nothing";
  static final String WHY_PERTURBED_PARTITIONS =
      "the aggregate job (like any consumer group) reads it with at most"
          + " one subtask per partition: fewer partitions than perturb subtasks narrow the pipeline after the perturbation";
  static final String WHY_PARTITIONS_FOLLOW_RAW =
      "the perturb job writes each record to the perturbed partition of"
          + " its raw partition's number: with fewer, raw partitions read by different subtasks share one, and after a"
          + " restore their records interleave out of event-time order";
  static final String WHY_RAW_RETENTION =
      "raw readings are the personal data the perturbation protects: keep them"
          + " only long enough to outlive a perturb-job outage (the job resumes from its checkpointed offsets)";
  static final String WHY_RAW_NO_COMPACTION =
      "compaction keeps each key's last raw reading however old, whatever" + " retention.ms says";
  static final String WHY_RAW_LOG_APPEND_TIME =
      "the privacy budget's default clock (log-append-time) counts"
          + " periods in the broker's time and refuses records stamped by their producer (untrusted-time); retention"
          + " counts from these timestamps too, so a producer's clock cannot keep raw readings longer";
  static final String WHY_OUTPUT_NO_COMPACTION =
      "the exactly-once sinks write records without a key (dead letters,"
          + " stats, perturbed records without an id-field), which a compacted topic refuses: the job would fail and"
          + " restart";
  static final String WHY_STATS_LOG_APPEND_TIME =
      "stats records are stamped with their window's event time, and"
          + " retention counts from record timestamps: the stats of replayed or backfilled data would be deleted as"
          + " soon as they are written";
  static final String WHY_REPLICAS =
      "with fewer replicas, losing a broker loses the topic's data or stops it";
  static final String WHY_MIN_INSYNC =
      "a write acknowledged with acks=all (a committed transaction of the"
          + " exactly-once sinks, a producer's raw reading) may then sit on fewer replicas and be lost with a broker";
  static final String WHY_INSYNC_WITHIN =
      "no write with acks=all is ever acknowledged (NotEnoughReplicas): the"
          + " exactly-once sinks can never commit and producers of raw readings fail";
  static final String WHY_TRANSACTION_TIMEOUT =
      "a broker refuses a transactional producer whose"
          + " transaction.timeout.ms exceeds it (InvalidTxnTimeoutException): the exactly-once sinks could not start"
          + " and the jobs would fail";

  private final String raw;
  private final String perturbed;
  private final String deadLetters;
  private final String stats;
  private final int perturbParallelism;
  private final int partitions;
  private final Duration rawRetention;
  private final int replicationFactor;
  private final int minInsyncReplicas;
  private final Duration transactionTimeout;
  private final boolean keepOutputs;

  private TopicLayout(Builder b) {
    raw = b.raw;
    perturbed = b.perturbed;
    deadLetters = b.deadLetters;
    stats = b.stats;
    perturbParallelism = b.perturbParallelism;
    partitions = b.partitions == 0 ? b.perturbParallelism : b.partitions;
    rawRetention = b.rawRetention;
    replicationFactor = b.replicationFactor;
    minInsyncReplicas =
        b.minInsyncReplicas == 0 ? Math.min(2, b.replicationFactor) : b.minInsyncReplicas;
    transactionTimeout = b.transactionTimeout;
    keepOutputs = b.keepOutputs;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The topics, in the order data flows through them. */
  public List<TopicSpec> topics() {
    List<TopicSpec> out = new ArrayList<>();
    String partitionsOption = "--perturb-parallelism";
    out.add(
        spec(
            raw,
            "raw readings, read by perturb-job",
            partitions,
            false,
            List.of(
                new TopicRequirement.MinPartitions(
                    perturbParallelism, partitionsOption, WHY_RAW_PARTITIONS),
                new TopicRequirement.RetentionAtMost(
                    rawRetention, "--raw-retention", WHY_RAW_RETENTION),
                new TopicRequirement.NoCompaction(WHY_RAW_NO_COMPACTION),
                new TopicRequirement.ConfigEquals(
                    BudgetClock.TOPIC_SETTING,
                    BudgetClock.LOG_APPEND_TIME_VALUE,
                    WHY_RAW_LOG_APPEND_TIME))));
    out.add(
        spec(
            perturbed,
            "perturbed records, written by perturb-job, read by aggregate-job",
            partitions,
            true,
            List.of(
                new TopicRequirement.MinPartitions(
                    perturbParallelism, partitionsOption, WHY_PERTURBED_PARTITIONS),
                new TopicRequirement.NoCompaction(WHY_OUTPUT_NO_COMPACTION))));
    out.add(
        spec(
            deadLetters,
            "dead letters, written by perturb-job",
            1,
            true,
            List.of(new TopicRequirement.NoCompaction(WHY_OUTPUT_NO_COMPACTION))));
    out.add(
        spec(
            stats,
            "window statistics, written by aggregate-job",
            1,
            true,
            List.of(
                new TopicRequirement.NoCompaction(WHY_OUTPUT_NO_COMPACTION),
                new TopicRequirement.ConfigEquals(
                    BudgetClock.TOPIC_SETTING,
                    BudgetClock.LOG_APPEND_TIME_VALUE,
                    WHY_STATS_LOG_APPEND_TIME))));
    return out;
  }

  /**
   * A topic spec with the requirements every topic has; created with what the requirements set,
   * and, for a topic the jobs write ({@code output}) of a layout that keeps them, no deletion by
   * time.
   */
  private TopicSpec spec(
      String name, String role, int createPartitions, boolean output, List<TopicRequirement> own) {
    List<TopicRequirement> all = new ArrayList<>(own);
    all.add(new TopicRequirement.MinReplicas(replicationFactor, WHY_REPLICAS));
    all.add(new TopicRequirement.MinInsyncReplicas(minInsyncReplicas, WHY_MIN_INSYNC));
    all.add(new TopicRequirement.InsyncWithinReplicas(minInsyncReplicas, WHY_INSYNC_WITHIN));
    Map<String, String> configs = new LinkedHashMap<>();
    for (TopicRequirement r : own) {
      if (r instanceof TopicRequirement.RetentionAtMost ret) {
        configs.put(TopicRequirement.RETENTION_MS, Long.toString(ret.max().toMillis()));
      } else if (r instanceof TopicRequirement.NoCompaction) {
        configs.put(TopicRequirement.CLEANUP_POLICY, "delete");
      } else if (r instanceof TopicRequirement.ConfigEquals c) {
        configs.put(c.key(), c.value());
      }
    }
    configs.put(TopicRequirement.MIN_INSYNC_REPLICAS, Integer.toString(minInsyncReplicas));
    if (output && keepOutputs) {
      configs.put(TopicRequirement.RETENTION_MS, KEEP_FOREVER);
    }
    return new TopicSpec(name, role, createPartitions, replicationFactor, configs, all);
  }

  /** What every broker needs, and why: a transaction timeout ceiling the jobs' sinks fit under. */
  public String brokerRequirement() {
    return TRANSACTION_MAX_TIMEOUT
        + " at least "
        + transactionTimeout.toMillis()
        + " ("
        + human(transactionTimeout)
        + ", the jobs' transaction.timeout.ms): "
        + WHY_TRANSACTION_TIMEOUT;
  }

  /**
   * The perturbed topic's partitions against the raw topic's: at least as many, so that each holds
   * one raw partition's records in their order. Empty when either topic is missing (reported as
   * such).
   */
  public Optional<Deviation> checkPartitions(Map<String, ObservedTopic> observed) {
    ObservedTopic r = observed.get(raw);
    ObservedTopic p = observed.get(perturbed);
    if (r == null || p == null || p.partitions() >= r.partitions()) {
      return Optional.empty();
    }
    return Optional.of(
        new Deviation(
            perturbed,
            Deviation.plural(p.partitions(), "partition")
                + ", fewer than the "
                + r.partitions()
                + " of "
                + raw,
            WHY_PARTITIONS_FOLLOW_RAW));
  }

  /**
   * The deviation of a broker whose transaction timeout ceiling is below the jobs' timeout, if any.
   */
  public Optional<Deviation> check(ObservedBroker broker) {
    String value = broker.config(TRANSACTION_MAX_TIMEOUT).orElse(null);
    long max;
    try {
      max = value == null ? -1 : Long.parseLong(value);
    } catch (NumberFormatException e) {
      max = -1;
    }
    if (max >= transactionTimeout.toMillis()) {
      return Optional.empty();
    }
    return Optional.of(
        new Deviation(
            "broker " + broker.id(),
            TRANSACTION_MAX_TIMEOUT
                + "="
                + (value == null ? "(not reported)" : value)
                + ", needs at least "
                + transactionTimeout.toMillis()
                + " (the jobs' transaction.timeout.ms)",
            WHY_TRANSACTION_TIMEOUT));
  }

  public String raw() {
    return raw;
  }

  public String perturbed() {
    return perturbed;
  }

  public String deadLetters() {
    return deadLetters;
  }

  public String stats() {
    return stats;
  }

  public Duration transactionTimeout() {
    return transactionTimeout;
  }

  public int minInsyncReplicas() {
    return minInsyncReplicas;
  }

  /**
   * {@code 1d}, {@code 36h}, {@code 15m}, {@code 30s} or {@code 250ms}: the largest unit that
   * divides it.
   */
  static String human(Duration d) {
    long ms = d.toMillis();
    long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
    String[] units = {"d", "h", "m", "s"};
    for (int i = 0; i < sizes.length; i++) {
      if (ms != 0 && ms % sizes[i] == 0) {
        return ms / sizes[i] + units[i];
      }
    }
    return ms + "ms";
  }

  /** Builds a {@link TopicLayout}; every value has a default. */
  public static final class Builder {
    private String raw = RAW;
    private String perturbed = PERTURBED;
    private String deadLetters = DEAD_LETTERS;
    private String stats = STATS;
    private int perturbParallelism = 6;
    private int partitions;
    private Duration rawRetention = Duration.ofDays(1);
    private int replicationFactor = 3;
    private int minInsyncReplicas;
    private Duration transactionTimeout = Duration.ofMinutes(10);
    private boolean keepOutputs;

    private Builder() {}

    /**
     * The four topic names; defaults are the jobs' ({@code ogpm.raw}, {@code ogpm.perturbed}, ...).
     */
    public Builder topics(String raw, String perturbed, String deadLetters, String stats) {
      this.raw = raw;
      this.perturbed = perturbed;
      this.deadLetters = deadLetters;
      this.stats = stats;
      return this;
    }

    /** The perturb job's parallelism; default 6. */
    public Builder perturbParallelism(int n) {
      this.perturbParallelism = n;
      return this;
    }

    /** Partitions of new raw and perturbed topics; default (0) the perturb parallelism. */
    public Builder partitions(int n) {
      this.partitions = n;
      return this;
    }

    /** The longest the raw topic may keep a record; default 1 day. */
    public Builder rawRetention(Duration d) {
      this.rawRetention = d;
      return this;
    }

    /** Default 3. */
    public Builder replicationFactor(int n) {
      this.replicationFactor = n;
      return this;
    }

    /** Default (0): 2, or 1 with a replication factor of 1. */
    public Builder minInsyncReplicas(int n) {
      this.minInsyncReplicas = n;
      return this;
    }

    /** The jobs' {@code transaction.timeout.ms}; default 10 minutes, the sinks' own. */
    public Builder transactionTimeout(Duration d) {
      this.transactionTimeout = d;
      return this;
    }

    /**
     * Creates the topics the jobs write (perturbed, dead letters, stats) to keep every record
     * whatever its time stamp ({@code retention.ms=-1}), for a broker whose data goes when it
     * stops, as the demo's does: records stamped long ago (a replayed sample) would otherwise be
     * deleted as they land. Default: the broker's retention. The raw topic keeps its short
     * retention.
     */
    public Builder keepOutputs() {
      this.keepOutputs = true;
      return this;
    }

    /**
     * @throws IllegalArgumentException naming the option and its bad value
     */
    public TopicLayout build() {
      Set<String> names = new LinkedHashSet<>();
      String[][] topics = {
        {"--raw-topic", raw},
        {"--perturbed-topic", perturbed},
        {"--dead-letter-topic", deadLetters},
        {"--stats-topic", stats}
      };
      for (String[] t : topics) {
        Options.notBlank(t[0], t[1]);
        if (!names.add(t[1])) {
          throw new IllegalArgumentException(
              t[0] + " '" + t[1] + "' is also another topic of the deployment: each needs its own");
        }
      }
      if (perturbParallelism < 1) {
        throw new IllegalArgumentException(
            "--perturb-parallelism must be >= 1, got " + perturbParallelism);
      }
      if (partitions != 0 && partitions < perturbParallelism) {
        throw new IllegalArgumentException(
            "--partitions must be at least --perturb-parallelism ("
                + perturbParallelism
                + "), got "
                + partitions);
      }
      if (partitions < 0) {
        throw new IllegalArgumentException("--partitions must be >= 1, got " + partitions);
      }
      Objects.requireNonNull(rawRetention, "--raw-retention: required");
      if (rawRetention.toMillis() <= 0) {
        throw new IllegalArgumentException("--raw-retention must be positive, got " + rawRetention);
      }
      if (replicationFactor < 1 || replicationFactor > Short.MAX_VALUE) {
        throw new IllegalArgumentException(
            "--replication-factor must be >= 1, got " + replicationFactor);
      }
      if (minInsyncReplicas < 0 || minInsyncReplicas > replicationFactor) {
        throw new IllegalArgumentException(
            "--min-insync-replicas must be in [1, --replication-factor "
                + replicationFactor
                + "], got "
                + minInsyncReplicas);
      }
      Objects.requireNonNull(transactionTimeout, "transaction.timeout.ms: required");
      if (transactionTimeout.toMillis() <= 0) {
        throw new IllegalArgumentException(
            "transaction.timeout.ms must be positive, got " + transactionTimeout.toMillis());
      }
      return new TopicLayout(this);
    }
  }
}
