package io.ogpm.flink.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.flink.DeadLetterRecord;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.RawRecord;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka wiring of the perturbation, as built (no broker needed): the raw source reads committed
 * data only, from the group's offsets or the earliest, bounded on demand at the stable end; the
 * sinks are exactly-once with distinct transactional ids per sink; options are validated with
 * messages naming them. The connector keeps these settings private, so the test reads its fields.
 */
class PerturbationKafkaTest {
  static final KafkaSettings KAFKA = KafkaSettings.of("kafka-1:9092");

  @SuppressWarnings("unchecked")
  static <T> T field(Object o, String name) throws Exception {
    for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return (T) f.get(o);
      } catch (NoSuchFieldException e) {
        // try the superclass
      }
    }
    throw new NoSuchFieldException(name);
  }

  @Test
  void theRawSourceReadsCommittedRecordsFromTheGroupsOffsetsOrTheEarliest(@TempDir Path dir)
      throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("client.properties"),
            "isolation.level=read_uncommitted\nsecurity.protocol=SSL\n");
    KafkaSource<RawRecord> source =
        RawRecordSource.builder()
            .kafka(KafkaSettings.of("kafka-1:9092,kafka-2:9092", file))
            .topics("raw-a", "raw-b")
            .groupId("g")
            .build();
    Properties props = field(source, "props");
    assertThat(props)
        .containsEntry("isolation.level", "read_committed")
        .containsEntry("security.protocol", "SSL")
        .containsEntry("group.id", "g")
        .containsEntry("bootstrap.servers", "kafka-1:9092,kafka-2:9092");
    assertThat(source.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
    assertThat(
            ((OffsetsInitializer) field(source, "startingOffsetsInitializer"))
                .getAutoOffsetResetStrategy())
        .isEqualTo(OffsetResetStrategy.EARLIEST);
    assertThat((Object) field(field(source, "subscriber"), "topics"))
        .isEqualTo(List.of("raw-a", "raw-b"));
    assertThat(source.getProducedType()).isInstanceOf(PojoTypeInfo.class);

    KafkaSource<RawRecord> bounded =
        RawRecordSource.builder()
            .kafka(KAFKA)
            .topics("raw")
            .groupId("g")
            .fromEarliest(false)
            .bounded(true)
            .build();
    assertThat(bounded.getBoundedness()).isEqualTo(Boundedness.BOUNDED);
    assertThat((Object) field(bounded, "stoppingOffsetsInitializer"))
        .isInstanceOf(StableEndOffsets.class);
    assertThat(
            ((OffsetsInitializer) field(bounded, "startingOffsetsInitializer"))
                .getAutoOffsetResetStrategy())
        .isEqualTo(OffsetResetStrategy.LATEST);
    assertThat(
            RawRecordSource.builder()
                .kafka(KAFKA)
                .topics("raw")
                .groupId("g")
                .bounded(true)
                .bounded(false)
                .build()
                .getBoundedness())
        .isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
  }

  @Test
  void theRawSourcesOptionsAreValidated() {
    assertThatThrownBy(() -> RawRecordSource.builder().topics("t").groupId("g").build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("kafka: required (KafkaSettings.of(bootstrapServers))");
    assertThatThrownBy(() -> RawRecordSource.builder().kafka(KAFKA).groupId("g").build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("topics: required (or a subscription set in configure(..))");
    assertThatThrownBy(
            () ->
                RawRecordSource.builder().kafka(KAFKA).topics((String[]) null).groupId("g").build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("topics: required (or a subscription set in configure(..))");
    assertThatThrownBy(() -> RawRecordSource.builder().kafka(KAFKA).topics().groupId("g").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topics: at least one topic is required");
    assertThatThrownBy(
            () -> RawRecordSource.builder().kafka(KAFKA).topics("a", " ").groupId("g").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topics: must not be blank, got ' '");
    assertThatThrownBy(() -> RawRecordSource.builder().kafka(KAFKA).topics("a").build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("groupId: required");
    assertThatThrownBy(() -> RawRecordSource.builder().kafka(KAFKA).topics("a").groupId("").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("groupId: must not be blank, got ''");
  }

  @Test
  void theHooksSettingsReachTheSourceButReadCommittedAndTheDeserializerStay() throws Exception {
    KafkaRecordDeserializationSchema<RawRecord> other =
        new KafkaRecordDeserializationSchema<>() {
          @Override
          public void deserialize(
              ConsumerRecord<byte[], byte[]> record, Collector<RawRecord> out) {}

          @Override
          public TypeInformation<RawRecord> getProducedType() {
            return TypeInformation.of(RawRecord.class);
          }
        };
    KafkaSource<RawRecord> source =
        RawRecordSource.builder()
            .kafka(KAFKA)
            .groupId("g")
            .configure(
                b ->
                    b.setTopicPattern(Pattern.compile("raw-.*"))
                        .setClientIdPrefix("sensors")
                        .setStartingOffsets(OffsetsInitializer.timestamp(1_767_225_600_000L))
                        .setGroupId("other-group")
                        .setProperty("isolation.level", "read_uncommitted")
                        .setProperty("max.poll.records", "50")
                        .setDeserializer(other))
            .build();
    Properties props = field(source, "props");
    assertThat(props)
        .containsEntry("client.id.prefix", "sensors")
        .containsEntry("max.poll.records", "50")
        .containsEntry("group.id", "other-group")
        .containsEntry("isolation.level", "read_committed");
    assertThat(((Pattern) field(field(source, "subscriber"), "topicPattern")).pattern())
        .isEqualTo("raw-.*");
    assertThat((Object) field(source, "startingOffsetsInitializer"))
        .isInstanceOf(OffsetsInitializer.timestamp(0).getClass());
    assertThat((Object) field(source, "deserializationSchema"))
        .isInstanceOf(RawRecordDeserializer.class);
    assertThat(source.getProducedType()).isEqualTo(TypeInformation.of(RawRecord.class));

    // With topics and a hook, the hook runs last: it may change what the options set.
    KafkaSource<RawRecord> bounded =
        RawRecordSource.builder()
            .kafka(KAFKA)
            .topics("raw")
            .groupId("g")
            .bounded(true)
            .configure(b -> b.setUnbounded(OffsetsInitializer.latest()))
            .build();
    assertThat(bounded.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
    assertThatThrownBy(
            () ->
                RawRecordSource.builder()
                    .kafka(KAFKA)
                    .topics("raw")
                    .groupId("g")
                    .configure(b -> b.setTopicPattern(Pattern.compile("raw-.*")))
                    .build())
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void theSinksAreExactlyOnceWithOneTransactionalIdPrefixEach() throws Exception {
    KafkaSink<PerturbedRecord> perturbed = PerturbationSinks.perturbed(KAFKA, "out", "job-7");
    KafkaSink<DeadLetterRecord> dead = PerturbationSinks.deadLetters(KAFKA, "dead", "job-7");
    assertThat((Object) field(perturbed, "transactionalIdPrefix")).isEqualTo("job-7-perturbed");
    assertThat((Object) field(dead, "transactionalIdPrefix")).isEqualTo("job-7-dead-letters");
    for (KafkaSink<?> sink : List.of(perturbed, dead)) {
      assertThat((Object) field(sink, "deliveryGuarantee"))
          .isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
      Properties producer = field(sink, "kafkaProducerConfig");
      assertThat(producer)
          .containsEntry("transaction.timeout.ms", "600000")
          .containsEntry("bootstrap.servers", "kafka-1:9092");
    }
    KafkaRecordSerializationSchema<PerturbedRecord> p = field(perturbed, "recordSerializer");
    ProducerRecord<byte[], byte[]> m =
        p.serialize(
            new PerturbedRecord(null, "{}".getBytes(StandardCharsets.UTF_8), 1, null, 0, null),
            null,
            null);
    assertThat(m.topic()).isEqualTo("out");
    KafkaRecordSerializationSchema<DeadLetterRecord> d = field(dead, "recordSerializer");
    assertThat(d.serialize(new DeadLetterRecord(new byte[0], "too-large", 0), null, null).topic())
        .isEqualTo("dead");
  }

  @Test
  void theSinksOptionsAreValidated() {
    assertThatThrownBy(() -> PerturbationSinks.perturbed(null, "t", "p"))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("kafka: required (KafkaSettings.of(bootstrapServers))");
    assertThatThrownBy(() -> PerturbationSinks.deadLetters(null, "t", "p"))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("kafka: required (KafkaSettings.of(bootstrapServers))");
    assertThatThrownBy(() -> PerturbationSinks.perturbed(KAFKA, " ", "p"))
        .hasMessage("topic: must not be blank, got ' '");
    assertThatThrownBy(() -> PerturbationSinks.deadLetters(KAFKA, null, "p"))
        .hasMessage("topic: required");
    assertThatThrownBy(() -> PerturbationSinks.perturbed(KAFKA, "t", ""))
        .hasMessage("transactionalIdPrefix: must not be blank, got ''");
    assertThatThrownBy(() -> PerturbationSinks.deadLetters(KAFKA, "t", null))
        .hasMessage("transactionalIdPrefix: required");
  }

  @Test
  void kafkaSettingsPassClientPropertiesToEveryClient(@TempDir Path dir) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("c.properties"), "sasl.mechanism=PLAIN\ntransaction.timeout.ms=900000\n");
    KafkaSettings s = KafkaSettings.of("k:1", file);
    assertThat(s.bootstrapServers()).isEqualTo("k:1");
    assertThat(s.producerProperties())
        .containsEntry("sasl.mechanism", "PLAIN")
        .containsEntry("transaction.timeout.ms", "900000");
    assertThat(KafkaSettings.of("k:1").producerProperties())
        .containsOnly(Map.entry("transaction.timeout.ms", "600000"));
    assertThat(KafkaSettings.of("k:1", null).properties()).isEmpty();
    assertThat(s.adminConfig())
        .containsEntry("bootstrap.servers", "k:1")
        .containsEntry("sasl.mechanism", "PLAIN");
    // A copy each time: callers cannot change the settings.
    s.properties().put("x", "y");
    assertThat(s.properties()).doesNotContainKey("x");
    assertThatThrownBy(() -> KafkaSettings.of("k:1", dir.resolve("missing.properties")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "cannot read the Kafka properties file " + dir.resolve("missing.properties") + ": ");
  }

  /**
   * A bounded source over no partition stops at once; without committed offsets, its reset is
   * latest.
   */
  @Test
  void stableEndOffsetsOfNoPartitionAreEmpty() {
    StableEndOffsets end = new StableEndOffsets(KAFKA, StableEndOffsets.DEFAULT_TIMEOUT);
    assertThat(end.getPartitionOffsets(List.of(), null)).isEmpty();
    assertThat(end.getAutoOffsetResetStrategy()).isEqualTo(OffsetResetStrategy.LATEST);
  }
}
