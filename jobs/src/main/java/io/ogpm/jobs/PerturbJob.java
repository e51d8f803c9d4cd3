package io.ogpm.jobs;

import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.BudgetFunction;
import io.ogpm.flink.DeadLetterRecord;
import io.ogpm.flink.DeadLetterSerializer;
import io.ogpm.flink.KeySource;
import io.ogpm.flink.PerturbFunction;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.PerturbedRecordSerializer;
import io.ogpm.flink.RawRecord;
import io.ogpm.flink.RawRecordDeserializer;
import io.ogpm.flink.kafka.StableEndOffsets;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The raw topic to the perturbed topic: every record is perturbed at ingestion, rejected records
 * go to the dead-letter topic. Both sinks are exactly-once Kafka transactions committed on
 * checkpoints, so a consumer reading with {@code isolation.level=read_committed} sees each input
 * once, in the perturbed or the dead-letter topic.
 */
public final class PerturbJob {
  private PerturbJob() {}

  /** What the job needs. */
  public record Settings(
      PrivacyConfig config,
      KafkaSettings kafka,
      String inputTopic,
      String outputTopic,
      String deadLetterTopic,
      String groupId,
      String transactionalIdPrefix,
      KeySource keySource,
      boolean bounded,
      boolean fromEarliest,
      Duration checkpointInterval,
      int parallelism) {}

  /**
   * Adds the job's operators to an environment (and configures its checkpointing); {@code
   * beforePerturb} may insert operators between the source and the perturbation (tests).
   */
  public static void build(StreamExecutionEnvironment env, Settings s,
      UnaryOperator<DataStream<RawRecord>> beforePerturb) {
    env.enableCheckpointing(s.checkpointInterval().toMillis(), CheckpointingMode.EXACTLY_ONCE);
    if (s.parallelism() > 0) {
      env.setParallelism(s.parallelism());
    }
    var source = KafkaSource.<RawRecord>builder()
        .setBootstrapServers(s.kafka().bootstrapServers())
        .setProperties(s.kafka().properties())
        // Records of producers' aborted or open transactions are never perturbed.
        .setProperty("isolation.level", "read_committed")
        .setTopics(s.inputTopic())
        .setGroupId(s.groupId())
        .setStartingOffsets(s.fromEarliest()
            ? OffsetsInitializer.committedOffsets(org.apache.kafka.clients.consumer.OffsetResetStrategy.EARLIEST)
            : OffsetsInitializer.committedOffsets(org.apache.kafka.clients.consumer.OffsetResetStrategy.LATEST))
        .setDeserializer(new RawRecordDeserializer());
    if (s.bounded()) {
      source.setBounded(new StableEndOffsets(s.kafka(), StableEndOffsets.DEFAULT_TIMEOUT));
    }
    DataStream<RawRecord> raw = env
        .fromSource(source.build(), WatermarkStrategy.noWatermarks(), "raw records")
        .uid("raw-source");
    SingleOutputStreamOperator<PerturbedRecord> perturbed = beforePerturb.apply(raw)
        .process(new PerturbFunction(s.config(), s.keySource()))
        .uid("perturb")
        .name("perturb");
    DataStream<DeadLetterRecord> deadLetters = perturbed.getSideOutput(PerturbFunction.DEAD_LETTERS);
    DataStream<PerturbedRecord> released = perturbed;
    if (s.config().budget().isPresent()) {
      SingleOutputStreamOperator<PerturbedRecord> withinBudget = perturbed
          .keyBy(PerturbedRecord::getUser)
          .process(new BudgetFunction(s.config().budget().get()))
          // Not "budget": that uid held one (period, spent) pair per user, which this operator
          // does not read; a savepoint with it must not restore silently into a fresh budget.
          .uid("budget-by-period")
          .name("privacy budget");
      deadLetters = deadLetters.union(withinBudget.getSideOutput(PerturbFunction.DEAD_LETTERS));
      released = withinBudget;
    }
    released
        .sinkTo(s.kafka().exactlyOnceSink(new PerturbedRecordSerializer(s.outputTopic()), s.transactionalIdPrefix() + "-perturbed"))
        .uid("perturbed-sink")
        .name("perturbed topic");
    deadLetters
        .sinkTo(s.kafka().exactlyOnceSink(new DeadLetterSerializer(s.deadLetterTopic()), s.transactionalIdPrefix() + "-dead-letters"))
        .uid("dead-letter-sink")
        .name("dead-letter topic");
  }

  /** Adds the job's operators, with a test hook before the perturbation (failure injection). */
  public static void build(StreamExecutionEnvironment env, Settings s) {
    build(env, s, UnaryOperator.identity());
  }
}
