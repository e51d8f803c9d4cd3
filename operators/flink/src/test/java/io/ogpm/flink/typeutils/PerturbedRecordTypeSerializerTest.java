package io.ogpm.flink.typeutils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.RawRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshotSerializationUtil;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.testutils.DeeplyEqualsChecker;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * Flink's serializer test suite on {@link PerturbedRecordTypeSerializer} (round trips, copies,
 * snapshot and reconfiguration, concurrent use), over records with every field set, every nullable
 * field null, and every timestamp type; plus what the suite does not check: that it is the type's
 * serializer, that every field survives, and that the snapshot is compatible with itself as is.
 */
class PerturbedRecordTypeSerializerTest extends SerializerTestBase<PerturbedRecord> {

  PerturbedRecordTypeSerializerTest() {
    super(
        new DeeplyEqualsChecker()
            .withCustomCheck(
                (a, b) -> a instanceof PerturbedRecord && b instanceof PerturbedRecord,
                (a, b, checker) -> same((PerturbedRecord) a, (PerturbedRecord) b)));
  }

  static boolean same(PerturbedRecord a, PerturbedRecord b) {
    return Arrays.equals(a.getKey(), b.getKey())
        && Arrays.equals(a.getValue(), b.getValue())
        && Double.compare(a.getEpsilon(), b.getEpsilon()) == 0
        && Objects.equals(a.getUser(), b.getUser())
        && a.getTimestamp() == b.getTimestamp()
        && a.getTimestampType() == b.getTimestampType()
        && Objects.equals(a.getSourceTopic(), b.getSourceTopic())
        && a.getSourcePartition() == b.getSourcePartition()
        && a.getSourceOffset() == b.getSourceOffset()
        && Objects.equals(a.getFingerprint(), b.getFingerprint())
        && a.getSequence() == b.getSequence();
  }

  static PerturbedRecord full() {
    PerturbedRecord r =
        new PerturbedRecord(
                "b17".getBytes(StandardCharsets.UTF_8),
                "{\"id\":\"b17\",\"x\":0.25}".getBytes(StandardCharsets.UTF_8),
                5.5,
                "u17",
                1_767_225_600_017L,
                TimestampType.LOG_APPEND_TIME)
            .from("ogpm.raw", 3, 123_456_789_012L);
    r.setFingerprint("v1:0123456789abcdef");
    r.setSequence(4_000_000_017L);
    return r;
  }

  @Override
  protected TypeSerializer<PerturbedRecord> createSerializer() {
    return PerturbedRecordTypeSerializer.INSTANCE;
  }

  @Override
  protected int getLength() {
    return -1;
  }

  @Override
  protected Class<PerturbedRecord> getTypeClass() {
    return PerturbedRecord.class;
  }

  @Override
  protected PerturbedRecord[] getTestData() {
    PerturbedRecord noKeyNoFingerprint =
        new PerturbedRecord(
                null,
                "{}".getBytes(StandardCharsets.UTF_8),
                0.1,
                "\u00fc\u4e16",
                -5,
                TimestampType.CREATE_TIME)
            .from("t", 0, 0);
    PerturbedRecord noType =
        new PerturbedRecord(new byte[0], new byte[0], Double.MIN_VALUE, "", Long.MIN_VALUE, null)
            .from("", Integer.MAX_VALUE, Long.MAX_VALUE);
    noType.setFingerprint("");
    PerturbedRecord noTimestamp =
        new PerturbedRecord(
                new byte[] {-1, 0, 1},
                null,
                Double.MAX_VALUE,
                null,
                0,
                TimestampType.NO_TIMESTAMP_TYPE)
            .from(null, -1, -1);
    return new PerturbedRecord[] {
      full(), noKeyNoFingerprint, noType, noTimestamp, new PerturbedRecord()
    };
  }

  @Test
  void itIsTheSerializerOfTheType() {
    TypeInformation<PerturbedRecord> type = TypeInformation.of(PerturbedRecord.class);
    assertThat(type).isSameAs(PerturbedRecordTypeInfo.INSTANCE);
    SerializerConfigImpl noKryo = new SerializerConfigImpl();
    noKryo.setGenericTypes(false);
    assertThat(type.createSerializer(noKryo)).isSameAs(PerturbedRecordTypeSerializer.INSTANCE);
    assertThat(type.getTypeClass()).isEqualTo(PerturbedRecord.class);
    assertThat(type.isKeyType()).isFalse();
    assertThat(type.isBasicType()).isFalse();
    assertThat(type.isTupleType()).isFalse();
    assertThat(type.getArity()).isEqualTo(1);
    assertThat(type.getTotalFields()).isEqualTo(1);
    assertThat(type)
        .hasToString("PerturbedRecord")
        .isEqualTo(PerturbedRecordTypeInfo.INSTANCE)
        .hasSameHashCodeAs(PerturbedRecordTypeInfo.INSTANCE)
        .isNotEqualTo(TypeInformation.of(RawRecord.class));
    assertThat(type.canEqual(PerturbedRecordTypeInfo.INSTANCE)).isTrue();
    assertThat(type.canEqual(TypeInformation.of(RawRecord.class))).isFalse();
  }

  @Test
  void everyFieldSurvivesARoundTripAndACopyIsDeep() throws IOException {
    PerturbedRecord r = full();
    DataOutputSerializer out = new DataOutputSerializer(64);
    PerturbedRecordTypeSerializer.INSTANCE.serialize(r, out);
    PerturbedRecord back =
        PerturbedRecordTypeSerializer.INSTANCE.deserialize(
            new DataInputDeserializer(out.getCopyOfBuffer()));
    assertThat(back).usingRecursiveComparison().isEqualTo(r);
    PerturbedRecord copy = PerturbedRecordTypeSerializer.INSTANCE.copy(r);
    assertThat(copy).usingRecursiveComparison().isEqualTo(r);
    assertThat(copy.getKey()).isNotSameAs(r.getKey());
    assertThat(copy.getValue()).isNotSameAs(r.getValue());
    // Mutable (its setters), so Flink copies it between chained operators unless objects are
    // reused.
    assertThat(PerturbedRecordTypeSerializer.INSTANCE.isImmutableType()).isFalse();
    assertThat(PerturbedRecordTypeSerializer.INSTANCE.copy(r, new PerturbedRecord()))
        .usingRecursiveComparison()
        .isEqualTo(r);
  }

  @Test
  void anUnknownTimestampTypeIsACorruptStream() throws IOException {
    PerturbedRecord r = new PerturbedRecord(null, null, 1, null, 1, TimestampType.LOG_APPEND_TIME);
    DataOutputSerializer out = new DataOutputSerializer(64);
    PerturbedRecordTypeSerializer.INSTANCE.serialize(r, out);
    byte[] bytes = out.getCopyOfBuffer();
    // flags, epsilon (8), user (StringValue null: 1 byte), timestamp (8), then the type's id
    assertThat(bytes[1 + 8 + 1 + 8]).isEqualTo((byte) TimestampType.LOG_APPEND_TIME.id);
    bytes[1 + 8 + 1 + 8] = 7;
    assertThatThrownBy(
            () ->
                PerturbedRecordTypeSerializer.INSTANCE.deserialize(
                    new DataInputDeserializer(bytes)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("timestamp type id 7");
  }

  /** A snapshot written and read back restores the same serializer, compatible as is. */
  @Test
  void aRestoredSnapshotIsCompatibleAsIs() throws IOException {
    TypeSerializerSnapshot<PerturbedRecord> snapshot =
        PerturbedRecordTypeSerializer.INSTANCE.snapshotConfiguration();
    DataOutputSerializer out = new DataOutputSerializer(64);
    TypeSerializerSnapshotSerializationUtil.writeSerializerSnapshot(out, snapshot);
    TypeSerializerSnapshot<PerturbedRecord> restored =
        TypeSerializerSnapshotSerializationUtil.readSerializerSnapshot(
            new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
    assertThat(restored).isInstanceOf(PerturbedRecordTypeSerializer.Snapshot.class);
    assertThat(restored.restoreSerializer()).isSameAs(PerturbedRecordTypeSerializer.INSTANCE);
    TypeSerializerSchemaCompatibility<PerturbedRecord> compatibility =
        PerturbedRecordTypeSerializer.INSTANCE
            .snapshotConfiguration()
            .resolveSchemaCompatibility(restored);
    assertThat(compatibility.isCompatibleAsIs()).isTrue();
  }

  /**
   * A state written in the format before the sequence (Flink's simple snapshot, version 3) is
   * refused, not misread.
   */
  @Test
  void aSnapshotOfTheEarlierFormatIsIncompatible() throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64);
    out.writeUTF(PerturbedRecordTypeSerializer.Snapshot.class.getName());
    out.writeInt(3);
    TypeSerializerSnapshot<PerturbedRecord> earlier =
        TypeSerializerSnapshot.readVersionedSnapshot(
            new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
    assertThat(
            PerturbedRecordTypeSerializer.INSTANCE
                .snapshotConfiguration()
                .resolveSchemaCompatibility(earlier)
                .isIncompatible())
        .isTrue();
    assertThatThrownBy(earlier::restoreSerializer)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("format version 3");
  }
}
