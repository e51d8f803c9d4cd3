package io.ogpm.config;

import io.ogpm.annotation.PublicEvolving;
import io.ogpm.estimate.MechanismAdvisor;
import io.ogpm.mechanism.GridResolution;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * What leaves the operator and how: the perturbed {@link #fields()}, the {@link #passthrough()}
 * fields copied unchanged, the record id and user fields, and the per-user {@link #budget()}. Every
 * other input field is dropped. Loaded from a YAML file ({@link #load}); immutable and
 * serializable, so that a Flink function can hold it.
 *
 * <p>Validation is strict: unknown keys are errors, and a name that is perturbed must not also be
 * passed through, used as the id or user field, or nested in or contain another configured name,
 * since that would let its raw value leave the operator.
 */
@PublicEvolving
public final class PrivacyConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String idField;
  private final String userField;
  private final List<String> passthrough;
  private final List<FieldConfig> fields;
  private final int gridBits;
  private final BudgetConfig budget;

  /** Null: every record reports every field. */
  private final FieldSampling sampling;

  /** Null: a user's records per window are not bounded. */
  private final ContributionBound contribution;

  private PrivacyConfig(
      String idField,
      String userField,
      List<String> passthrough,
      List<FieldConfig> fields,
      int gridBits,
      BudgetConfig budget,
      FieldSampling sampling,
      ContributionBound contribution) {
    this.idField = idField;
    this.userField = userField;
    this.passthrough = passthrough;
    this.fields = fields;
    this.gridBits = gridBits;
    this.budget = budget;
    this.sampling = sampling;
    this.contribution = contribution;
  }

  /**
   * This configuration with each user's records bounded per window ({@link ContributionBound}).
   *
   * @throws ConfigException without a user-field (the bound is per user), or when the bound would
   *     hold records until after the budget's periods close
   */
  public PrivacyConfig withContribution(ContributionBound contribution) {
    Objects.requireNonNull(contribution, "contribution");
    if (userField == null) {
      throw new ConfigException("contribution: user-field is required, the bound is per user");
    }
    checkHeldWithinBudgetLag(contribution);
    return new PrivacyConfig(
        idField, userField, passthrough, fields, gridBits, budget, sampling, contribution);
  }

  /** The bound on each user's records per window, if any. */
  public Optional<ContributionBound> contribution() {
    return Optional.ofNullable(contribution);
  }

  /** Reads and validates a YAML configuration file (UTF-8). */
  public static PrivacyConfig load(Path yamlFile) {
    String yaml;
    try {
      yaml = Files.readString(yamlFile, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new ConfigException("config file " + yamlFile + " does not exist", e);
    } catch (IOException e) {
      throw new ConfigException("cannot read config file " + yamlFile + ": " + e, e);
    }
    return parse(yaml);
  }

  /** Parses and validates a YAML configuration. */
  public static PrivacyConfig parse(String yaml) {
    return ConfigReader.read(yaml);
  }

  /**
   * A validated configuration.
   *
   * @param idField the record id field, or null
   * @param userField the field naming whose budget a record spends, or null
   * @param passthrough fields copied unchanged
   * @param fields the perturbed fields, at least one; their specs must all use {@code gridBits}
   * @param gridBits the output grid bits of every field
   * @param budget the per-user budget, or null for none; requires a user field
   * @throws ConfigException naming the offending field or key
   */
  public static PrivacyConfig of(
      String idField,
      String userField,
      List<String> passthrough,
      List<FieldConfig> fields,
      int gridBits,
      BudgetConfig budget) {
    return of(idField, userField, passthrough, fields, gridBits, budget, null, null);
  }

  /**
   * A validated configuration whose records each report some of their fields ({@link
   * FieldSampling}), each field a unit of its own; as {@link #of(String, String, List, List, int,
   * BudgetConfig)} with {@code sampling} null.
   *
   * @param fields the perturbed fields at their configured epsilons; {@link #fields()} holds them
   *     at the epsilon of a report
   */
  public static PrivacyConfig of(
      String idField,
      String userField,
      List<String> passthrough,
      List<FieldConfig> fields,
      int gridBits,
      BudgetConfig budget,
      FieldSampling.Request sampling) {
    return of(idField, userField, passthrough, fields, gridBits, budget, sampling, null);
  }

  /**
   * The configuration, with field sampling when {@code sampling} is not null, over the units {@code
   * unitOf} (per field; null: each field a unit of its own).
   */
  static PrivacyConfig of(
      String idField,
      String userField,
      List<String> passthrough,
      List<FieldConfig> fields,
      int gridBits,
      BudgetConfig budget,
      FieldSampling.Request sampling,
      int[] unitOf) {
    List<Named> others = new ArrayList<>();
    if (idField != null) {
      others.add(new Named("id-field", idField, FieldNames.path("id-field", idField)));
    }
    if (userField != null) {
      others.add(new Named("user-field", userField, FieldNames.path("user-field", userField)));
    }
    List<String> pass = passthrough == null ? List.of() : passthrough;
    for (int i = 0; i < pass.size(); i++) {
      String name = pass.get(i);
      List<String> path = FieldNames.path("passthrough #" + (i + 1), name);
      if (pass.subList(0, i).contains(name)) {
        throw new ConfigException("passthrough: duplicate name " + ConfigException.quote(name));
      }
      others.add(new Named("passthrough", name, path));
      checkNotReserved("passthrough " + ConfigException.quote(name), path);
    }
    if (fields == null || fields.isEmpty()) {
      throw new ConfigException("fields: at least one field is required");
    }
    checkGridBits(gridBits);
    for (int i = 0; i < fields.size(); i++) {
      FieldConfig f = Objects.requireNonNull(fields.get(i), "field");
      if (f.spec().gridBits() != gridBits) {
        throw new ConfigException(
            "field "
                + ConfigException.quote(f.name())
                + ": grid-bits "
                + f.spec().gridBits()
                + " differs from the configuration's "
                + gridBits);
      }
      for (int j = 0; j < i; j++) {
        checkDisjoint(f, new Named("field", fields.get(j).name(), fields.get(j).path()));
      }
      for (Named other : others) {
        checkDisjoint(f, other);
      }
      checkNotReserved("field " + ConfigException.quote(f.name()), f.path());
    }
    FieldSampling resolved = null;
    List<FieldConfig> reported = List.copyOf(fields);
    if (sampling != null) {
      int[] units = unitOf != null ? unitOf : IntStream.range(0, fields.size()).toArray();
      resolved = FieldSampling.resolve(sampling, reported, units);
      reported = scaled(reported, resolved.scale());
    }
    reported = chosen(reported, resolved);
    reported.forEach(PrivacyConfig::checkGrid);
    PrivacyConfig config =
        new PrivacyConfig(
            idField, userField, List.copyOf(pass), reported, gridBits, budget, resolved, null);
    config.checkBudget();
    return config;
  }

  /** The fields at their epsilons times {@code scale}: the epsilon of a report when sampled. */
  private static List<FieldConfig> scaled(List<FieldConfig> fields, double scale) {
    if (scale == 1) {
      return fields;
    }
    List<FieldConfig> out = new ArrayList<>();
    for (FieldConfig f : fields) {
      MechanismSpec spec;
      try {
        spec = f.spec().toBuilder().epsilon(f.epsilon() * scale).build();
      } catch (IllegalArgumentException e) {
        throw new ConfigException(
            "sampling: field "
                + ConfigException.quote(f.name())
                + " reported at epsilon "
                + f.epsilon() * scale
                + ": "
                + e.getMessage(),
            e);
      }
      out.add(f.withSpec(spec, f.choice().orElse(null)));
    }
    return List.copyOf(out);
  }

  /**
   * Each {@code mechanism: auto} field with the mechanism chosen at its epsilon per report, for its
   * own reports per window: with field sampling, a field reports in K of the units' records.
   */
  private static List<FieldConfig> chosen(List<FieldConfig> fields, FieldSampling sampling) {
    List<FieldConfig> out = new ArrayList<>();
    for (FieldConfig f : fields) {
      MechanismChoice request = f.choice().orElse(null);
      if (request == null || request.reason() != null) {
        out.add(f);
        continue;
      }
      long records =
          sampling == null
              ? request.recordsPerWindow()
              : sampling.reportsAmong(request.recordsPerWindow());
      MechanismAdvisor.Advice advice =
          MechanismAdvisor.advise(f.spec(), request.optimizeFor(), records);
      out.add(
          f.withSpec(
              advice.spec(), MechanismChoice.of(advice.question(), records, advice.reason())));
    }
    return List.copyOf(out);
  }

  /**
   * A field's mechanism must build on its output grid (cells wider than the doubles' spacing at the
   * domain's magnitude) and the grid must resolve it ({@link GridResolution}): else every estimate
   * of the field would be blurred by the grid, whatever the data.
   */
  private static void checkGrid(FieldConfig f) {
    try {
      GridResolution.check(MechanismCatalog.of(f.spec()));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(
          "field " + ConfigException.quote(f.name()) + ": " + e.getMessage(), e);
    }
  }

  /**
   * Validates the output grid bits that apply to every field.
   *
   * @throws ConfigException naming {@code grid-bits}
   */
  static int checkGridBits(int gridBits) {
    try {
      // MechanismSpec owns the valid range; a default spec with these bits fails only on them.
      MechanismSpec.builder().epsilon(1.0).gridBits(gridBits).build();
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage(), e);
    }
    return gridBits;
  }

  /**
   * An output's top-level name {@link ConfigFingerprint#FIELD} is taken: files perturbed by the
   * command line carry the fingerprint there.
   */
  private static void checkNotReserved(String what, List<String> path) {
    if (path.get(0).equals(ConfigFingerprint.FIELD)) {
      throw new ConfigException(
          what
              + ": the name "
              + ConfigFingerprint.FIELD
              + " is reserved for the configuration's fingerprint");
    }
  }

  private static void checkDisjoint(FieldConfig f, Named other) {
    if (!FieldNames.overlap(f.path(), other.path())) {
      return;
    }
    String field = "field " + ConfigException.quote(f.name());
    if (f.name().equals(other.name())) {
      throw new ConfigException(
          other.role().equals("field")
              ? field + ": duplicate name"
              : field + " is also listed as " + other.role());
    }
    throw new ConfigException(
        field
            + " overlaps "
            + other.role()
            + " "
            + ConfigException.quote(other.name())
            + ": a perturbed field must not contain or be nested in another configured name");
  }

  private void checkBudget() {
    if (budget == null) {
      return;
    }
    if (userField == null) {
      throw new ConfigException("budget: user-field is required, the budget is per user");
    }
    double perRecord = epsilonPerRecord();
    // The budget's own rounding slack: a budget of exactly the fields' epsilons is usable.
    if (budget.epsilon() < perRecord * (1 - BudgetConfig.SLACK)) {
      throw new ConfigException(
          "budget: epsilon "
              + budget.epsilon()
              + " is less than the epsilon per record "
              + perRecord
              + ", no record could be released");
    }
    budget.checkSliceHolds(perRecord, "epsilon per record");
  }

  /**
   * The bound holds a record until its window's end plus max-lag, so up to their sum after its
   * time; the budget after it, on the broker's clock, refuses a record whose period closed max-lag
   * after its end. A record at a period's end would reach it that late: unless the bound releases
   * sooner than the budget's max-lag, the budget would refuse records the bound chose.
   */
  private void checkHeldWithinBudgetLag(ContributionBound contribution) {
    if (budget == null || budget.clock() != BudgetClock.LOG_APPEND_TIME) {
      return;
    }
    Duration held = contribution.window().plus(contribution.maxLag());
    if (held.compareTo(budget.maxLag()) >= 0) {
      throw new ConfigException(
          "contribution: window "
              + contribution.window()
              + " plus max-lag "
              + contribution.maxLag()
              + " holds a record up to "
              + held
              + ", not less than the budget's max-lag "
              + budget.maxLag()
              + ", so the budget would refuse records the bound chose as of a closed period:"
              + " give budget a max-lag above "
              + held
              + " or the bound a shorter window");
    }
  }

  /** The field holding a unique record id, if configured. */
  public Optional<String> idField() {
    return Optional.ofNullable(idField);
  }

  /** The field naming the user whose budget a record spends, if configured. */
  public Optional<String> userField() {
    return Optional.ofNullable(userField);
  }

  /** The dotted names of the fields copied unchanged; possibly empty. */
  public List<String> passthrough() {
    return passthrough;
  }

  /**
   * The perturbed fields, in configuration order; never empty. With field sampling, each at the
   * epsilon a record reports it with ({@link FieldSampling#scale()} times the configured one): what
   * its outputs mean, and what the estimators use.
   */
  public List<FieldConfig> fields() {
    return fields;
  }

  /** Field sampling, if configured: how many fields each record reports, and at what epsilon. */
  public Optional<FieldSampling> sampling() {
    return Optional.ofNullable(sampling);
  }

  /**
   * Whether records report some of their fields only: field sampling with K below the number of
   * units ({@code auto} may choose them all, and then nothing is left out).
   */
  public boolean samplesFields() {
    return sampling != null && sampling.samples();
  }

  /** The perturbed field with this dotted name. */
  public Optional<FieldConfig> field(String name) {
    for (FieldConfig f : fields) {
      if (f.name().equals(name)) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }

  /** The output grid bits of every field. */
  public int gridBits() {
    return gridBits;
  }

  /** The per-user budget, if configured. */
  public Optional<BudgetConfig> budget() {
    return Optional.ofNullable(budget);
  }

  /**
   * The most one record spends: the sum of its fields' epsilons (sequential composition); with
   * field sampling, the sum over the K units whose reports cost the most, at most the configured
   * sum.
   */
  public double epsilonPerRecord() {
    if (sampling == null) {
      double sum = 0;
      for (FieldConfig f : fields) {
        sum += f.epsilon();
      }
      return sum;
    }
    double[] units = new double[sampling.units()];
    for (int i = 0; i < fields.size(); i++) {
      units[sampling.unitOf(i)] += fields.get(i).epsilon();
    }
    Arrays.sort(units);
    double sum = 0;
    for (int u = units.length - sampling.fieldsPerRecord(); u < units.length; u++) {
      sum += units[u];
    }
    return sum;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PrivacyConfig c
        && Objects.equals(c.idField, idField)
        && Objects.equals(c.userField, userField)
        && c.passthrough.equals(passthrough)
        && c.fields.equals(fields)
        && c.gridBits == gridBits
        && Objects.equals(c.budget, budget)
        && Objects.equals(c.sampling, sampling)
        && Objects.equals(c.contribution, contribution);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        idField, userField, passthrough, fields, gridBits, budget, sampling, contribution);
  }

  @Override
  public String toString() {
    return "PrivacyConfig{id-field="
        + idField
        + ", user-field="
        + userField
        + ", passthrough="
        + passthrough
        + ", fields="
        + fields
        + ", grid-bits="
        + gridBits
        + ", "
        + budget
        + (sampling == null ? "" : ", " + sampling)
        + (contribution == null ? "" : ", " + contribution)
        + "}";
  }

  /** A configured name that is not perturbed, with its role for messages. */
  private record Named(String role, String name, List<String> path) {}
}
