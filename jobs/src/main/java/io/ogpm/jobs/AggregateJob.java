package io.ogpm.jobs;

import io.ogpm.flink.LateRecordCounter;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.flink.FieldAggregate;
import io.ogpm.flink.FieldValue;
import io.ogpm.flink.FieldValueExtractor;
import io.ogpm.flink.TimedValue;
import io.ogpm.flink.TimedValueDeserializer;
import io.ogpm.flink.WindowStatsFunction;
import io.ogpm.flink.kafka.StableEndOffsets;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.datastream.WindowedStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.OutputTag;

/**
 * The perturbed topic to the stats topic: per event-time window, per field and optional group, the
 * count, histograms (raw and reconstructed) and means with 95 % intervals, one JSON object each.
 * Reads with {@code isolation.level=read_committed}, so it only sees what the perturb job
 * committed; watermarks allow bounded out-of-orderness per Kafka partition and advance past idle
 * partitions; late records within the allowed lateness update their window, later ones are counted
 * ({@code lateRecords}) and dropped.
 */
public final class AggregateJob {
  private AggregateJob() {}

  /** What the job needs. */
  public record Settings(
      PrivacyConfig config,
      KafkaSettings kafka,
      String inputTopic,
      String outputTopic,
      String groupId,
      String transactionalIdPrefix,
      String groupField,
      String timeField,
      Duration window,
      Duration slide,
      Duration allowedLateness,
      Duration outOfOrderness,
      Duration idleTimeout,
      int bins,
      boolean reconstruct,
      boolean bounded,
      Duration checkpointInterval,
      int parallelism) {}

  static final OutputTag<FieldValue> LATE = new OutputTag<>("late", TypeInformation.of(FieldValue.class));

  public static void build(StreamExecutionEnvironment env, Settings s) {
    env.enableCheckpointing(s.checkpointInterval().toMillis(), CheckpointingMode.EXACTLY_ONCE);
    if (s.parallelism() > 0) {
      env.setParallelism(s.parallelism());
    }
    var source = KafkaSource.<TimedValue>builder()
        .setBootstrapServers(s.kafka().bootstrapServers())
        .setProperties(s.kafka().properties())
        .setProperty("isolation.level", "read_committed")
        .setTopics(s.inputTopic())
        .setGroupId(s.groupId())
        .setStartingOffsets(OffsetsInitializer.committedOffsets(org.apache.kafka.clients.consumer.OffsetResetStrategy.EARLIEST))
        .setDeserializer(new TimedValueDeserializer(s.timeField()));
    if (s.bounded()) {
      source.setBounded(new StableEndOffsets(s.kafka(), StableEndOffsets.DEFAULT_TIMEOUT));
    }
    WatermarkStrategy<TimedValue> watermarks = WatermarkStrategy
        .<TimedValue>forBoundedOutOfOrderness(s.outOfOrderness())
        .withTimestampAssigner((v, kafkaTime) -> v.getEventTime())
        .withIdleness(s.idleTimeout());
    WindowedStream<FieldValue, String, TimeWindow> windows = env
        .fromSource(source.build(), watermarks, "perturbed records")
        .uid("perturbed-source")
        .flatMap(new FieldValueExtractor(s.config(), s.groupField()))
        .uid("fields")
        .name("split fields")
        .keyBy(FieldValue::key)
        .window(s.slide() == null || s.slide().equals(s.window())
            ? TumblingEventTimeWindows.of(s.window())
            : SlidingEventTimeWindows.of(s.window(), s.slide()))
        .allowedLateness(s.allowedLateness())
        .sideOutputLateData(LATE);
    SingleOutputStreamOperator<String> stats = windows
        .aggregate(new FieldAggregate(s.config(), s.bins()), new WindowStatsFunction(s.config(), s.bins(), s.reconstruct()))
        .uid("window-stats")
        .name("window stats");
    stats.getSideOutput(LATE)
        .map(new LateRecordCounter())
        .uid("late-records")
        .name("late records")
        .sinkTo(new DiscardingSink<>())
        .uid("late-records-discard");
    stats.sinkTo(s.kafka().exactlyOnceSink(KafkaRecordSerializationSchema.<String>builder()
                .setTopic(s.outputTopic())
                .setValueSerializationSchema(new SimpleStringSchema())
                .build(), s.transactionalIdPrefix() + "-stats"))
        .uid("stats-sink")
        .name("stats topic");
  }

}
