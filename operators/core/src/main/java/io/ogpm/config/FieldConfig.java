package io.ogpm.config;

import io.ogpm.annotation.PublicEvolving;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * One perturbed field of a record: where it is ({@link #name()}, {@link #path()}), how it is
 * perturbed ({@link #spec()}) and what happens to an input outside its domain ({@link
 * #outOfRange()}). Immutable and serializable, so that a Flink function can hold it.
 */
@PublicEvolving
public final class FieldConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final List<String> path;
  private final MechanismSpec spec;
  private final OutOfRange outOfRange;

  private FieldConfig(String name, List<String> path, MechanismSpec spec, OutOfRange outOfRange) {
    this.name = name;
    this.path = path;
    this.spec = spec;
    this.outOfRange = outOfRange;
  }

  /**
   * A field perturbed by an already validated spec.
   *
   * @throws ConfigException if the name is not a dotted name, or an argument is null
   */
  public static FieldConfig of(String name, MechanismSpec spec, OutOfRange outOfRange) {
    List<String> path = FieldNames.path("field: name", name);
    String context = "field " + ConfigException.quote(name);
    try {
      Checks.notNull("spec", spec);
      Checks.notNull("out-of-range", outOfRange);
    } catch (IllegalArgumentException e) {
      throw ConfigException.at(context, e);
    }
    return new FieldConfig(name, path, spec, outOfRange);
  }

  /** The dotted name: the key of the field in input and output records. */
  public String name() {
    return name;
  }

  /** The name split at its dots: the keys from the record's top level down to the value. */
  public List<String> path() {
    return path;
  }

  /** The validated mechanism spec, with the configuration's grid bits. */
  public MechanismSpec spec() {
    return spec;
  }

  public Domain domain() {
    return spec.domain();
  }

  /** The configured {@code min}: the domain's lower end. */
  public double min() {
    return spec.domain().lo();
  }

  /** The configured {@code max}: the domain's upper end. */
  public double max() {
    return spec.domain().hi();
  }

  /** The privacy budget one perturbation of this field spends. */
  public double epsilon() {
    return spec.epsilon();
  }

  public MechanismType mechanism() {
    return spec.type();
  }

  public Objective objective() {
    return spec.objective();
  }

  public OutOfRange outOfRange() {
    return outOfRange;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldConfig f
        && f.name.equals(name)
        && f.spec.equals(spec)
        && f.outOfRange == outOfRange;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, spec, outOfRange);
  }

  @Override
  public String toString() {
    return name + ": " + spec + ", out-of-range " + outOfRange.id();
  }
}
