package io.ogpm.flink.kafka;

import io.ogpm.config.Options;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/**
 * What the library's Kafka sources share ({@link RawRecordSource} for the perturbation, {@link
 * AggregationKafka#perturbedValuesSource()} for the aggregation): the options, their checks and the
 * one way they become a {@code KafkaSource}. Every source reads with {@code
 * isolation.level=read_committed}, so records of producers' aborted or open transactions are never
 * read, and with the library's own deserializer; neither can be changed.
 *
 * <p>Without committed offsets of its group a source starts at the earliest record ({@link
 * #fromEarliest}). A bounded source ({@link #bounded}) stops at each partition's end as of the
 * start, once every transaction below it is decided ({@link StableEndOffsets}). Anything else
 * Flink's {@link KafkaSourceBuilder} offers (a topic pattern, a client id prefix, other start
 * offsets, consumer properties) is set with {@link #configure}.
 *
 * @param <T> the records of the source
 * @param <B> the concrete builder
 */
@PublicEvolving
public abstract class CommittedSourceBuilder<T, B extends CommittedSourceBuilder<T, B>> {
  private KafkaSettings kafka;
  private List<String> topics;
  private String groupId;
  private boolean fromEarliest = true;
  private boolean bounded;
  private Consumer<KafkaSourceBuilder<T>> configure;

  CommittedSourceBuilder() {}

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  /** Required: the bootstrap servers and client properties. */
  public B kafka(KafkaSettings kafka) {
    this.kafka = kafka;
    return self();
  }

  /**
   * The topics to read; required unless {@link #configure} subscribes otherwise (a topic pattern).
   */
  public B topics(String... topics) {
    this.topics = topics == null ? null : List.of(topics);
    return self();
  }

  /**
   * Required: the consumer group, whose committed offsets a job without a checkpoint starts from.
   */
  public B groupId(String groupId) {
    this.groupId = groupId;
    return self();
  }

  /** Where to start without committed offsets: the earliest record (default) or the latest. */
  public B fromEarliest(boolean fromEarliest) {
    this.fromEarliest = fromEarliest;
    return self();
  }

  /**
   * Whether to stop at each partition's end as of the start (backfills, tests), waiting up to
   * {@link StableEndOffsets#DEFAULT_TIMEOUT} for transactions below it; default: unbounded.
   */
  public B bounded(boolean bounded) {
    this.bounded = bounded;
    return self();
  }

  /**
   * Sets more of the Kafka source on Flink's own builder: called in {@code build()} after the
   * options above are set (so it may change any of them, or subscribe to a topic pattern instead of
   * {@link #topics}) and before {@code isolation.level=read_committed} and the deserializer are
   * set, so that it cannot change those two.
   */
  public B configure(Consumer<KafkaSourceBuilder<T>> configure) {
    this.configure = configure;
    return self();
  }

  /**
   * The source, with this deserializer.
   *
   * @throws NullPointerException naming a required option that is missing
   * @throws IllegalArgumentException for no topic, a blank topic or a blank group id
   */
  KafkaSource<T> buildWith(KafkaRecordDeserializationSchema<T> deserializer) {
    Objects.requireNonNull(kafka, "kafka: required (KafkaSettings.of(bootstrapServers))");
    if (topics == null && configure == null) {
      throw new NullPointerException("topics: required (or a subscription set in configure(..))");
    }
    if (topics != null && topics.isEmpty()) {
      throw new IllegalArgumentException("topics: at least one topic is required");
    }
    if (topics != null) {
      topics.forEach(topic -> Options.notBlank("topics", topic));
    }
    Options.notBlank("groupId", groupId);
    KafkaSourceBuilder<T> source =
        KafkaSource.<T>builder()
            .setBootstrapServers(kafka.bootstrapServers())
            .setProperties(kafka.properties())
            .setGroupId(groupId)
            .setStartingOffsets(
                OffsetsInitializer.committedOffsets(
                    fromEarliest ? OffsetResetStrategy.EARLIEST : OffsetResetStrategy.LATEST));
    if (topics != null) {
      source.setTopics(topics);
    }
    if (bounded) {
      source.setBounded(new StableEndOffsets(kafka, StableEndOffsets.DEFAULT_TIMEOUT));
    }
    if (configure != null) {
      configure.accept(source);
    }
    return source
        // Records of producers' aborted or open transactions are never read.
        .setProperty("isolation.level", "read_committed")
        .setDeserializer(deserializer)
        .build();
  }
}
