package io.ogpm.jobs;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.LdpAggregation;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.flink.kafka.AggregationKafka;
import io.ogpm.jobs.topics.TopicLayout;
import java.time.Duration;
import java.util.function.Consumer;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The perturbed topic to the stats topic: per event-time window, per field and optional group, the
 * count, histograms (raw and reconstructed) and means with 95 % intervals, one JSON object each
 * ({@link LdpAggregation}, two-phase). Reads with {@code isolation.level=read_committed}, so it
 * only sees what the perturb job committed; watermarks allow bounded out-of-orderness per Kafka
 * partition, and a partition silent for the idle timeout moves on with the wall clock, so the last
 * window of a replay closes ({@link LdpAggregation#watermarks(Duration, Duration)}). A thin user of
 * the library: this class sets what belongs to the job (checkpointing, parallelism, no Kryo) and
 * wires the Kafka ends.
 */
public final class AggregateJob {
  /**
   * The aggregation's uid prefix: its operators' uids are {@code ogpm-aggregate-pre-aggregate} and
   * {@code ogpm-aggregate-window-estimates}, which never change, so that the job's savepoints
   * restore.
   */
  static final String UID_PREFIX = "ogpm-aggregate";

  /** The window of the job's aggregation unless one is set. */
  static final Duration DEFAULT_WINDOW = Duration.ofMinutes(1);

  private AggregateJob() {}

  /** Builds the job on an environment. */
  public static void build(StreamExecutionEnvironment env, Settings s) {
    JobEnvironment.configure(env, s.checkpointInterval(), s.parallelism());
    LdpAggregation aggregation = s.aggregation();
    DataStream<PerturbedValues> perturbed =
        env.fromSource(
                s.source,
                LdpAggregation.watermarks(s.outOfOrderness(), s.idleTimeout()),
                "perturbed records")
            .uid("perturbed-source");
    aggregation
        .apply(perturbed)
        .sinkTo(
            AggregationKafka.estimateSink(s.kafka(), s.outputTopic(), s.transactionalIdPrefix()))
        .uid("stats-sink")
        .name("stats topic");
  }

  /** What the job needs; built and validated by {@link #builder()}. Immutable. */
  public static final class Settings extends KafkaJobSettings {
    private final LdpAggregation aggregation;
    private final String timeField;
    private final Duration outOfOrderness;
    private final Duration idleTimeout;
    private final KafkaSource<PerturbedValues> source;

    private Settings(Builder b, LdpAggregation aggregation, KafkaSource<PerturbedValues> source) {
      super(b);
      this.aggregation = aggregation;
      this.source = source;
      this.timeField = b.timeField;
      this.outOfOrderness = b.outOfOrderness;
      this.idleTimeout = b.idleTimeout;
    }

    public static Builder builder() {
      return new Builder(LdpAggregation.builder().window(DEFAULT_WINDOW));
    }

    /** A builder holding these settings, to change some of them. */
    public Builder toBuilder() {
      return copyTo(new Builder(aggregation.toBuilder()))
          .timeField(timeField)
          .outOfOrderness(outOfOrderness)
          .idleTimeout(idleTimeout);
    }

    /** The aggregation (configuration, windows, grouping, bins, quantiles, method). */
    public LdpAggregation aggregation() {
      return aggregation;
    }

    public PrivacyConfig config() {
      return aggregation.config();
    }

    /** The dotted time field, or null for the Kafka timestamp. */
    public String timeField() {
      return timeField;
    }

    public Duration outOfOrderness() {
      return outOfOrderness;
    }

    public Duration idleTimeout() {
      return idleTimeout;
    }

    /**
     * Options of the job; {@link #build()} validates them, naming the bad option and value. The
     * aggregation's own options (configuration, windows, grouping, bins, quantiles, method) are set
     * on the library's {@link LdpAggregation.Builder} through {@link #aggregation}, which checks
     * them; only the window has a default of its own here (1 minute), and the uid prefix is the
     * job's. The Kafka job's options default to the topics {@value TopicLayout#PERTURBED} in,
     * {@value TopicLayout#STATS} out, and the group id and transactional id prefix {@code
     * ogpm-aggregate}.
     */
    public static final class Builder extends KafkaJobSettings.Builder<Builder> {
      private final LdpAggregation.Builder aggregation;
      private String timeField;
      private Duration outOfOrderness = Duration.ofSeconds(5);
      private Duration idleTimeout = Duration.ofSeconds(30);

      private Builder(LdpAggregation.Builder aggregation) {
        super(TopicLayout.PERTURBED, TopicLayout.STATS, "ogpm-aggregate");
        this.aggregation = aggregation;
      }

      /**
       * Sets the aggregation's options on the library's builder: the configuration (required), the
       * window (default 1 minute), slide, allowed lateness, late-update interval, group-by field,
       * bins, quantiles and method (the library's defaults). Its uid prefix is always the job's
       * ({@value AggregateJob#UID_PREFIX}), so that the job's savepoints restore.
       */
      public Builder aggregation(Consumer<LdpAggregation.Builder> options) {
        options.accept(aggregation);
        return this;
      }

      /** A passthrough field with the event time; default the Kafka timestamp. */
      public Builder timeField(String field) {
        this.timeField = field;
        return this;
      }

      /** Default 5 s. */
      public Builder outOfOrderness(Duration outOfOrderness) {
        this.outOfOrderness = outOfOrderness;
        return this;
      }

      /** Default 30 s. */
      public Builder idleTimeout(Duration idleTimeout) {
        this.idleTimeout = idleTimeout;
        return this;
      }

      /**
       * The settings.
       *
       * @throws NullPointerException naming a required option that is missing
       * @throws IllegalArgumentException naming the option and its bad value
       */
      public Settings build() {
        checkKafkaJob();
        if (outOfOrderness == null || outOfOrderness.isNegative()) {
          throw new IllegalArgumentException(
              "outOfOrderness: must be at least 0, got " + outOfOrderness);
        }
        if (idleTimeout == null || idleTimeout.isZero() || idleTimeout.isNegative()) {
          throw new IllegalArgumentException("idleTimeout: must be positive, got " + idleTimeout);
        }
        LdpAggregation built = aggregation.uidPrefix(UID_PREFIX).build();
        // The time field is checked by the aggregation's deserializer.
        KafkaSource<PerturbedValues> source =
            source(AggregationKafka.perturbedValuesSource())
                .deserializer(AggregationKafka.deserializer(built, timeField))
                .build();
        return new Settings(this, built, source);
      }
    }
  }
}
