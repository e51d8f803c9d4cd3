package io.ogpm.bench;

import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.kafka.embedded.EmbeddedBroker;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The embedded Kafka broker and the one Flink MiniCluster that every job of the pipeline bench runs
 * on, in turn, as a session cluster serves a deployment's jobs. A MiniCluster per job would load
 * its RPC system's classes (Pekko, Scala) afresh each time, and on two cores their compilation
 * competes with the job being timed.
 */
final class BenchCluster implements AutoCloseable {
  /** Every job's checkpoint interval, as the deployable jobs' exactly-once sinks need. */
  static final Duration CHECKPOINTS = Duration.ofSeconds(5);

  /** Topic settings: records kept whatever their time stamps (the sample's are in the past). */
  static final Map<String, String> KEEP = Map.of("retention.ms", "-1");

  /**
   * Topic settings: kept, each record stamped by the broker ({@code LogAppendTime}), as the
   * budget's clock requires of a raw topic and {@link AppendSpan} reads of an output topic.
   */
  static final Map<String, String> STAMPED_BY_BROKER =
      Map.of("retention.ms", "-1", "message.timestamp.type", "LogAppendTime");

  private final EmbeddedBroker broker;
  private final MiniCluster miniCluster;
  private final URI rest;
  private final Path checkpoints;
  private final int parallelism;
  private final KafkaSettings kafka;
  private int runs;

  private BenchCluster(
      EmbeddedBroker broker, MiniCluster miniCluster, URI rest, Path checkpoints, int parallelism) {
    this.broker = broker;
    this.miniCluster = miniCluster;
    this.rest = rest;
    this.checkpoints = checkpoints;
    this.parallelism = parallelism;
    this.kafka = KafkaSettings.of(broker.bootstrapServers());
  }

  /** A broker, and a MiniCluster of one TaskManager with a slot per subtask of a job. */
  static BenchCluster start(int parallelism) {
    EmbeddedBroker broker = EmbeddedBroker.start();
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_PORT, "0");
    MiniCluster cluster =
        new MiniCluster(
            new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(parallelism)
                .build());
    try {
      cluster.start();
      return new BenchCluster(
          broker,
          cluster,
          cluster.getRestAddress().get(),
          Files.createTempDirectory("ogpm-bench-checkpoints"),
          parallelism);
    } catch (Exception e) {
      broker.close();
      throw new IllegalStateException(
          "the benchmark's MiniCluster did not start: " + e.getMessage(), e);
    }
  }

  /** An environment that submits to the MiniCluster, at the bench's parallelism. */
  StreamExecutionEnvironment environment() {
    // Checkpoints in files, as on a cluster: in the JobManager's memory a state handle may hold at
    // most 5 MB, and the aggregation's keyed state of 1,000 groups x 6 fields is larger, so its
    // checkpoints would fail and the job restart without end.
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createRemoteEnvironment(rest.getHost(), rest.getPort(), conf);
    env.setParallelism(parallelism);
    return env;
  }

  int parallelism() {
    return parallelism;
  }

  KafkaSettings kafka() {
    return kafka;
  }

  String bootstrapServers() {
    return broker.bootstrapServers();
  }

  void createTopic(String name, int partitions, Map<String, String> configs) {
    broker.createTopic(name, partitions, configs);
  }

  /**
   * The next job's number: its consumer group and transactional ids are {@code bench-N}, which
   * {@link JobThreadCpu} recognises its sinks' producers by.
   */
  int nextRun() {
    return runs++;
  }

  @Override
  public void close() {
    try {
      miniCluster.close();
      try (Stream<Path> files = Files.walk(checkpoints)) {
        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    } catch (Exception e) {
      throw new IllegalStateException(
          "the benchmark's MiniCluster did not stop: " + e.getMessage(), e);
    } finally {
      broker.close();
    }
  }
}
