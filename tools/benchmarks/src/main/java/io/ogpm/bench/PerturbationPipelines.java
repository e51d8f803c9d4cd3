package io.ogpm.bench;

import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.RawRecord;
import io.ogpm.flink.kafka.PerturbationSinks;
import io.ogpm.flink.kafka.RawRecordSource;
import io.ogpm.flink.perturb.DeadLetters;
import io.ogpm.jobs.JobEnvironment;
import io.ogpm.jobs.PerturbJob;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The pipelines that write a record for each record read, Kafka to Kafka with the perturb job's
 * source and exactly-once sinks, each run to the end of its input and timed by its output's append
 * span ({@link AppendSpan}): the perturb job, the identity map (each raw value written unchanged),
 * and the perturb job with the privacy left out ({@link Unperturbed}).
 */
final class PerturbationPipelines {
  private final BenchCluster cluster;
  private final int records;

  /** Pipelines on {@code cluster} whose input topics hold {@code records} records each. */
  PerturbationPipelines(BenchCluster cluster, int records) {
    this.cluster = cluster;
    this.records = records;
  }

  /** The deployable perturb job under {@code config}. */
  Timing perturb(PrivacyConfig config, String input, String output) {
    return perturb(config, input, output, false);
  }

  /**
   * The deployable perturb job under {@code config}; {@code refuses}: a configuration that
   * dead-letters some records by design (a contribution bound), timed over the perturbed and the
   * dead-letter topics together, both stamped by the broker.
   */
  Timing perturb(PrivacyConfig config, String input, String output, boolean refuses) {
    return perturb(config, input, output, refuses, true);
  }

  /**
   * As {@link #perturb(PrivacyConfig, String, String, boolean)}; {@code keepPartitionOrder} false
   * leaves out the stage that restores each raw partition's order after the budget.
   */
  Timing perturb(
      PrivacyConfig config,
      String input,
      String output,
      boolean refuses,
      boolean keepPartitionOrder) {
    createTimedOutput(output);
    String dead = createDeadLetters(output, refuses);
    String id = "bench-" + cluster.nextRun();
    StreamExecutionEnvironment env = cluster.environment();
    PerturbJob.build(
        env,
        PerturbJob.Settings.builder()
            .config(config)
            .kafka(cluster.kafka())
            .inputTopic(input)
            .outputTopic(output)
            .deadLetterTopic(dead)
            .groupId(id)
            .transactionalIdPrefix(id)
            .keySource(KeySource.none())
            .keepPartitionOrder(keepPartitionOrder)
            .bounded(true)
            .checkpointInterval(BenchCluster.CHECKPOINTS)
            .parallelism(cluster.parallelism())
            .build());
    return execute(env, "bench perturbation", List.of(output, dead), refuses ? 2 : 1);
  }

  /** The perturb job's source and sink, each raw value written unchanged. */
  Timing identity(String input, String output) {
    createTimedOutput(output);
    String id = "bench-" + cluster.nextRun();
    StreamExecutionEnvironment env = cluster.environment();
    JobEnvironment.configure(env, BenchCluster.CHECKPOINTS, cluster.parallelism());
    env.fromSource(rawRecords(input, id), WatermarkStrategy.noWatermarks(), "raw records")
        .map(new Identity())
        .returns(TypeInformation.of(PerturbedRecord.class))
        .sinkTo(PerturbationSinks.perturbed(cluster.kafka(), output, id));
    return execute(env, "bench identity", List.of(output));
  }

  /**
   * The perturb job's topology, source, record path, sinks and, {@code byUser}, the budget's
   * shuffle, with the privacy left out ({@link Unperturbed}).
   */
  Timing unperturbed(PrivacyConfig config, boolean byUser, String input, String output) {
    createTimedOutput(output);
    String dead = createDeadLetters(output);
    String id = "bench-" + cluster.nextRun();
    String fingerprint = ConfigFingerprint.of(config).value();
    StreamExecutionEnvironment env = cluster.environment();
    JobEnvironment.configure(env, BenchCluster.CHECKPOINTS, cluster.parallelism());
    SingleOutputStreamOperator<PerturbedRecord> path =
        env.fromSource(rawRecords(input, id), WatermarkStrategy.noWatermarks(), "raw records")
            .process(
                new Unperturbed.RecordPath(config, byUser ? null : fingerprint),
                TypeInformation.of(PerturbedRecord.class))
            .name("unperturbed");
    DataStream<PerturbedRecord> released =
        byUser
            ? path.keyBy(PerturbedRecord::getUser, Types.STRING)
                .process(
                    new Unperturbed.ByUser(fingerprint), TypeInformation.of(PerturbedRecord.class))
                .name("by user")
            : path;
    released
        .sinkTo(PerturbationSinks.perturbed(cluster.kafka(), output, id))
        .name("perturbed topic");
    path.getSideOutput(DeadLetters.TAG)
        .sinkTo(PerturbationSinks.deadLetters(cluster.kafka(), dead, id))
        .name("dead-letter topic");
    return execute(env, "bench unperturbed", List.of(output, dead));
  }

  /** Each raw value, unchanged, as a record for the same sink. */
  static final class Identity implements MapFunction<RawRecord, PerturbedRecord> {
    @Override
    public PerturbedRecord map(RawRecord r) {
      return new PerturbedRecord(
          null, r.getValue(), 0, null, r.getTimestamp(), r.getTimestampType());
    }
  }

  /** The perturb job's source, bounded, in consumer group {@code id}. */
  private KafkaSource<RawRecord> rawRecords(String input, String id) {
    return RawRecordSource.builder()
        .kafka(cluster.kafka())
        .topics(input)
        .groupId(id)
        .bounded(true)
        .build();
  }

  /**
   * Runs a bounded job to its end, taking the process's CPU time meanwhile, and times its output
   * ({@code outputs}' first).
   */
  private Timing execute(StreamExecutionEnvironment env, String name, List<String> outputs) {
    return execute(env, name, outputs, 1);
  }

  /** The same, timed over the first {@code timed} outputs together. */
  private Timing execute(
      StreamExecutionEnvironment env, String name, List<String> outputs, int timed) {
    MeasuredRun run = MeasuredRun.execute(env, name, cluster.kafka(), outputs);
    return run.timing(
        records, AppendSpan.rate(cluster.bootstrapServers(), outputs.subList(0, timed), records));
  }

  /**
   * Creates a timed pipeline's output topic: two partitions, kept, each record stamped by the
   * broker ({@code LogAppendTime}), whose append times {@link AppendSpan} reads.
   */
  private void createTimedOutput(String output) {
    cluster.createTopic(output, 2, BenchCluster.STAMPED_BY_BROKER);
  }

  /** Creates the dead-letter topic of a pipeline writing to {@code output}; returns its name. */
  private String createDeadLetters(String output) {
    return createDeadLetters(output, false);
  }

  /** The same; {@code timed}: stamped by the broker, for {@link AppendSpan} to read. */
  private String createDeadLetters(String output, boolean timed) {
    String dead = output + ".dead-letters";
    cluster.createTopic(dead, 1, timed ? BenchCluster.STAMPED_BY_BROKER : BenchCluster.KEEP);
    return dead;
  }
}
