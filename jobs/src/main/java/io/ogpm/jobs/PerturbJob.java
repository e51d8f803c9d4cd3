package io.ogpm.jobs;

import io.ogpm.config.Options;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.LdpPerturbation;
import io.ogpm.flink.PerturbationResult;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.RawRecord;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.flink.kafka.PerturbationSinks;
import io.ogpm.flink.kafka.RawRecordSource;
import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The raw topic to the perturbed topic: every record is perturbed at ingestion ({@link
 * LdpPerturbation}), rejected records go to the dead-letter topic. Both sinks are exactly-once
 * Kafka transactions committed on checkpoints, so a consumer reading with {@code
 * isolation.level=read_committed} sees each input once, in the perturbed or the dead-letter topic.
 *
 * <p>A thin user of the library: the job owns the environment (checkpointing, parallelism, no
 * generic types: every stream has Flink's own serializers), the library adds the operators. The
 * uids are those of earlier versions ({@code raw-source}, {@code perturb}, {@code
 * budget-by-period}, {@code perturbed-sink}, {@code dead-letter-sink}), so their savepoints
 * restore.
 */
public final class PerturbJob {
  private PerturbJob() {}

  /** What the job needs; {@link Settings#builder()} validates. */
  public static final class Settings {
    private final PrivacyConfig config;
    private final KafkaSettings kafka;
    private final String inputTopic;
    private final String outputTopic;
    private final String deadLetterTopic;
    private final String groupId;
    private final String transactionalIdPrefix;
    private final KeySource keySource;
    private final boolean bounded;
    private final boolean fromEarliest;
    private final Duration checkpointInterval;
    private final int parallelism;
    private final LdpPerturbation perturbation;

    private Settings(Builder b) {
      config = b.config;
      kafka = b.kafka;
      inputTopic = b.inputTopic;
      outputTopic = b.outputTopic;
      deadLetterTopic = b.deadLetterTopic;
      groupId = b.groupId;
      transactionalIdPrefix = b.transactionalIdPrefix;
      keySource = b.keySource;
      bounded = b.bounded;
      fromEarliest = b.fromEarliest;
      checkpointInterval = b.checkpointInterval;
      parallelism = b.parallelism;
      perturbation = LdpPerturbation.builder().config(config).randomness(keySource).build();
    }

    public static Builder builder() {
      return new Builder();
    }

    public PrivacyConfig config() {
      return config;
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

    public String deadLetterTopic() {
      return deadLetterTopic;
    }

    public String groupId() {
      return groupId;
    }

    public String transactionalIdPrefix() {
      return transactionalIdPrefix;
    }

    public KeySource keySource() {
      return keySource;
    }

    public boolean bounded() {
      return bounded;
    }

    public boolean fromEarliest() {
      return fromEarliest;
    }

    public Duration checkpointInterval() {
      return checkpointInterval;
    }

    /** The job's parallelism; 0: the environment's. */
    public int parallelism() {
      return parallelism;
    }

    /** Builds {@link Settings}: the configuration and Kafka are required, the rest has defaults. */
    public static final class Builder {
      private PrivacyConfig config;
      private KafkaSettings kafka;
      private String inputTopic = "ogpm.raw";
      private String outputTopic = "ogpm.perturbed";
      private String deadLetterTopic = "ogpm.dead-letters";
      private String groupId = "ogpm-perturb";
      private String transactionalIdPrefix = "ogpm-perturb";
      private KeySource keySource = KeySource.none();
      private boolean bounded;
      private boolean fromEarliest = true;
      private Duration checkpointInterval = Duration.ofSeconds(10);
      private int parallelism;

      private Builder() {}

      public Builder config(PrivacyConfig config) {
        this.config = config;
        return this;
      }

      public Builder kafka(KafkaSettings kafka) {
        this.kafka = kafka;
        return this;
      }

      /** Default {@code ogpm.raw}. */
      public Builder inputTopic(String topic) {
        this.inputTopic = topic;
        return this;
      }

      /** Default {@code ogpm.perturbed}. */
      public Builder outputTopic(String topic) {
        this.outputTopic = topic;
        return this;
      }

      /** Default {@code ogpm.dead-letters}. */
      public Builder deadLetterTopic(String topic) {
        this.deadLetterTopic = topic;
        return this;
      }

      /** The consumer group of the raw topic; default {@code ogpm-perturb}. */
      public Builder groupId(String groupId) {
        this.groupId = groupId;
        return this;
      }

      /**
       * Prefix of the sinks' transactional ids, unique per job on a Kafka cluster; default {@code
       * ogpm-perturb}.
       */
      public Builder transactionalIdPrefix(String prefix) {
        this.transactionalIdPrefix = prefix;
        return this;
      }

      /** Default: {@link KeySource#none()}, secure randomness. */
      public Builder keySource(KeySource keySource) {
        this.keySource = keySource;
        return this;
      }

      /** Stop at the input's end as of the start (backfills, tests); default unbounded. */
      public Builder bounded(boolean bounded) {
        this.bounded = bounded;
        return this;
      }

      /** Without committed offsets, start at the earliest record (default) or the latest. */
      public Builder fromEarliest(boolean fromEarliest) {
        this.fromEarliest = fromEarliest;
        return this;
      }

      /** Default 10 s: outputs become visible to read_committed consumers at each checkpoint. */
      public Builder checkpointInterval(Duration interval) {
        this.checkpointInterval = interval;
        return this;
      }

      /** Default 0: the environment's parallelism. */
      public Builder parallelism(int parallelism) {
        this.parallelism = parallelism;
        return this;
      }

      /**
       * @throws NullPointerException naming a missing option
       * @throws IllegalArgumentException naming an option and its bad value
       */
      public Settings build() {
        Objects.requireNonNull(config, "config: required");
        Objects.requireNonNull(kafka, "kafka: required");
        Objects.requireNonNull(
            keySource, "keySource: required (KeySource.none() for secure randomness)");
        Options.notBlank("inputTopic", inputTopic);
        Options.notBlank("outputTopic", outputTopic);
        Options.notBlank("deadLetterTopic", deadLetterTopic);
        Options.notBlank("groupId", groupId);
        Options.notBlank("transactionalIdPrefix", transactionalIdPrefix);
        if (outputTopic.equals(inputTopic) || deadLetterTopic.equals(inputTopic)) {
          throw new IllegalArgumentException(
              (outputTopic.equals(inputTopic) ? "outputTopic" : "deadLetterTopic")
                  + ": must differ from the input topic, got '"
                  + inputTopic
                  + "'");
        }
        if (deadLetterTopic.equals(outputTopic)) {
          throw new IllegalArgumentException(
              "deadLetterTopic: must differ from the output topic, got '" + outputTopic + "'");
        }
        Objects.requireNonNull(checkpointInterval, "checkpointInterval: required");
        if (checkpointInterval.isZero() || checkpointInterval.isNegative()) {
          throw new IllegalArgumentException(
              "checkpointInterval: must be positive, got " + checkpointInterval);
        }
        if (parallelism < 0) {
          throw new IllegalArgumentException(
              "parallelism: must be >= 0 (0: the environment's), got " + parallelism);
        }
        return new Settings(this);
      }
    }
  }

  /**
   * Configures the environment (exactly-once checkpoints, parallelism, no generic types) and adds
   * the job's operators; {@code beforePerturb} may insert operators between the source and the
   * perturbation (tests).
   */
  public static void build(
      StreamExecutionEnvironment env,
      Settings s,
      UnaryOperator<DataStream<RawRecord>> beforePerturb) {
    JobEnvironment.configure(env, s.checkpointInterval(), s.parallelism());
    DataStream<RawRecord> raw =
        env.fromSource(
                RawRecordSource.builder()
                    .kafka(s.kafka())
                    .topics(s.inputTopic())
                    .groupId(s.groupId())
                    .fromEarliest(s.fromEarliest())
                    .bounded(s.bounded())
                    .build(),
                WatermarkStrategy.noWatermarks(),
                "raw records")
            .uid("raw-source");
    PerturbationResult<PerturbedRecord> result = s.perturbation.apply(beforePerturb.apply(raw));
    result
        .perturbed()
        .sinkTo(PerturbationSinks.perturbed(s.kafka(), s.outputTopic(), s.transactionalIdPrefix()))
        .uid("perturbed-sink")
        .name("perturbed topic");
    result
        .deadLetters()
        .sinkTo(
            PerturbationSinks.deadLetters(
                s.kafka(), s.deadLetterTopic(), s.transactionalIdPrefix()))
        .uid("dead-letter-sink")
        .name("dead-letter topic");
  }

  /** Adds the job's operators. */
  public static void build(StreamExecutionEnvironment env, Settings s) {
    build(env, s, UnaryOperator.identity());
  }
}
