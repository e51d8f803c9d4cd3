package io.ogpm.jobs;

import io.ogpm.config.Options;
import io.ogpm.flink.kafka.CommittedSourceBuilder;
import io.ogpm.flink.kafka.KafkaSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * What both deployable jobs need to run from one Kafka topic to another: the Kafka settings, the
 * input and output topics, the consumer group of the input, the prefix of the sinks' transactional
 * ids, whether the input is bounded, the checkpoint interval and the parallelism. Each job's
 * settings add their own to these; the options and their checks are the same for both jobs, so they
 * are written here once. The input's options become the job's Kafka source through the library's
 * builder ({@link Builder#source}) as a user's job would set them, when the settings are built: the
 * library checks what it reads (the group id), and a bad option is reported before the job starts.
 * Immutable.
 */
public abstract class KafkaJobSettings {
  /**
   * The shortest checkpoint interval: Flink's minimum ({@code CheckpointConfig} refuses less), so
   * the settings refuse it where they name the option.
   */
  static final Duration MIN_CHECKPOINT_INTERVAL = Duration.ofMillis(10);

  private final KafkaSettings kafka;
  private final String inputTopic;
  private final String outputTopic;
  private final String groupId;
  private final String transactionalIdPrefix;
  private final boolean bounded;
  private final Duration checkpointInterval;
  private final int parallelism;

  /** From a builder that {@link Builder#checkKafkaJob()} checked. */
  protected KafkaJobSettings(Builder<?> b) {
    this.kafka = b.kafka;
    this.inputTopic = b.inputTopic;
    this.outputTopic = b.outputTopic;
    this.groupId = b.groupId;
    this.transactionalIdPrefix = b.transactionalIdPrefix;
    this.bounded = b.bounded;
    this.checkpointInterval = b.checkpointInterval;
    this.parallelism = b.parallelism;
  }

  /** Sets these options on a builder (of the same job), to change some of them. */
  protected <B extends Builder<B>> B copyTo(B b) {
    return b.kafka(kafka)
        .inputTopic(inputTopic)
        .outputTopic(outputTopic)
        .groupId(groupId)
        .transactionalIdPrefix(transactionalIdPrefix)
        .bounded(bounded)
        .checkpointInterval(checkpointInterval)
        .parallelism(parallelism);
  }

  public KafkaSettings kafka() {
    return kafka;
  }

  public String inputTopic() {
    return inputTopic;
  }

  public String outputTopic() {
    return outputTopic;
  }

  public String groupId() {
    return groupId;
  }

  public String transactionalIdPrefix() {
    return transactionalIdPrefix;
  }

  public boolean bounded() {
    return bounded;
  }

  public Duration checkpointInterval() {
    return checkpointInterval;
  }

  /** The job's parallelism; 0: the cluster's default. */
  public int parallelism() {
    return parallelism;
  }

  /**
   * The options every job has, with the job's defaults: Kafka is required; the topics default to
   * the job's, the group id and the transactional id prefix to the job's name.
   *
   * @param <B> the job's builder, which every option returns
   */
  public abstract static class Builder<B extends Builder<B>> {
    private KafkaSettings kafka;
    private String inputTopic;
    private String outputTopic;
    private String groupId;
    private String transactionalIdPrefix;
    private boolean bounded;
    private Duration checkpointInterval = Duration.ofSeconds(10);
    private int parallelism;

    /**
     * @param jobName the default consumer group id and transactional id prefix
     */
    protected Builder(String inputTopic, String outputTopic, String jobName) {
      this.inputTopic = inputTopic;
      this.outputTopic = outputTopic;
      this.groupId = jobName;
      this.transactionalIdPrefix = jobName;
    }

    @SuppressWarnings("unchecked")
    private B self() {
      return (B) this;
    }

    /** Required. */
    public B kafka(KafkaSettings kafka) {
      this.kafka = kafka;
      return self();
    }

    /** The topic the job reads; default the job's. */
    public B inputTopic(String topic) {
      this.inputTopic = topic;
      return self();
    }

    /** The topic the job writes; default the job's. */
    public B outputTopic(String topic) {
      this.outputTopic = topic;
      return self();
    }

    /** The consumer group of the input topic; default the job's name. */
    public B groupId(String groupId) {
      this.groupId = groupId;
      return self();
    }

    /**
     * Prefix of the sinks' transactional ids, unique per job on a Kafka cluster; default the job's
     * name.
     */
    public B transactionalIdPrefix(String prefix) {
      this.transactionalIdPrefix = prefix;
      return self();
    }

    /** Stop at the input's end as of the start (backfills, tests); default: run forever. */
    public B bounded(boolean bounded) {
      this.bounded = bounded;
      return self();
    }

    /**
     * Default 10 s, at least 10 ms: outputs become visible to read_committed consumers at each
     * checkpoint.
     */
    public B checkpointInterval(Duration interval) {
      this.checkpointInterval = interval;
      return self();
    }

    /** Default 0: the cluster's default. */
    public B parallelism(int parallelism) {
      this.parallelism = parallelism;
      return self();
    }

    /**
     * Checks the options every job has but the group id, which the library's source builder checks
     * ({@link #source}).
     *
     * @throws NullPointerException naming a required option that is missing
     * @throws IllegalArgumentException naming the option and its bad value
     */
    protected void checkKafkaJob() {
      Objects.requireNonNull(kafka, "kafka: required");
      Options.notBlank("inputTopic", inputTopic);
      Options.notBlank("outputTopic", outputTopic);
      Options.notBlank("transactionalIdPrefix", transactionalIdPrefix);
      if (outputTopic.equals(inputTopic)) {
        throw new IllegalArgumentException(
            "outputTopic: must differ from the input topic, got '" + inputTopic + "'");
      }
      Objects.requireNonNull(checkpointInterval, "checkpointInterval: required");
      if (checkpointInterval.compareTo(MIN_CHECKPOINT_INTERVAL) < 0) {
        throw new IllegalArgumentException(
            "checkpointInterval: must be at least 10 ms, got " + checkpointInterval);
      }
      if (parallelism < 0) {
        throw new IllegalArgumentException(
            "parallelism: must be at least 0 (0: the cluster's default), got " + parallelism);
      }
    }

    /**
     * Sets the input's options on one of the library's Kafka source builders: Kafka, the input
     * topic, the group id and whether it is bounded; the job sets the rest (its deserializer, where
     * to start) and builds it, which checks them.
     */
    protected <S extends CommittedSourceBuilder<?, S>> S source(S source) {
      return source.kafka(kafka).topics(inputTopic).groupId(groupId).bounded(bounded);
    }

    /** The input topic, for the job's own checks of its other topics. */
    protected String inputTopic() {
      return inputTopic;
    }

    /** The output topic, for the job's own checks of its other topics. */
    protected String outputTopic() {
      return outputTopic;
    }
  }
}
