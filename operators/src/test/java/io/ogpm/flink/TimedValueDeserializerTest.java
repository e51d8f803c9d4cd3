package io.ogpm.flink;

import static io.ogpm.flink.KafkaRecordFormatsTest.collect;
import static io.ogpm.flink.KafkaRecordFormatsTest.message;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The aggregate job's event time ({@code --time-field}): epoch milliseconds or an ISO-8601 instant
 * from a passthrough field, else the Kafka timestamp. A time that is absent or unreadable falls back
 * to the Kafka timestamp; the record itself is passed on unchanged, never dropped here (the
 * extractor skips and counts what has no values).
 */
class TimedValueDeserializerTest {
  /** The Kafka timestamp of every message here. */
  static final long KAFKA_TIME = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

  static TimedValue read(String timeField, byte[] value) {
    TimedValueDeserializer d = new TimedValueDeserializer(timeField);
    List<TimedValue> out = collect(c -> d.deserialize(message("ogpm.perturbed", 0, 0, KAFKA_TIME,
        TimestampType.CREATE_TIME, value), c));
    assertThat(out).hasSize(1);
    return out.get(0);
  }

  static TimedValue read(String timeField, String json) {
    TimedValue v = read(timeField, json.getBytes(StandardCharsets.UTF_8));
    assertThat(new String(v.getValue(), StandardCharsets.UTF_8)).isEqualTo(json);
    return v;
  }

  @Test
  void withoutATimeFieldTheKafkaTimestampIsTheEventTime() {
    assertThat(read(null, "{\"x\":0.5,\"ts\":5}").getEventTime()).isEqualTo(KAFKA_TIME);
  }

  @Test
  void epochMillisecondsAndIso8601InstantsAreRead() {
    assertThat(read("ts", "{\"x\":0.5,\"ts\":1700000000123}").getEventTime()).isEqualTo(1_700_000_000_123L);
    assertThat(read("ts", "{\"ts\":-5}").getEventTime()).isEqualTo(-5);
    assertThat(read("ts", "{\"ts\":\"2023-11-14T22:13:20.123Z\"}").getEventTime()).isEqualTo(1_700_000_000_123L);
    assertThat(read("ts", "{\"ts\":\"2023-11-14T23:13:20.123+01:00\"}").getEventTime()).isEqualTo(1_700_000_000_123L);
    // A fractional number of milliseconds: the millisecond it falls in (toward zero).
    assertThat(read("ts", "{\"ts\":1700000000123.9}").getEventTime()).isEqualTo(1_700_000_000_123L);
    assertThat(read("ts", "{\"ts\":1.7e12}").getEventTime()).isEqualTo(1_700_000_000_000L);
  }

  @Test
  void aDottedTimeFieldAddressesANestedObject() {
    assertThat(read("meta.ts", "{\"meta\":{\"ts\":42},\"ts\":7}").getEventTime()).isEqualTo(42);
    assertThat(read("meta.ts", "{\"meta\":7}").getEventTime()).isEqualTo(KAFKA_TIME);
  }

  /** What is no time in epoch milliseconds: absent, null, another type, text that is no instant, out of range. */
  @ParameterizedTest
  @ValueSource(strings = {
      "{\"x\":0.5}", "{\"ts\":null}", "{\"ts\":true}", "{\"ts\":{\"ms\":5}}", "{\"ts\":[5]}", "{\"ts\":\"5\"}",
      "{\"ts\":\"yesterday\"}", "{\"ts\":\"\"}", "{\"ts\":\"2023-11-14 22:13:20\"}",
      "{\"ts\":\"+1000000000-01-01T00:00:00Z\"}", "{\"ts\":1e19}", "{\"ts\":-1e19}", "{\"ts\":1e400}",
      "{\"ts\":123456789012345678901234567890}", "[1700000000123]", "1700000000123"})
  void anAbsentOrUnreadableTimeFallsBackToTheKafkaTimestamp(String json) {
    assertThat(read("ts", json).getEventTime()).isEqualTo(KAFKA_TIME);
  }

  @Test
  void recordsThatAreNotJsonArePassedOnWithTheKafkaTimestamp() {
    byte[] garbage = {(byte) 0xC3, 0x28, '{', '"'};
    TimedValue v = read("ts", garbage);
    assertThat(v.getValue()).isEqualTo(garbage);
    assertThat(v.getEventTime()).isEqualTo(KAFKA_TIME);
    assertThat(read("ts", "{\"ts\":1700000000123").getEventTime()).as("truncated JSON").isEqualTo(KAFKA_TIME);
    // A tombstone (no value) is passed on as an empty value.
    TimedValue tombstone = read("ts", (byte[]) null);
    assertThat(tombstone.getValue()).isEmpty();
    assertThat(tombstone.getEventTime()).isEqualTo(KAFKA_TIME);
    assertThat(read(null, (byte[]) null).getValue()).isEmpty();
  }

  @Test
  void theProducedTypeIsAFlinkPojo() {
    assertThat(new TimedValueDeserializer("ts").getProducedType()).isInstanceOf(PojoTypeInfo.class)
        .isEqualTo(TypeInformation.of(TimedValue.class));
  }
}
