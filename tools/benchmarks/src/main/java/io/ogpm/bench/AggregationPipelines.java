package io.ogpm.bench;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.EstimationMethod;
import io.ogpm.flink.LdpAggregation;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.flink.kafka.AggregationKafka;
import io.ogpm.jobs.AggregateJob;
import io.ogpm.jobs.JobEnvironment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The pipelines that read a perturbed topic into event-time windows, each run to the end of its
 * input and timed by the job's net run time (they write too few records for an append span): the
 * deployable aggregate job, and a count per window on the same source, deserializer, watermarks and
 * windows.
 */
final class AggregationPipelines {
  /**
   * The aggregation's watermarks, the same for the aggregate job and the count it is compared with.
   */
  static final Duration OUT_OF_ORDERNESS = Duration.ofMinutes(5);

  static final Duration IDLE_TIMEOUT = Duration.ofSeconds(5);

  private final BenchCluster cluster;
  private final int records;
  private final int recordsPerWindow;

  /**
   * The aggregation's headline estimate: {@code em} reconstructs every emission, {@code raw} does
   * not.
   */
  private final EstimationMethod method;

  /**
   * Pipelines on {@code cluster} whose input topics hold {@code records} records each, in windows
   * of {@code recordsPerWindow} records.
   */
  AggregationPipelines(
      BenchCluster cluster, int records, int recordsPerWindow, EstimationMethod method) {
    this.cluster = cluster;
    this.records = records;
    this.recordsPerWindow = recordsPerWindow;
    this.method = method;
  }

  /** The deployable aggregate job; {@code group} null: no group. */
  Timing aggregate(PrivacyConfig config, String input, String group) {
    Job job = newJob("bench.stats.");
    StreamExecutionEnvironment env = cluster.environment();
    AggregateJob.build(
        env,
        AggregateJob.Settings.builder()
            .aggregation(
                a -> a.config(config).window(window()).groupBy(group).bins(50).method(method))
            .kafka(cluster.kafka())
            .inputTopic(input)
            .outputTopic(job.output())
            .groupId(job.id())
            .transactionalIdPrefix(job.id())
            .timeField("ts")
            .outOfOrderness(OUT_OF_ORDERNESS)
            .idleTimeout(IDLE_TIMEOUT)
            .bounded(true)
            .checkpointInterval(BenchCluster.CHECKPOINTS)
            .parallelism(cluster.parallelism())
            .build());
    return MeasuredRun.execute(env, "bench aggregation", cluster.kafka(), List.of(job.output()))
        .timing(records);
  }

  /** The records per window and group, written as numbers; {@code group} null: no group. */
  Timing count(PrivacyConfig config, String input, String group) {
    Job job = newJob("bench.counts.");
    StreamExecutionEnvironment env = cluster.environment();
    JobEnvironment.configure(env, BenchCluster.CHECKPOINTS, cluster.parallelism());
    LdpAggregation.Builder a = LdpAggregation.builder().config(config).window(window());
    if (group != null) {
      a.groupBy(group);
    }
    LdpAggregation aggregation = a.build();
    env.fromSource(
            AggregationKafka.perturbedValuesSource()
                .kafka(cluster.kafka())
                .topics(input)
                .groupId(job.id())
                .deserializer(AggregationKafka.deserializer(aggregation, "ts"))
                .bounded(true)
                .build(),
            LdpAggregation.watermarks(OUT_OF_ORDERNESS, IDLE_TIMEOUT),
            "perturbed records")
        .keyBy(new GroupKey())
        .window(TumblingEventTimeWindows.of(window()))
        .aggregate(new Count())
        .sinkTo(cluster.kafka().exactlyOnceSink(countSerializer(job.output()), job.id()));
    return MeasuredRun.execute(
            env, "bench count per window", cluster.kafka(), List.of(job.output()))
        .timing(records);
  }

  /** A job's ids ({@code bench-N}) and its output topic. */
  private record Job(String id, String output) {}

  /**
   * The next job, its output topic {@code outputPrefix} and its number, created (one partition).
   */
  private Job newJob(String outputPrefix) {
    int run = cluster.nextRun();
    String output = outputPrefix + run;
    cluster.createTopic(output, 1, BenchCluster.KEEP);
    return new Job("bench-" + run, output);
  }

  /** Windows of {@code recordsPerWindow} records: the records are 1 ms apart. */
  private Duration window() {
    return Duration.ofMillis(recordsPerWindow);
  }

  static final class GroupKey implements KeySelector<PerturbedValues, String> {
    @Override
    public String getKey(PerturbedValues v) {
      return v.getGroup() == null ? "" : v.getGroup();
    }
  }

  static final class Count implements AggregateFunction<PerturbedValues, Long, Long> {
    @Override
    public Long createAccumulator() {
      return 0L;
    }

    @Override
    public Long add(PerturbedValues value, Long count) {
      return count + 1;
    }

    @Override
    public Long getResult(Long count) {
      return count;
    }

    @Override
    public Long merge(Long a, Long b) {
      return a + b;
    }
  }

  private static KafkaRecordSerializationSchema<Long> countSerializer(String topic) {
    return (count, context, timestamp) ->
        new ProducerRecord<>(topic, Long.toString(count).getBytes(StandardCharsets.UTF_8));
  }
}
