package io.ogpm.flink.perturb;

import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.random.Identifier;
import io.ogpm.record.RecordValues;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Where the configured names sit in a user's record type (POJOs and Rows, nested by dotted names),
 * compiled once against its {@link TypeInformation}: the perturbed fields, by field index of the
 * {@link io.ogpm.record.PerturbationPlan}, the passthrough fields, the id and the user. It reads a
 * record's values into {@link RecordValues} and builds the output record: a new record of the same
 * type holding the perturbed values and copies of the passthrough values, every other field empty
 * (deny by default).
 *
 * <p>Types are checked here, with messages naming the configured name: every name must exist;
 * perturbed fields are {@code double} or {@code Double} (outputs are doubles on the mechanism's
 * grid); ids and users are strings or integers ({@code int}, {@code long}, {@code short}, {@code
 * byte}, their boxes, {@code BigInteger}); the objects on the way to a nested name are POJOs or
 * Rows. Not thread-safe once bound to serializers: one per subtask.
 */
@Internal
public final class RecordShape<T> {
  /** A configured name's part: a field of its parent level and what the value there is for. */
  private static final class Step {
    /** The level this step is a field of, and the field's index there. */
    final Composite parent;

    final int index;

    /** The field's place in messages, {@code Sensor.attitude.roll}, and its declared type. */
    final String where;

    final String typeName;
    final List<Step> children = new ArrayList<>();
    int field = -1;
    int passthrough = -1;
    boolean id;
    boolean user;
    boolean output;
    final TypeInformation<?> type;
    final Composite composite;
    TypeSerializer<Object> copier;

    Step(Composite parent, int index, String where) {
      this.parent = parent;
      this.index = index;
      this.where = where;
      this.typeName = parent.fieldTypeName(index);
      this.type = parent.fieldType(index);
      this.composite = Composite.of(type);
    }

    Object get(Object record) {
      return parent.get(record, index);
    }
  }

  private final Composite root;
  private final List<Step> steps = new ArrayList<>();

  private RecordShape(Composite root) {
    this.root = root;
  }

  /**
   * Compiles a configuration against a record type.
   *
   * @param serializers makes the copiers of passthrough values (null: only check the types)
   * @throws IllegalArgumentException naming the configured name that does not fit the type
   */
  @SuppressWarnings("unchecked")
  public static <T> RecordShape<T> compile(
      TypeInformation<T> type,
      PrivacyConfig config,
      Function<TypeInformation<?>, TypeSerializer<?>> serializers) {
    Composite root = Composite.of(type);
    if (root == null) {
      throw new IllegalArgumentException(
          "the stream's type " + type + " is neither a Flink POJO nor a Row with a RowTypeInfo");
    }
    RecordShape<T> shape = new RecordShape<>(root);
    List<FieldConfig> fields = config.fields();
    for (int i = 0; i < fields.size(); i++) {
      String what = "field '" + fields.get(i).name() + "'";
      Step s = shape.at(fields.get(i).path(), what);
      if (!BasicTypeInfo.DOUBLE_TYPE_INFO.equals(s.type)) {
        throw new IllegalArgumentException(
            what
                + ": "
                + s.where
                + " is "
                + s.typeName
                + ", not double or Double"
                + " (a perturbed value is a double)");
      }
      s.field = i;
    }
    for (int j = 0; j < config.passthrough().size(); j++) {
      String name = config.passthrough().get(j);
      Step s = shape.at(List.of(name.split("\\.", -1)), "passthrough '" + name + "'");
      s.passthrough = j;
      if (serializers != null) {
        s.copier = (TypeSerializer<Object>) serializers.apply(s.type);
      }
    }
    config.idField().ifPresent(name -> shape.identifier(name, "id-field").id = true);
    config.userField().ifPresent(name -> shape.identifier(name, "user-field").user = true);
    markOutput(shape.steps);
    return shape;
  }

  /** Reads a record's perturbed values, id and user (values cleared first). */
  public void read(T record, RecordValues values) {
    values.clear();
    read(record, steps, values);
  }

  /**
   * The output record: perturbed values from {@code values}, passthrough values copied from {@code
   * in}.
   */
  @SuppressWarnings("unchecked")
  public T write(T in, RecordValues values) {
    return (T) write(in, root, steps, values);
  }

  private static void read(Object record, List<Step> steps, RecordValues values) {
    for (Step s : steps) {
      Object v = s.get(record);
      if (s.field >= 0 && v != null) {
        values.number(s.field, ((Double) v).doubleValue());
      }
      if (s.id) {
        values.id(identifier(v));
      }
      if (s.user) {
        values.user(identifier(v));
      }
      if (v != null && !s.children.isEmpty()) {
        read(v, s.children, values);
      }
    }
  }

  private static Object write(Object in, Composite level, List<Step> steps, RecordValues values) {
    Object out = level.newInstance(in);
    for (Step s : steps) {
      if (s.passthrough >= 0) {
        Object v = s.get(in);
        level.set(out, s.index, v == null || s.copier == null ? v : s.copier.copy(v));
      } else if (s.field >= 0) {
        // NaN where the record does not report the field (field sampling).
        level.set(out, s.index, values.output(s.field));
      } else if (s.output) {
        Object child = s.get(in);
        if (child != null) {
          level.set(out, s.index, write(child, s.composite, s.children, values));
        }
      }
    }
    return out;
  }

  private Step at(List<String> path, String what) {
    Composite level = root;
    List<Step> siblings = steps;
    String where = root.name();
    Step step = null;
    for (int k = 0; k < path.size(); k++) {
      String part = path.get(k);
      if (level == null) {
        throw new IllegalArgumentException(
            what
                + ": "
                + where
                + " is "
                + step.typeName
                + ", not a POJO or Row with a field "
                + part);
      }
      int index = level.indexOf(part);
      if (index < 0) {
        throw new IllegalArgumentException(what + ": " + where + " has no field " + part);
      }
      step = find(siblings, index);
      if (step == null) {
        step = new Step(level, index, where + "." + part);
        siblings.add(step);
      }
      where = step.where;
      level = step.composite;
      siblings = step.children;
    }
    return step;
  }

  private Step identifier(String name, String role) {
    String what = role + " '" + name + "'";
    Step s = at(List.of(name.split("\\.", -1)), what);
    if (!isIdentifierType(s.type)) {
      throw new IllegalArgumentException(
          what + ": " + s.where + " is " + s.typeName + ", not a string or an integer");
    }
    return s;
  }

  private static boolean isIdentifierType(TypeInformation<?> t) {
    return BasicTypeInfo.STRING_TYPE_INFO.equals(t)
        || BasicTypeInfo.LONG_TYPE_INFO.equals(t)
        || BasicTypeInfo.INT_TYPE_INFO.equals(t)
        || BasicTypeInfo.SHORT_TYPE_INFO.equals(t)
        || BasicTypeInfo.BYTE_TYPE_INFO.equals(t)
        || BasicTypeInfo.BIG_INT_TYPE_INFO.equals(t);
  }

  /** A string or integer value as a typed identifier, as in JSON records; null for null. */
  static Identifier identifier(Object v) {
    if (v instanceof String s) {
      return Identifier.string(s);
    }
    if (v instanceof BigInteger b) {
      return Identifier.integer(b);
    }
    if (v instanceof Number n) {
      return Identifier.integer(n.longValue());
    }
    return null;
  }

  private static Step find(List<Step> steps, int index) {
    for (Step s : steps) {
      if (s.index == index) {
        return s;
      }
    }
    return null;
  }

  /** Marks the steps with an output value at or below them; returns whether any has one. */
  private static boolean markOutput(List<Step> steps) {
    boolean any = false;
    for (Step s : steps) {
      s.output = s.field >= 0 | s.passthrough >= 0 | markOutput(s.children);
      any |= s.output;
    }
    return any;
  }
}
