package io.ogpm.flink.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.flink.DeadLetterRecord;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.RawRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * What the perturb job reads from and writes to Kafka: raw messages wrapped unparsed with their
 * coordinates and timestamp type; perturbed records with their key, value, timestamp and the {@code
 * ogpm-epsilon} header; dead letters with the {@code ogpm-reason} header. A timestamp of 0 or less
 * means "none": the sink's clock stamps the message.
 */
class KafkaRecordFormatsTest {
  static final byte[] JSON = "{\"x\":0.25}".getBytes(StandardCharsets.UTF_8);

  static <T> List<T> collect(java.util.function.Consumer<Collector<T>> source) {
    List<T> out = new ArrayList<>();
    source.accept(
        new Collector<>() {
          @Override
          public void collect(T t) {
            out.add(t);
          }

          @Override
          public void close() {}
        });
    return out;
  }

  static ConsumerRecord<byte[], byte[]> message(
      String topic, int partition, long offset, long timestamp, TimestampType type, byte[] value) {
    return new ConsumerRecord<>(
        topic,
        partition,
        offset,
        timestamp,
        type,
        0,
        value == null ? 0 : value.length,
        null,
        value,
        new RecordHeaders(),
        Optional.empty());
  }

  @Test
  void rawMessagesAreWrappedUnparsedWithTheirCoordinatesAndWhoStampedThem() {
    RawRecordDeserializer d = new RawRecordDeserializer();
    byte[] notJson = {(byte) 0xC3, 0x28, '{'};
    List<RawRecord> out =
        collect(
            c -> {
              d.deserialize(
                  message("ogpm.raw", 4, 77, 1_234, TimestampType.LOG_APPEND_TIME, JSON), c);
              d.deserialize(
                  message("ogpm.raw", 5, 78, 1_235, TimestampType.CREATE_TIME, notJson), c);
            });
    assertThat(out).hasSize(2);
    RawRecord r = out.get(0);
    assertThat(r.getValue()).isEqualTo(JSON);
    assertThat(r.getTopic()).isEqualTo("ogpm.raw");
    assertThat(r.getPartition()).isEqualTo(4);
    assertThat(r.getOffset()).isEqualTo(77);
    assertThat(r.getTimestamp()).isEqualTo(1_234);
    assertThat(r.getTimestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
    assertThat(out.get(1).getValue()).isEqualTo(notJson);
    assertThat(out.get(1).getTimestampType()).isEqualTo(TimestampType.CREATE_TIME);
    assertThat(d.getProducedType())
        .isInstanceOf(PojoTypeInfo.class)
        .isEqualTo(TypeInformation.of(RawRecord.class));
  }

  @Test
  void perturbedRecordsCarryKeyValueTimestampAndTheirCostInAHeader() {
    PerturbedRecordSerializer s = new PerturbedRecordSerializer("ogpm.perturbed");
    byte[] id = "r-1".getBytes(StandardCharsets.UTF_8);
    PerturbedRecord r =
        new PerturbedRecord(
                id, JSON, 1.5, "alice", 1_700_000_000_000L, TimestampType.LOG_APPEND_TIME)
            .from("ogpm.raw", 0, 9);
    ProducerRecord<byte[], byte[]> m = s.serialize(r, partitions(4), null);
    assertThat(m.topic()).isEqualTo("ogpm.perturbed");
    assertThat(m.partition()).as("its raw partition's").isZero();
    assertThat(m.key()).isEqualTo(id);
    assertThat(m.value()).isEqualTo(JSON);
    assertThat(m.timestamp()).isEqualTo(1_700_000_000_000L);
    assertThat(m.headers().toArray()).hasSize(1);
    assertThat(text(m.headers().lastHeader(PerturbedRecordSerializer.EPSILON_HEADER)))
        .isEqualTo("1.5");
    assertThat(PerturbedRecordSerializer.EPSILON_HEADER).isEqualTo("ogpm-epsilon");
    // Full precision (Double.toString), and the user never leaves the job.
    r.setEpsilon(0.1 + 0.2);
    r.setKey(null);
    m = s.serialize(r, partitions(4), null);
    assertThat(text(m.headers().lastHeader("ogpm-epsilon"))).isEqualTo("0.30000000000000004");
    assertThat(m.key()).isNull();
    assertThat(new String(m.value(), StandardCharsets.UTF_8)).doesNotContain("alice");
  }

  /**
   * A record from Kafka goes to its raw partition's number, modulo the perturbed topic's
   * partitions, whatever its key: each perturbed partition holds its raw partitions' records in
   * their order. A record not from Kafka goes where its key sends it.
   */
  @Test
  void perturbedRecordsStayInTheirRawPartitionsNumber() {
    PerturbedRecordSerializer s = new PerturbedRecordSerializer("ogpm.perturbed");
    for (int raw = 0; raw < 6; raw++) {
      for (String id : new String[] {"a", "b", "c"}) {
        PerturbedRecord r =
            new PerturbedRecord(id.getBytes(StandardCharsets.UTF_8), JSON, 1, null, 1, null)
                .from("ogpm.raw", raw, 7);
        assertThat(s.serialize(r, partitions(6), null).partition()).isEqualTo(raw);
        assertThat(s.serialize(r, partitions(4), null).partition()).isEqualTo(raw % 4);
      }
    }
    assertThat(
            s.serialize(new PerturbedRecord(null, JSON, 1, null, 1, null), partitions(4), null)
                .partition())
        .isNull();
  }

  /** A sink context whose perturbed topic has {@code n} partitions. */
  static KafkaRecordSerializationSchema.KafkaSinkContext partitions(int n) {
    return new KafkaRecordSerializationSchema.KafkaSinkContext() {
      @Override
      public int getParallelInstanceId() {
        return 0;
      }

      @Override
      public int getNumberOfParallelInstances() {
        return 1;
      }

      @Override
      public int[] getPartitionsForTopic(String topic) {
        return java.util.stream.IntStream.range(0, n).toArray();
      }
    };
  }

  /**
   * The serializer converts a header once and reuses it: a record with other values gets its own.
   */
  @Test
  void headersFollowEachRecordsEpsilonAndFingerprint() {
    PerturbedRecordSerializer s = new PerturbedRecordSerializer("p");
    String[][] cases = {
      {"2.5", "a"}, {"2.5", "a"}, {"0.5", "a"}, {"0.5", "b"}, {"2.5", null}, {"2.5", "a"}
    };
    for (String[] c : cases) {
      PerturbedRecord r = new PerturbedRecord(null, JSON, Double.parseDouble(c[0]), null, 1, null);
      r.setFingerprint(c[1]);
      ProducerRecord<byte[], byte[]> m = s.serialize(r, null, null);
      assertThat(text(m.headers().lastHeader("ogpm-epsilon"))).isEqualTo(c[0]);
      if (c[1] == null) {
        assertThat(m.headers().lastHeader(io.ogpm.config.ConfigFingerprint.HEADER)).isNull();
      } else {
        assertThat(text(m.headers().lastHeader(io.ogpm.config.ConfigFingerprint.HEADER)))
            .isEqualTo(c[1]);
      }
    }
  }

  @Test
  void aRecordWithoutATimestampIsStampedByTheSink() {
    PerturbedRecordSerializer perturbed = new PerturbedRecordSerializer("p");
    DeadLetterSerializer dead = new DeadLetterSerializer("d");
    for (long none : new long[] {0, -1}) {
      assertThat(
              perturbed
                  .serialize(new PerturbedRecord(null, JSON, 1, null, none, null), null, null)
                  .timestamp())
          .isNull();
      assertThat(
              dead.serialize(new DeadLetterRecord(JSON, "out-of-range", none), null, null)
                  .timestamp())
          .isNull();
    }
    assertThat(
            perturbed
                .serialize(new PerturbedRecord(null, JSON, 1, null, 1, null), null, null)
                .timestamp())
        .isEqualTo(1);
    assertThat(
            dead.serialize(new DeadLetterRecord(JSON, "out-of-range", 1), null, null).timestamp())
        .isEqualTo(1);
  }

  @Test
  void deadLettersCarryTheirReasonInAHeaderAndNoKey() {
    byte[] letter = "{\"reason\":\"budget-exhausted\"}".getBytes(StandardCharsets.UTF_8);
    ProducerRecord<byte[], byte[]> m =
        new DeadLetterSerializer("ogpm.dead-letters")
            .serialize(
                new DeadLetterRecord(letter, "budget-exhausted", 1_700_000_000_000L), null, null);
    assertThat(m.topic()).isEqualTo("ogpm.dead-letters");
    assertThat(m.key()).isNull();
    assertThat(m.value()).isEqualTo(letter);
    assertThat(m.timestamp()).isEqualTo(1_700_000_000_000L);
    assertThat(m.headers().toArray()).hasSize(1);
    assertThat(text(m.headers().lastHeader(DeadLetterSerializer.REASON_HEADER)))
        .isEqualTo("budget-exhausted");
    assertThat(DeadLetterSerializer.REASON_HEADER).isEqualTo("ogpm-reason");
  }

  static String text(Header h) {
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }
}
