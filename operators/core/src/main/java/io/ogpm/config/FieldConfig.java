package io.ogpm.config;

import io.ogpm.annotation.PublicEvolving;
import io.ogpm.estimate.DistributionQuery;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One perturbed field of a record: where it is ({@link #name()}, {@link #path()}), how it is
 * perturbed ({@link #spec()}) and what happens to an input outside its domain ({@link
 * #outOfRange()}); and what its estimates report besides the default quantiles: the share of the
 * inputs above each of its {@link #exceedances()}. Immutable and serializable, so that a Flink
 * function can hold it.
 */
@PublicEvolving
public final class FieldConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final List<String> path;
  private final MechanismSpec spec;
  private final OutOfRange outOfRange;
  private final MechanismChoice choice;

  /** Validated ({@link DistributionQuery#checkThresholds}, in the domain); never null. */
  private final double[] exceedances;

  private FieldConfig(
      String name,
      List<String> path,
      MechanismSpec spec,
      OutOfRange outOfRange,
      MechanismChoice choice,
      double[] exceedances) {
    this.name = name;
    this.path = path;
    this.spec = spec;
    this.outOfRange = outOfRange;
    this.choice = choice;
    this.exceedances = exceedances;
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
    return new FieldConfig(name, path, spec, outOfRange, null, new double[0]);
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
    return new FieldConfig(f.name, f.path, spec, outOfRange, choice, f.exceedances);
  }

  /**
   * This field with the thresholds whose exceedance shares its estimates report, in the field's
   * units. They do not change what a perturbed value means, so they are not part of the {@link
   * ConfigFingerprint}: the aggregation may ask for other thresholds than the perturbation knew.
   *
   * @throws ConfigException naming the field and the first threshold that is not finite, not above
   *     the one before it, or outside the domain, or past {@value DistributionQuery#MAX_THRESHOLDS}
   *     of them
   */
  public FieldConfig withExceedances(double... thresholds) {
    double[] checked;
    try {
      checked = DistributionQuery.of(null, thresholds).requireWithin(spec.domain()).thresholds();
    } catch (IllegalArgumentException e) {
      throw ConfigException.at("field " + ConfigException.quote(name), e);
    }
    return new FieldConfig(name, path, spec, outOfRange, choice, checked);
  }

  /** This field with another spec (another epsilon, or the chosen mechanism), keeping the rest. */
  FieldConfig withSpec(MechanismSpec other, MechanismChoice otherChoice) {
    return new FieldConfig(name, path, other, outOfRange, otherChoice, exceedances);
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

  /**
   * The thresholds whose exceedance shares the field's estimates report, increasing, in its domain;
   * empty unless configured ({@code exceedances}).
   */
  public double[] exceedances() {
    return exceedances.clone();
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
        && Objects.equals(f.choice, choice)
        && Arrays.equals(f.exceedances, exceedances);
  }

  @Override
  public int hashCode() {
    return 31 * Objects.hash(name, spec, outOfRange, choice) + Arrays.hashCode(exceedances);
  }

  @Override
  public String toString() {
    return name
        + ": "
        + spec
        + ", out-of-range "
        + outOfRange.id()
        + (choice == null ? "" : ", " + choice)
        + (exceedances.length == 0 ? "" : ", exceedances " + Arrays.toString(exceedances));
  }
}
