package io.ogpm.flink;

import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.types.Row;

/**
 * How {@link LdpPerturbation#apply(org.apache.flink.streaming.api.datastream.DataStream,
 * RecordAccess)} reaches the fields of the user's own records, by the configuration's (dotted)
 * names: {@link #pojo} for Flink POJOs (public fields, or private fields with getters and setters;
 * a dotted name such as {@code attitude.roll} follows nested POJOs), {@link #row} for {@link Row}s
 * with a {@link RowTypeInfo} (nested Rows likewise).
 *
 * <p>Each record is read (perturbed fields as {@code double} or {@code Double}, id and user as a
 * string or an integer) and the output is a new record of the same type that holds the perturbed
 * values and copies of the passthrough values; every other field is empty: null, or 0 and false for
 * primitive fields (deny by default), whatever the type's constructor sets. The type is checked
 * against the configuration when the stream is perturbed, with a message naming the configured name
 * that does not fit.
 */
@PublicEvolving
public abstract class RecordAccess<T> implements Serializable {
  private static final long serialVersionUID = 1L;

  RecordAccess() {}

  /** Fields of the Flink POJO class {@code type}, by name. */
  public static <T> RecordAccess<T> pojo(Class<T> type) {
    return new Pojo<>(Objects.requireNonNull(type, "type: required"));
  }

  /** Fields of a Row by the names of the stream's {@link RowTypeInfo}. */
  public static RecordAccess<Row> row() {
    return new Rows();
  }

  /**
   * Checks that the stream's type is the kind this access reads; {@link LdpPerturbation} then
   * compiles the configuration against it.
   *
   * @throws IllegalArgumentException when the type is not the expected kind
   */
  abstract void check(TypeInformation<T> streamType);

  private static final class Pojo<T> extends RecordAccess<T> {
    private static final long serialVersionUID = 1L;
    private final Class<T> type;

    Pojo(Class<T> type) {
      this.type = type;
    }

    @Override
    void check(TypeInformation<T> streamType) {
      if (!streamType.getTypeClass().equals(type)) {
        throw new IllegalArgumentException(
            "the stream's records are "
                + streamType.getTypeClass().getName()
                + ", not "
                + type.getName());
      }
      if (!(streamType instanceof PojoTypeInfo)) {
        throw new IllegalArgumentException(
            "the stream's type is "
                + streamType
                + ", not a Flink POJO: "
                + type.getSimpleName()
                + " needs to be a public class with a public no-argument constructor whose fields are public or have"
                + " a public getter and setter (else Flink would serialize it with Kryo)");
      }
    }

    @Override
    public String toString() {
      return "RecordAccess.pojo(" + type.getName() + ")";
    }
  }

  private static final class Rows extends RecordAccess<Row> {
    private static final long serialVersionUID = 1L;

    @Override
    void check(TypeInformation<Row> streamType) {
      if (!(streamType instanceof RowTypeInfo)) {
        throw new IllegalArgumentException(
            "the stream's type is "
                + streamType
                + ", not a RowTypeInfo: give the Row"
                + " stream its field names and types (for example .returns(Types.ROW_NAMED(names, types)))");
      }
    }

    @Override
    public String toString() {
      return "RecordAccess.row()";
    }
  }
}
