package io.ogpm.flink.kafka;

import io.ogpm.flink.RawRecord;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.source.KafkaSource;

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
 * DataStream<RawRecord> raw = env.fromSource(source, ldp.rawWatermarks(), "raw records");
 * }</pre>
 *
 * <p>{@link io.ogpm.flink.LdpPerturbation#rawWatermarks} gives the broker's append times as
 * watermarks where a contribution bound needs them, none otherwise.
 *
 * <p>Without committed offsets the source starts at the earliest record ({@link
 * Builder#fromEarliest}). A bounded source ({@link Builder#bounded}) stops at each partition's end
 * as of the start, once every transaction below it is decided ({@link StableEndOffsets}). Whatever
 * else Flink's {@code KafkaSourceBuilder} can set (a topic pattern, a client id prefix, start
 * offsets) is set with {@link Builder#configure}, applied before {@code read_committed} and the
 * deserializer are, so that neither can be undone.
 */
@PublicEvolving
public final class RawRecordSource {
  private RawRecordSource() {}

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builds the source; {@link #build} validates (the options are {@link CommittedSourceBuilder}'s).
   */
  @PublicEvolving
  public static final class Builder extends CommittedSourceBuilder<RawRecord, Builder> {
    private Builder() {}

    /**
     * @throws NullPointerException if the Kafka settings, the topics or the group id are missing
     * @throws IllegalArgumentException for no topic, a blank topic or a blank group id
     */
    public KafkaSource<RawRecord> build() {
      return buildWith(new RawRecordDeserializer());
    }
  }
}
