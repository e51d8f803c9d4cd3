package io.ogpm.jobs;

import io.ogpm.config.Options;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.LdpPerturbation;
import io.ogpm.flink.PerturbationResult;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.RawRecord;
import io.ogpm.flink.kafka.PerturbationSinks;
import io.ogpm.flink.kafka.RawRecordSource;
import io.ogpm.jobs.topics.TopicLayout;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.apache.flink.connector.kafka.source.KafkaSource;
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
 * uids ({@code raw-source}, {@code perturb}, {@code contribution-by-window}, {@code
 * budget-by-period}, {@code partition-order}, {@code perturbed-sink}, {@code dead-letter-sink})
 * never change, so that the job's savepoints restore ({@code PerturbSavepointIT} restores a
 * committed one).
 */
public final class PerturbJob {
  private PerturbJob() {}

  /** What the job needs; {@link Settings#builder()} validates. */
  public static final class Settings extends KafkaJobSettings {
    private final PrivacyConfig config;
    private final String deadLetterTopic;
    private final KeySource keySource;
    private final boolean fromEarliest;
    private final LdpPerturbation perturbation;
    private final KafkaSource<RawRecord> source;

    private Settings(Builder b, KafkaSource<RawRecord> source) {
      super(b);
      config = b.config;
      deadLetterTopic = b.deadLetterTopic;
      keySource = b.keySource;
      fromEarliest = b.fromEarliest;
      perturbation =
          LdpPerturbation.builder()
              .config(config)
              .randomness(keySource)
              .keepPartitionOrder(b.keepPartitionOrder)
              .build();
      this.source = source;
    }

    public static Builder builder() {
      return new Builder();
    }

    public PrivacyConfig config() {
      return config;
    }

    public String deadLetterTopic() {
      return deadLetterTopic;
    }

    public KeySource keySource() {
      return keySource;
    }

    public boolean fromEarliest() {
      return fromEarliest;
    }

    /**
     * Builds {@link Settings}: the configuration and Kafka are required, the rest has defaults
     * (topics {@value TopicLayout#RAW} in, {@value TopicLayout#PERTURBED} out; group id and
     * transactional id prefix {@code ogpm-perturb}).
     */
    public static final class Builder extends KafkaJobSettings.Builder<Builder> {
      private PrivacyConfig config;
      private String deadLetterTopic = TopicLayout.DEAD_LETTERS;
      private KeySource keySource = KeySource.none();
      private boolean fromEarliest = true;
      private boolean keepPartitionOrder = true;

      private Builder() {
        super(TopicLayout.RAW, TopicLayout.PERTURBED, "ogpm-perturb");
      }

      public Builder config(PrivacyConfig config) {
        this.config = config;
        return this;
      }

      /** Default {@value TopicLayout#DEAD_LETTERS}. */
      public Builder deadLetterTopic(String topic) {
        this.deadLetterTopic = topic;
        return this;
      }

      /** Default: {@link KeySource#none()}, secure randomness. */
      public Builder keySource(KeySource keySource) {
        this.keySource = keySource;
        return this;
      }

      /** Without committed offsets, start at the earliest record (default) or the latest. */
      public Builder fromEarliest(boolean fromEarliest) {
        this.fromEarliest = fromEarliest;
        return this;
      }

      /**
       * Whether a budget keeps each raw partition's order up to the sink (default true; see {@link
       * LdpPerturbation.Builder#keepPartitionOrder}). No command-line option: the bench compares
       * the two.
       */
      public Builder keepPartitionOrder(boolean keepPartitionOrder) {
        this.keepPartitionOrder = keepPartitionOrder;
        return this;
      }

      /**
       * @throws NullPointerException naming a missing option
       * @throws IllegalArgumentException naming an option and its bad value
       */
      public Settings build() {
        Objects.requireNonNull(config, "config: required");
        Objects.requireNonNull(
            keySource, "keySource: required (KeySource.none() for secure randomness)");
        checkKafkaJob();
        Options.notBlank("deadLetterTopic", deadLetterTopic);
        if (deadLetterTopic.equals(inputTopic())) {
          throw new IllegalArgumentException(
              "deadLetterTopic: must differ from the input topic, got '" + inputTopic() + "'");
        }
        if (deadLetterTopic.equals(outputTopic())) {
          throw new IllegalArgumentException(
              "deadLetterTopic: must differ from the output topic, got '" + outputTopic() + "'");
        }
        return new Settings(
            this, source(RawRecordSource.builder()).fromEarliest(fromEarliest).build());
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
        env.fromSource(s.source, s.perturbation.rawWatermarks(), "raw records").uid("raw-source");
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
