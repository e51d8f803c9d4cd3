package io.ogpm.testkit;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * A record for a test to produce: a value (usually one JSON object), and optionally a key, a
 * timestamp, a partition and headers. Immutable: each {@code with...} returns a new record.
 *
 * <pre>{@code
 * kafka.produce("raw",
 *     TestRecord.json("{\"user\":\"u1\",\"x\":0.5}").withKey("u1").withTimestamp(Instant.parse("2026-01-01T00:00:00Z")));
 * }</pre>
 *
 * <p>A timestamp set here is the producer's ({@code CreateTime}); on a topic created with {@link
 * KafkaFixture#createRawTopic} the broker replaces it by its own clock ({@code LogAppendTime}), as
 * the privacy budget requires.
 */
public final class TestRecord {
  private final byte[] key;
  private final byte[] value;
  private final Long timestamp;
  private final Integer partition;
  private final Map<String, String> headers;

  private TestRecord(
      byte[] key, byte[] value, Long timestamp, Integer partition, Map<String, String> headers) {
    this.key = key;
    this.value = value;
    this.timestamp = timestamp;
    this.partition = partition;
    this.headers = headers;
  }

  /**
   * A record whose value is {@code json} in UTF-8 (not validated: tests send malformed input too).
   */
  public static TestRecord json(String json) {
    Objects.requireNonNull(json, "json");
    return new TestRecord(null, json.getBytes(StandardCharsets.UTF_8), null, null, Map.of());
  }

  /** A record with these value bytes; null is a tombstone. */
  public static TestRecord value(byte[] value) {
    return new TestRecord(null, value == null ? null : value.clone(), null, null, Map.of());
  }

  /** The same record with a key (UTF-8). */
  public TestRecord withKey(String key) {
    return new TestRecord(
        key == null ? null : key.getBytes(StandardCharsets.UTF_8),
        value,
        timestamp,
        partition,
        headers);
  }

  /** The same record with the producer's timestamp. */
  public TestRecord withTimestamp(Instant timestamp) {
    return withTimestamp(timestamp.toEpochMilli());
  }

  /** The same record with the producer's timestamp, in epoch milliseconds. */
  public TestRecord withTimestamp(long epochMillis) {
    if (epochMillis < 0) {
      throw new IllegalArgumentException(
          "timestamp: must be >= 0 epoch milliseconds, got " + epochMillis);
    }
    return new TestRecord(key, value, epochMillis, partition, headers);
  }

  /** The same record sent to one partition (default: the producer's partitioner, by key). */
  public TestRecord withPartition(int partition) {
    if (partition < 0) {
      throw new IllegalArgumentException("partition: must be >= 0, got " + partition);
    }
    return new TestRecord(key, value, timestamp, partition, headers);
  }

  /** The same record with one more header (UTF-8 value). */
  public TestRecord withHeader(String name, String value) {
    Map<String, String> h = new LinkedHashMap<>(headers);
    h.put(
        Objects.requireNonNull(name, "header name"), Objects.requireNonNull(value, "header value"));
    return new TestRecord(key, this.value, timestamp, partition, Map.copyOf(h));
  }

  /** The producer record for a topic. */
  public ProducerRecord<byte[], byte[]> toProducerRecord(String topic) {
    RecordHeaders h = new RecordHeaders();
    headers.forEach((k, v) -> h.add(k, v.getBytes(StandardCharsets.UTF_8)));
    return new ProducerRecord<>(
        topic,
        partition,
        timestamp,
        key == null ? null : key.clone(),
        value == null ? null : value.clone(),
        h);
  }
}
