package io.ogpm.flink.kafka;

import io.ogpm.flink.RawRecord;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/**
 * The Kafka source of raw records for {@link io.ogpm.flink.LdpPerturbation}: each message's bytes
 * with its topic, partition, offset and timestamp type, unparsed ({@link RawRecordDeserializer}),
 * read with {@code isolation.level=read_committed} so that records of producers' aborted or open
 * transactions are never perturbed (this overrides the setting in the client properties).
 *
 * <pre>{@code
 * KafkaSource<RawRecord> source = RawRecordSource.builder()
 *     .kafka(KafkaSettings.of("kafka:9092"))
 *     .topics("ogpm.raw")
 *     .groupId("ogpm-perturb")
 *     .build();
 * DataStream<RawRecord> raw = env.fromSource(source, WatermarkStrategy.noWatermarks(), "raw records");
 * }</pre>
 *
 * <p>Without committed offsets the source starts at the earliest record ({@link
 * Builder#fromEarliest}). A bounded source ({@link Builder#bounded}) stops at each partition's end
 * as of the start, once every transaction below it is decided ({@link StableEndOffsets}).
 */
@PublicEvolving
public final class RawRecordSource {
  private RawRecordSource() {}

  public static Builder builder() {
    return new Builder();
  }

  /** Builds the source; {@link #build} validates. */
  @PublicEvolving
  public static final class Builder {
    private KafkaSettings kafka;
    private List<String> topics;
    private String groupId;
    private boolean fromEarliest = true;
    private Duration boundedTimeout;

    private Builder() {}

    /** Required: the bootstrap servers and client properties. */
    public Builder kafka(KafkaSettings kafka) {
      this.kafka = kafka;
      return this;
    }

    /** Required: the topics to read. */
    public Builder topics(String... topics) {
      this.topics = topics == null ? null : List.of(topics);
      return this;
    }

    /** Required: the consumer group, whose committed offsets a job without a checkpoint starts from. */
    public Builder groupId(String groupId) {
      this.groupId = groupId;
      return this;
    }

    /** Where to start without committed offsets: the earliest record (default) or the latest. */
    public Builder fromEarliest(boolean fromEarliest) {
      this.fromEarliest = fromEarliest;
      return this;
    }

    /**
     * Stops at each partition's end as of the start (backfills, tests), waiting up to {@link
     * StableEndOffsets#DEFAULT_TIMEOUT} for transactions below it; default: unbounded.
     */
    public Builder bounded(boolean bounded) {
      this.boundedTimeout = bounded ? StableEndOffsets.DEFAULT_TIMEOUT : null;
      return this;
    }

    /**
     * @throws NullPointerException if the Kafka settings, the topics or the group id are missing
     * @throws IllegalArgumentException for no topic, a blank topic or a blank group id
     */
    public KafkaSource<RawRecord> build() {
      Objects.requireNonNull(kafka, "kafka: required (KafkaSettings.of(bootstrapServers))");
      Objects.requireNonNull(topics, "topics: required");
      if (topics.isEmpty()) {
        throw new IllegalArgumentException("topics: at least one topic is required");
      }
      for (String topic : topics) {
        Checks.name("topics", topic);
      }
      Checks.name("groupId", groupId);
      KafkaSourceBuilder<RawRecord> source = KafkaSource.<RawRecord>builder()
          .setBootstrapServers(kafka.bootstrapServers())
          .setProperties(kafka.properties())
          // Records of producers' aborted or open transactions are never perturbed.
          .setProperty("isolation.level", "read_committed")
          .setTopics(topics)
          .setGroupId(groupId)
          .setStartingOffsets(OffsetsInitializer.committedOffsets(
              fromEarliest ? OffsetResetStrategy.EARLIEST : OffsetResetStrategy.LATEST))
          .setDeserializer(new RawRecordDeserializer());
      if (boundedTimeout != null) {
        source.setBounded(new StableEndOffsets(kafka, boundedTimeout));
      }
      return source.build();
    }
  }
}
