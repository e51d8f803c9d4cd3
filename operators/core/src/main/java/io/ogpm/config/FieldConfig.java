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
import java.util.Optional;

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
  private final MechanismChoice choice;

  private FieldConfig(
      String name,
      List<String> path,
      MechanismSpec spec,
      OutOfRange outOfRange,
      MechanismChoice choice) {
    this.name = name;
    this.path = path;
    this.spec = spec;
    this.outOfRange = outOfRange;
    this.choice = choice;
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
    return new FieldConfig(name, path, spec, outOfRange, null);
  }

  /**
   * A field whose mechanism {@code auto} chooses: {@code spec} gives the domain, epsilon, objective
   * and grid (its type is replaced by the choice when the configuration is resolved).
   *
   * @throws ConfigException as {@link #of(String, MechanismSpec, OutOfRange)}, or if choice is null
   */
  public static FieldConfig auto(
      String name, MechanismSpec spec, OutOfRange outOfRange, MechanismChoice choice) {
    FieldConfig f = of(name, spec, outOfRange);
    if (choice == null) {
      throw new ConfigException("field " + ConfigException.quote(name) + ": choice is null");
    }
    return new FieldConfig(f.name, f.path, spec, outOfRange, choice);
  }

  /** This field with another spec (another epsilon, or the chosen mechanism), keeping the rest. */
  FieldConfig withSpec(MechanismSpec other, MechanismChoice otherChoice) {
    return new FieldConfig(name, path, other, outOfRange, otherChoice);
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

  /** How {@code mechanism: auto} chose this field's mechanism; empty when it was configured. */
  public Optional<MechanismChoice> choice() {
    return Optional.ofNullable(choice);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldConfig f
        && f.name.equals(name)
        && f.spec.equals(spec)
        && f.outOfRange == outOfRange
        && Objects.equals(f.choice, choice);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, spec, outOfRange, choice);
  }

  @Override
  public String toString() {
    return name
        + ": "
        + spec
        + ", out-of-range "
        + outOfRange.id()
        + (choice == null ? "" : ", " + choice);
  }
}
