package io.ogpm.testkit;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;

/**
 * One Kafka record with its coordinates: as written by {@link KafkaFixture#produce(String,
 * TestRecord...)} (where it landed) or as read back by {@link KafkaFixture#readCommitted(String)}.
 * The coordinates identify an input in the privacy contract's accounting ({@link
 * PrivacyAssertions}): a dead letter names the topic, partition and offset of its input.
 *
 * <p>Equality is by content of every component (arrays compared element by element).
 *
 * @param topic the topic
 * @param partition the partition
 * @param offset the offset within the partition
 * @param timestamp the record's timestamp (for a produced record on a {@code LogAppendTime} topic,
 *     the broker's), in epoch milliseconds
 * @param key the key, or null
 * @param value the value, or null
 * @param headers the headers by name (the last value of a repeated name), values as UTF-8 text
 */
public record KafkaRecord(
    String topic,
    int partition,
    long offset,
    long timestamp,
    byte[] key,
    byte[] value,
    Map<String, String> headers) {

  public KafkaRecord {
    headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
  }

  /** A record read by a consumer. */
  public static KafkaRecord of(ConsumerRecord<byte[], byte[]> r) {
    return new KafkaRecord(
        r.topic(),
        r.partition(),
        r.offset(),
        r.timestamp(),
        r.key(),
        r.value(),
        headers(r.headers()));
  }

  /** Records read by a consumer, in order. */
  public static List<KafkaRecord> of(List<ConsumerRecord<byte[], byte[]>> records) {
    return records.stream().map(KafkaRecord::of).toList();
  }

  /** A record written by a producer, where the broker acknowledged it. */
  static KafkaRecord of(ProducerRecord<byte[], byte[]> sent, RecordMetadata landed) {
    return new KafkaRecord(
        landed.topic(),
        landed.partition(),
        landed.offset(),
        landed.timestamp(),
        sent.key(),
        sent.value(),
        headers(sent.headers()));
  }

  private static Map<String, String> headers(Iterable<Header> headers) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Header h : headers) {
      out.put(h.key(), h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8));
    }
    return out;
  }

  /** The value as UTF-8 text, or null. */
  public String valueAsString() {
    return value == null ? null : new String(value, StandardCharsets.UTF_8);
  }

  /** The key as UTF-8 text, or null. */
  public String keyAsString() {
    return key == null ? null : new String(key, StandardCharsets.UTF_8);
  }

  /** The value of a header as UTF-8 text, or null if the record has no such header. */
  public String header(String name) {
    return headers.get(name);
  }

  /** {@code topic-partition@offset}: how messages of the kit name a record. */
  public String coordinates() {
    return topic + "-" + partition + "@" + offset;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KafkaRecord r
        && r.topic.equals(topic)
        && r.partition == partition
        && r.offset == offset
        && r.timestamp == timestamp
        && java.util.Arrays.equals(r.key, key)
        && java.util.Arrays.equals(r.value, value)
        && r.headers.equals(headers);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(topic, partition, offset);
  }

  /** The coordinates only: values may be sensitive, and test reports are read by many. */
  @Override
  public String toString() {
    return coordinates();
  }
}
