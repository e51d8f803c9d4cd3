package io.ogpm.flink.perturb;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.types.Row;

/**
 * One level of a user's record type whose fields have names: a Flink POJO or a {@link Row} with a
 * {@link RowTypeInfo}. Fields are found by name once ({@link #indexOf}), then read and written by
 * index. {@link #newInstance} makes the empty record that deny-by-default fills: every field null
 * (0 or false for a primitive).
 */
abstract class Composite {
  /** The type's name in messages: the POJO's simple class name, or Row. */
  abstract String name();

  /** The index of a field, or -1. */
  abstract int indexOf(String field);

  abstract TypeInformation<?> fieldType(int index);

  /** The field's declared type in messages ({@code double}, {@code Integer}, {@code String}). */
  abstract String fieldTypeName(int index);

  abstract Object get(Object record, int index);

  abstract void set(Object record, int index, Object value);

  /**
   * A new record of this type with every field empty; a Row takes the kind and field mode of {@code
   * like}.
   */
  abstract Object newInstance(Object like);

  /** The composite of a POJO or Row type, or null for any other type. */
  static Composite of(TypeInformation<?> type) {
    if (type instanceof PojoTypeInfo<?> pojo) {
      return new Pojo(pojo);
    }
    if (type instanceof RowTypeInfo row) {
      return new Rows(row);
    }
    return null;
  }

  /** A Flink POJO: fields read and written by reflection, as Flink's own PojoSerializer does. */
  static final class Pojo extends Composite {
    private final PojoTypeInfo<?> type;
    private final Field[] fields;
    private final Object[] empty;
    private final Constructor<?> constructor;

    Pojo(PojoTypeInfo<?> type) {
      this.type = type;
      fields = new Field[type.getArity()];
      empty = new Object[fields.length];
      for (int i = 0; i < fields.length; i++) {
        fields[i] = type.getPojoFieldAt(i).getField();
        fields[i].setAccessible(true);
        Class<?> c = fields[i].getType();
        // The default value of the field's type: null, or a primitive's zero.
        empty[i] = c.isPrimitive() ? Array.get(Array.newInstance(c, 1), 0) : null;
      }
      try {
        constructor = type.getTypeClass().getDeclaredConstructor();
        constructor.setAccessible(true);
      } catch (NoSuchMethodException e) {
        throw new IllegalArgumentException(name() + " has no no-argument constructor", e);
      }
    }

    @Override
    String name() {
      return type.getTypeClass().getSimpleName();
    }

    @Override
    int indexOf(String field) {
      return type.getFieldIndex(field);
    }

    @Override
    TypeInformation<?> fieldType(int index) {
      return type.getPojoFieldAt(index).getTypeInformation();
    }

    @Override
    String fieldTypeName(int index) {
      return fields[index].getType().getSimpleName();
    }

    @Override
    Object get(Object record, int index) {
      try {
        return fields[index].get(record);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot read " + name() + "." + fields[index].getName(), e);
      }
    }

    @Override
    void set(Object record, int index, Object value) {
      try {
        fields[index].set(record, value);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(
            "cannot write " + name() + "." + fields[index].getName(), e);
      }
    }

    @Override
    Object newInstance(Object like) {
      Object record;
      try {
        record = constructor.newInstance();
      } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException("cannot create a " + name(), e);
      }
      // Also the fields the constructor initialises: nothing but the configured fields is set.
      for (int i = 0; i < fields.length; i++) {
        set(record, i, empty[i]);
      }
      return record;
    }
  }

  /**
   * A Row of a {@link RowTypeInfo}: fields by position, or by name for a Row in name-based field
   * mode ({@link Row#withNames()}). A new Row has the field mode of the Row it replaces, so code
   * that reads the input's rows reads the output's the same way.
   */
  static final class Rows extends Composite {
    private final RowTypeInfo type;
    private final String[] names;

    Rows(RowTypeInfo type) {
      this.type = type;
      this.names = type.getFieldNames();
    }

    @Override
    String name() {
      return "Row";
    }

    @Override
    int indexOf(String field) {
      return type.getFieldIndex(field);
    }

    @Override
    TypeInformation<?> fieldType(int index) {
      return type.getTypeAt(index);
    }

    @Override
    String fieldTypeName(int index) {
      return type.getTypeAt(index).toString();
    }

    @Override
    Object get(Object record, int index) {
      Row row = (Row) record;
      return byPosition(row) ? row.getField(index) : row.getField(names[index]);
    }

    @Override
    void set(Object record, int index, Object value) {
      Row row = (Row) record;
      if (byPosition(row)) {
        row.setField(index, value);
      } else {
        row.setField(names[index], value);
      }
    }

    @Override
    Object newInstance(Object like) {
      Row row = (Row) like;
      return byPosition(row)
          ? Row.withPositions(row.getKind(), names.length)
          : Row.withNames(row.getKind());
    }

    private static boolean byPosition(Row row) {
      return row.getFieldNames(false) == null;
    }
  }
}
