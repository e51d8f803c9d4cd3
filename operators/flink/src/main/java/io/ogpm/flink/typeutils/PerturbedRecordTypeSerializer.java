package io.ogpm.flink.typeutils;

import io.ogpm.flink.PerturbedRecord;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;
import org.apache.kafka.common.record.TimestampType;

/**
 * Flink's serializer of {@link PerturbedRecord} between operators (the shuffle by user to the
 * budget, the copies between chained operators): its fields written one after the other with direct
 * getter and setter calls, where Flink's POJO serializer reads and writes each field by reflection,
 * boxing the primitives, with a null flag per field. Stateless, one instance.
 *
 * <p>Format: a byte of null flags (key, value, timestamp type), then key and value (length and
 * bytes, when present), epsilon, user, timestamp, the timestamp type's Kafka id (when present),
 * source topic, partition and offset, fingerprint, sequence; strings as {@link StringValue} writes
 * them (null included). A change of format needs a new {@link Snapshot} version.
 */
@Internal
public final class PerturbedRecordTypeSerializer extends TypeSerializerSingleton<PerturbedRecord> {
  private static final long serialVersionUID = 1L;

  public static final PerturbedRecordTypeSerializer INSTANCE = new PerturbedRecordTypeSerializer();

  private static final int NO_KEY = 1;
  private static final int NO_VALUE = 2;
  private static final int NO_TIMESTAMP_TYPE = 4;

  private PerturbedRecordTypeSerializer() {}

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public PerturbedRecord createInstance() {
    return new PerturbedRecord();
  }

  /** A deep copy: the byte arrays too, as the POJO serializer copies them. */
  @Override
  public PerturbedRecord copy(PerturbedRecord from) {
    PerturbedRecord to =
        new PerturbedRecord(
                copy(from.getKey()),
                copy(from.getValue()),
                from.getEpsilon(),
                from.getUser(),
                from.getTimestamp(),
                from.getTimestampType())
            .from(from.getSourceTopic(), from.getSourcePartition(), from.getSourceOffset());
    to.setFingerprint(from.getFingerprint());
    to.setSequence(from.getSequence());
    return to;
  }

  @Override
  public PerturbedRecord copy(PerturbedRecord from, PerturbedRecord reuse) {
    return copy(from);
  }

  private static byte[] copy(byte[] bytes) {
    return bytes == null ? null : bytes.clone();
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(PerturbedRecord r, DataOutputView out) throws IOException {
    byte[] key = r.getKey();
    byte[] value = r.getValue();
    TimestampType type = r.getTimestampType();
    out.writeByte(
        (key == null ? NO_KEY : 0)
            | (value == null ? NO_VALUE : 0)
            | (type == null ? NO_TIMESTAMP_TYPE : 0));
    if (key != null) {
      out.writeInt(key.length);
      out.write(key);
    }
    if (value != null) {
      out.writeInt(value.length);
      out.write(value);
    }
    out.writeDouble(r.getEpsilon());
    StringValue.writeString(r.getUser(), out);
    out.writeLong(r.getTimestamp());
    if (type != null) {
      out.writeByte(type.id);
    }
    StringValue.writeString(r.getSourceTopic(), out);
    out.writeInt(r.getSourcePartition());
    out.writeLong(r.getSourceOffset());
    StringValue.writeString(r.getFingerprint(), out);
    out.writeLong(r.getSequence());
  }

  @Override
  public PerturbedRecord deserialize(DataInputView in) throws IOException {
    int nulls = in.readByte();
    byte[] key = (nulls & NO_KEY) == 0 ? bytes(in) : null;
    byte[] value = (nulls & NO_VALUE) == 0 ? bytes(in) : null;
    double epsilon = in.readDouble();
    String user = StringValue.readString(in);
    long timestamp = in.readLong();
    TimestampType type = (nulls & NO_TIMESTAMP_TYPE) == 0 ? timestampType(in.readByte()) : null;
    PerturbedRecord r =
        new PerturbedRecord(key, value, epsilon, user, timestamp, type)
            .from(StringValue.readString(in), in.readInt(), in.readLong());
    r.setFingerprint(StringValue.readString(in));
    r.setSequence(in.readLong());
    return r;
  }

  @Override
  public PerturbedRecord deserialize(PerturbedRecord reuse, DataInputView in) throws IOException {
    return deserialize(in);
  }

  private static byte[] bytes(DataInputView in) throws IOException {
    byte[] b = new byte[in.readInt()];
    in.readFully(b);
    return b;
  }

  private static TimestampType timestampType(int id) throws IOException {
    for (TimestampType t : TimestampType.values()) {
      if (t.id == id) {
        return t;
      }
    }
    throw new IOException(
        "a perturbed record with timestamp type id " + id + ", which Kafka does not define");
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
  }

  @Override
  public TypeSerializerSnapshot<PerturbedRecord> snapshotConfiguration() {
    return new Snapshot();
  }

  /**
   * The serializer's snapshot: its version is the format's. Compatible as is with the same version;
   * a state written in another format (an earlier version of this library) is refused at restore,
   * never misread.
   */
  public static final class Snapshot implements TypeSerializerSnapshot<PerturbedRecord> {
    /**
     * The format's version: 3 was the format without the sequence (the version Flink's simple
     * snapshot wrote), 4 adds it.
     */
    static final int VERSION = 4;

    private int readVersion = VERSION;

    public Snapshot() {}

    @Override
    public int getCurrentVersion() {
      return VERSION;
    }

    @Override
    public void writeSnapshot(DataOutputView out) {}

    @Override
    public void readSnapshot(int version, DataInputView in, ClassLoader classLoader) {
      readVersion = version;
    }

    @Override
    public TypeSerializer<PerturbedRecord> restoreSerializer() {
      if (readVersion != VERSION) {
        throw new IllegalStateException(
            "perturbed records in state written in format version "
                + readVersion
                + " of an earlier ogpm-flink; this one reads version "
                + VERSION
                + " only: start the job without that state");
      }
      return INSTANCE;
    }

    @Override
    public TypeSerializerSchemaCompatibility<PerturbedRecord> resolveSchemaCompatibility(
        TypeSerializerSnapshot<PerturbedRecord> old) {
      return old instanceof Snapshot s && s.readVersion == VERSION
          ? TypeSerializerSchemaCompatibility.compatibleAsIs()
          : TypeSerializerSchemaCompatibility.incompatible();
    }
  }
}
