package io.ogpm.flink;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.DistributionQuery;
import io.ogpm.flink.aggregate.AggregationFields;
import io.ogpm.flink.aggregate.FieldAndGroup;
import io.ogpm.flink.aggregate.PartialAggregate;
import io.ogpm.flink.aggregate.PerturbedRecordParser;
import io.ogpm.flink.aggregate.PreAggregateOperator;
import io.ogpm.flink.aggregate.RecordValuesFunction;
import io.ogpm.flink.aggregate.SilenceAwareWatermarks;
import io.ogpm.flink.aggregate.WindowEstimateOperator;
import io.ogpm.flink.aggregate.Windowing;
import java.time.Duration;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.ProcessFunction;

/**
 * Windowed estimates from perturbed records: per event-time window, field and group, the count, the
 * raw and reconstructed histograms, the means with 95 % intervals, and the quantiles ({@link
 * Builder#quantiles}) and exceedance shares (each field's {@code exceedances}) with intervals
 * ({@link WindowEstimate}).
 *
 * <pre>{@code
 * DataStream<WindowEstimate> estimates = LdpAggregation.builder()
 *     .config(config)
 *     .window(Duration.ofMinutes(1)).slide(Duration.ofSeconds(10))
 *     .allowedLateness(Duration.ofSeconds(30))
 *     .groupBy("activity")
 *     .build()
 *     .apply(perturbedValues);   // timestamps and watermarks already assigned
 * }</pre>
 *
 * <p>Its input is a stream of {@link PerturbedValues}, read once per record by one of the
 * aggregation's readers, which know its configuration and group-by field: {@link #parser} for the
 * perturbed records of a perturbation in the same job, {@link #fromRecords} for your own types, and
 * for a perturbed Kafka topic the source and deserializer of {@code
 * io.ogpm.flink.kafka.AggregationKafka}, where the Kafka glue lives. {@link #watermarks} assigns
 * their event time.
 *
 * <p>Two phases, so that it scales out whatever the number of fields and groups: every subtask adds
 * its records into exact partial accumulators per pane, field and group, where they are (chained to
 * the input: spread the input over the subtasks, as a Kafka source with enough partitions or {@code
 * rebalance()} does), and the partials are merged per window, field and group (keyed). The
 * accumulators are integers, so the result equals that of one accumulator of all the records, bit
 * for bit, however they were split.
 *
 * <p>Windows follow Flink's event-time rules (tumbling, or sliding with {@link Builder#slide};
 * allowed lateness; records too late for all their windows dropped and counted as {@code
 * lateRecords}). Estimation runs at emissions only: each window is estimated when the watermark
 * passes its end, then, if late records change it, at most once per {@link
 * Builder#lateUpdateInterval} of processing time and a last time at the end of its allowed
 * lateness, each time from all its records; its state is dropped then. Consumers keep the last
 * estimate per window, field and group.
 *
 * <p>{@link #apply} adds two operators with stable uids and never touches the environment
 * (checkpointing, parallelism and restarts belong to the job). The uids follow the rule of both
 * builders of the library: the role alone without a uid prefix (the default), {@code
 * <prefix>-<role>} with one; the roles are {@value #PRE_AGGREGATE} and {@value #WINDOW_ESTIMATES}.
 * Two aggregations in one job need two prefixes. Immutable.
 */
@PublicEvolving
public final class LdpAggregation {
  /** Default {@link Builder#lateUpdateInterval}. */
  public static final Duration DEFAULT_LATE_UPDATE_INTERVAL = Duration.ofSeconds(10);

  /**
   * Default {@link Builder#allowedLateness}: 5 minutes, not Flink's 0. When the job that perturbs
   * the records restarts, its partitions fall silent; past the idle timeout their event time moves
   * on with the wall clock, and the records written after the restore arrive behind it. With 5
   * minutes of lateness they update their windows (late updates) instead of being dropped, for
   * restarts up to about that long; the cost is each window's state kept 5 minutes longer.
   */
  public static final Duration DEFAULT_ALLOWED_LATENESS = Duration.ofMinutes(5);

  /** Default {@link Builder#bins}. */
  public static final int DEFAULT_BINS = 50;

  /** Most {@link Builder#bins}. */
  public static final int MAX_BINS = 10_000;

  /** The uid role of the pre-aggregation on every subtask. */
  static final String PRE_AGGREGATE = "pre-aggregate";

  /**
   * The uid role of the merge and estimation per window, field and group (its state: the panes).
   */
  static final String WINDOW_ESTIMATES = "window-estimates";

  /**
   * Longest duration of any option: with times within ±2^62 ms, window arithmetic cannot overflow.
   */
  static final long MAX_MILLIS = 1L << 60;

  /** The event time the readers of perturbed values put into each of them. */
  private static final SerializableTimestampAssigner<PerturbedValues> EVENT_TIME =
      (v, previous) -> v.getEventTime();

  private final AggregationFields fields;
  private final Windowing windowing;
  private final int bins;
  private final double[] quantiles;
  private final EstimationMethod method;
  private final String uidPrefix;

  private LdpAggregation(
      AggregationFields fields,
      Windowing windowing,
      int bins,
      double[] quantiles,
      EstimationMethod method,
      String uidPrefix) {
    this.fields = fields;
    this.windowing = windowing;
    this.bins = bins;
    this.quantiles = quantiles;
    this.method = method;
    this.uidPrefix = uidPrefix;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this aggregation's options, to change some of them. */
  public Builder toBuilder() {
    return builder()
        .config(config())
        .window(window())
        .slide(windowing.slide() == windowing.size() ? null : slide())
        .allowedLateness(allowedLateness())
        .lateUpdateInterval(lateUpdateInterval())
        .groupBy(groupBy())
        .bins(bins)
        .quantiles(quantiles)
        .method(method)
        .uidPrefix(uidPrefix);
  }

  /**
   * Adds the aggregation to a stream of perturbed values whose timestamps and watermarks are
   * assigned, and returns the window estimates.
   */
  public DataStream<WindowEstimate> apply(DataStream<PerturbedValues> perturbed) {
    Objects.requireNonNull(perturbed, "perturbed: a stream is required");
    SingleOutputStreamOperator<PartialAggregate> partials =
        perturbed
            .transform(
                "pre-aggregate (per subtask)",
                TypeInformation.of(PartialAggregate.class),
                new PreAggregateOperator(fields.config(), bins, windowing))
            .uid(uid(PRE_AGGREGATE));
    return partials
        .keyBy(new FieldAndGroup())
        .transform(
            "window estimates",
            TypeInformation.of(WindowEstimate.class),
            new WindowEstimateOperator(
                fields.config(), bins, quantiles, windowing, method == EstimationMethod.EM))
        .uid(uid(WINDOW_ESTIMATES));
  }

  /**
   * A function from perturbed records of this job's perturbation to this aggregation's values (one
   * parse of each record's JSON), under the rules of the Kafka deserializer ({@code
   * AggregationKafka.deserializer}): records of another configuration ({@link
   * PerturbedRecord#getFingerprint()}) are counted and skipped; the group is the text of the
   * group-by field; the event time comes from the time field, else the record's timestamp. Assign
   * timestamps and watermarks after it (for example {@link #watermarks}).
   *
   * @param timeField dotted name of a passthrough field with the event time, or null for the
   *     record's timestamp
   * @throws IllegalArgumentException naming {@code timeField} if it is not passed through
   */
  public FlatMapFunction<PerturbedRecord, PerturbedValues> parser(String timeField) {
    return new PerturbedRecordParser(
        AggregationFields.checked(fields.config(), fields.groupField(), timeField));
  }

  /**
   * A function from your own records (POJOs, {@code Row}s) to this aggregation's values: each
   * configured field read by its dotted name through {@code reader}; a value that is absent, not a
   * number or outside the field's output domain is skipped and counted ({@code valuesSkipped}). The
   * event time is the record's timestamp in the stream (assign it before), the group the text of
   * the group-by field.
   *
   * @throws NullPointerException if {@code reader} is null
   */
  public <T> ProcessFunction<T, PerturbedValues> fromRecords(FieldReader<T> reader) {
    return new RecordValuesFunction<>(fields, reader);
  }

  /** Bounded out-of-orderness watermarks on {@link PerturbedValues#getEventTime()}. */
  public static WatermarkStrategy<PerturbedValues> watermarks(Duration outOfOrderness) {
    return WatermarkStrategy.<PerturbedValues>forBoundedOutOfOrderness(outOfOrderness)
        .withTimestampAssigner(EVENT_TIME);
  }

  /**
   * Bounded out-of-orderness watermarks on {@link PerturbedValues#getEventTime()} per source split,
   * which keep event time moving when a split falls silent: after {@code idleTimeout} without
   * records, a split's watermark advances with the wall clock from its last record, so the last
   * window of a replay or of a stream that stops closes (bounded sources close it at their end
   * anyway); a split that never had a record stops holding the others back after {@code
   * idleTimeout}, as with {@code withIdleness}. Use this instead of {@code
   * watermarks(..).withIdleness(..)}.
   *
   * @throws IllegalArgumentException for a negative out-of-orderness or an idle timeout that is not
   *     positive
   */
  public static WatermarkStrategy<PerturbedValues> watermarks(
      Duration outOfOrderness, Duration idleTimeout) {
    return SilenceAwareWatermarks.<PerturbedValues>strategy(outOfOrderness, idleTimeout)
        .withTimestampAssigner(EVENT_TIME);
  }

  public PrivacyConfig config() {
    return fields.config();
  }

  /** The group-by field, or null. */
  public String groupBy() {
    return fields.groupField();
  }

  public Duration window() {
    return Duration.ofMillis(windowing.size());
  }

  public Duration slide() {
    return Duration.ofMillis(windowing.slide());
  }

  public Duration allowedLateness() {
    return Duration.ofMillis(windowing.lateness());
  }

  public Duration lateUpdateInterval() {
    return Duration.ofMillis(windowing.lateUpdateInterval());
  }

  public int bins() {
    return bins;
  }

  /** The probabilities of the quantiles every estimate reports. */
  public double[] quantiles() {
    return quantiles.clone();
  }

  public EstimationMethod method() {
    return method;
  }

  /** The uid prefix, or null for none. */
  public String uidPrefix() {
    return uidPrefix;
  }

  /** The operators' uid of a role: {@code <prefix>-<role>}, or the role alone without a prefix. */
  public String uid(String role) {
    return Uids.uid(uidPrefix, role);
  }

  /** Options of an {@link LdpAggregation}; {@link #build()} validates them. */
  @PublicEvolving
  public static final class Builder {
    private PrivacyConfig config;
    private Duration window;
    private Duration slide;
    private Duration allowedLateness = DEFAULT_ALLOWED_LATENESS;
    private Duration lateUpdateInterval = DEFAULT_LATE_UPDATE_INTERVAL;
    private String groupBy;
    private int bins = DEFAULT_BINS;
    private double[] quantiles = DistributionQuery.defaultProbabilities();
    private EstimationMethod method = EstimationMethod.EM;
    private String uidPrefix;

    private Builder() {}

    /** The configuration the records were perturbed under (required). */
    public Builder config(PrivacyConfig config) {
      this.config = config;
      return this;
    }

    /** The window size (required): tumbling windows unless a {@link #slide} is given. */
    public Builder window(Duration size) {
      this.window = size;
      return this;
    }

    /** Sliding windows starting every {@code slide} (at most the window size). */
    public Builder slide(Duration slide) {
      this.slide = slide;
      return this;
    }

    /**
     * How long after its end a window still takes late records (default {@link
     * #DEFAULT_ALLOWED_LATENESS}, 5 minutes).
     */
    public Builder allowedLateness(Duration lateness) {
      this.allowedLateness = lateness;
      return this;
    }

    /**
     * The shortest processing time between two late updates of a window (default 10 s; 0: as soon
     * as late records reach it).
     */
    public Builder lateUpdateInterval(Duration interval) {
      this.lateUpdateInterval = interval;
      return this;
    }

    /** A passthrough field (dotted name) to group by; default one global group. */
    public Builder groupBy(String field) {
      this.groupBy = field;
      return this;
    }

    /** Histogram bins over each field's domain (default 50). */
    public Builder bins(int bins) {
      this.bins = bins;
      return this;
    }

    /**
     * The probabilities of the quantiles every estimate reports, each with an interval (default
     * 0.1, 0.5 and 0.9; none for an empty list): strictly between 0 and 1, increasing, at most
     * {@value DistributionQuery#MAX_PROBABILITIES}. All are read off one band, so more of them
     * widen none.
     */
    public Builder quantiles(double... probabilities) {
      this.quantiles = probabilities == null ? null : probabilities.clone();
      return this;
    }

    /** The headline estimate (default {@link EstimationMethod#EM}). */
    public Builder method(EstimationMethod method) {
      this.method = method;
      return this;
    }

    /**
     * Prefix of the operators' uids ({@code <prefix>-pre-aggregate}...); default none (null): the
     * roles alone.
     */
    public Builder uidPrefix(String prefix) {
      this.uidPrefix = prefix;
      return this;
    }

    /**
     * The aggregation.
     *
     * @throws NullPointerException naming a required option that is missing
     * @throws IllegalArgumentException naming the option and its bad value
     */
    public LdpAggregation build() {
      long size =
          millis(
              "window", Objects.requireNonNull(window, "window: a window size is required"), false);
      long step = slide == null ? size : millis("slide", slide, false);
      if (step > size) {
        throw new IllegalArgumentException(
            "slide: must be at most the window (" + window + "), got " + slide);
      }
      long lateness =
          millis(
              "allowedLateness",
              Objects.requireNonNull(allowedLateness, "allowedLateness: required"),
              true);
      long interval =
          millis(
              "lateUpdateInterval",
              Objects.requireNonNull(lateUpdateInterval, "lateUpdateInterval: required"),
              true);
      if (bins < 1 || bins > MAX_BINS) {
        throw new IllegalArgumentException("bins: must be in [1, " + MAX_BINS + "], got " + bins);
      }
      Objects.requireNonNull(quantiles, "quantiles: required (an empty list for none)");
      double[] probabilities;
      try {
        probabilities = DistributionQuery.checkProbabilities(quantiles);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("quantiles: " + e.getMessage(), e);
      }
      Objects.requireNonNull(method, "method: an estimation method is required");
      Uids.checkPrefix(uidPrefix);
      AggregationFields fields = AggregationFields.checked(config, groupBy, null);
      return new LdpAggregation(
          fields,
          new Windowing(size, step, lateness, interval),
          bins,
          probabilities,
          method,
          uidPrefix);
    }

    private static long millis(String option, Duration d, boolean zeroAllowed) {
      if (d.isNegative() || (!zeroAllowed && d.isZero())) {
        throw new IllegalArgumentException(
            option + ": must be " + (zeroAllowed ? "at least 0" : "positive") + ", got " + d);
      }
      if (d.getNano() % 1_000_000 != 0) {
        throw new IllegalArgumentException(option + ": must be whole milliseconds, got " + d);
      }
      if (d.compareTo(Duration.ofMillis(MAX_MILLIS)) > 0) {
        throw new IllegalArgumentException(option + ": must be at most 2^60 ms, got " + d);
      }
      return d.toMillis();
    }
  }
}
