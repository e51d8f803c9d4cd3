package io.ogpm.flink.typeutils;

import io.ogpm.flink.PerturbedRecord;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink's type information of {@link PerturbedRecord} ({@code
 * TypeInformation.of(PerturbedRecord.class)} gives it, through the {@link Factory} the class
 * names): serialized by {@link PerturbedRecordTypeSerializer}, never Kryo. Not a key type: the
 * budget keys by the user string.
 */
@PublicEvolving
public final class PerturbedRecordTypeInfo extends TypeInformation<PerturbedRecord> {
  private static final long serialVersionUID = 1L;

  public static final PerturbedRecordTypeInfo INSTANCE = new PerturbedRecordTypeInfo();

  private PerturbedRecordTypeInfo() {}

  @Override
  public boolean isBasicType() {
    return false;
  }

  @Override
  public boolean isTupleType() {
    return false;
  }

  @Override
  public int getArity() {
    return 1;
  }

  @Override
  public int getTotalFields() {
    return 1;
  }

  @Override
  public Class<PerturbedRecord> getTypeClass() {
    return PerturbedRecord.class;
  }

  @Override
  public boolean isKeyType() {
    return false;
  }

  @Override
  public TypeSerializer<PerturbedRecord> createSerializer(SerializerConfig config) {
    return PerturbedRecordTypeSerializer.INSTANCE;
  }

  @Override
  public String toString() {
    return "PerturbedRecord";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PerturbedRecordTypeInfo;
  }

  @Override
  public int hashCode() {
    return PerturbedRecordTypeInfo.class.hashCode();
  }

  @Override
  public boolean canEqual(Object o) {
    return o instanceof PerturbedRecordTypeInfo;
  }

  /** What {@code @TypeInfo} on {@link PerturbedRecord} names. */
  public static final class Factory extends TypeInfoFactory<PerturbedRecord> {
    @Override
    public TypeInformation<PerturbedRecord> createTypeInfo(
        Type t, Map<String, TypeInformation<?>> genericParameters) {
      return INSTANCE;
    }
  }
}
