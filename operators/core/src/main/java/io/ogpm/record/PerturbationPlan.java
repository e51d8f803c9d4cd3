package io.ogpm.record;

import io.ogpm.annotation.Internal;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.FieldSampling;
import io.ogpm.config.OutOfRange;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.Identifier;
import io.ogpm.mechanism.random.KeyedPrf;
import io.ogpm.mechanism.random.RandomBits;
import io.ogpm.mechanism.random.RandomnessMode;
import java.util.List;

/**
 * A privacy configuration compiled for one task: per field, by index, its mechanism, domain,
 * out-of-range rule and randomness (the keyed PRF with the field and mechanism already absorbed, or
 * the task's secure stream). Readers of any record format (JSON bytes, a user's objects) fill a
 * {@link RecordValues} by field index; {@link #perturb} checks the values in a fixed order and
 * perturbs them. Nothing here looks a name up or builds a string per accepted record.
 *
 * <p>Checks, in this order, the first failure being the record's dead letter: the id field, the
 * user field, then each field in configuration order (missing or null, not a number, not finite,
 * outside the domain under {@code reject}). Values outside the domain under {@code clamp} are
 * clamped (wrapped on a circle). Randomness is drawn only for accepted records, field by field in
 * configuration order, so a seeded plan is reproducible.
 *
 * <p>With field sampling ({@link FieldSampling}) every field is checked as without it, so a record
 * is refused or not whichever fields would be chosen; then K of the d units are chosen uniformly (a
 * partial Fisher-Yates shuffle of the units by exact bounded draws), from the secure stream before
 * the record's perturbations, or from the keyed PRF of the record's id and user alone (the field
 * name {@value #SAMPLING_FIELD}, which no configured name can be: a replay reports the same fields,
 * and the choice never depends on a value), and only the chosen units' fields are perturbed; the
 * others' outputs are NaN. The record spends the sum of its reported fields' epsilons ({@link
 * RecordValues#epsilon()}).
 *
 * <p>Not thread-safe (it owns a random stream and reusable PRF state): one per Flink subtask.
 */
@Internal
public final class PerturbationPlan {
  private final PrivacyConfig config;
  private final String[] names;
  private final Mechanism[] mechanisms;
  private final Domain[] domains;
  private final boolean[] clamp;

  /**
   * Each field's epsilon as configured (with sampling, of a report): what a record spends on it.
   */
  private final double[] epsilons;

  private final KeyedPrf.RecordBits[] keyed;
  private final AesCtrSource stream;
  private final double epsilon;
  private final String idField;
  private final String userField;

  /**
   * Field sampling: each field's unit, K, the units' order of the current draw; null without
   * sampling.
   */
  private final int[] unitOf;

  private final int fieldsPerRecord;
  private final int[] units;
  private final boolean[] chosen;
  private final KeyedPrf.RecordBits choiceBits;

  /**
   * The keyed PRF's field name for the choice of the reported fields: empty, which no field's name
   * is.
   */
  static final String SAMPLING_FIELD = "";

  private PerturbationPlan(PrivacyConfig config, RandomnessMode randomness) {
    if (randomness.isKeyed() && config.idField().isEmpty()) {
      throw new IllegalArgumentException("keyed randomness needs an id-field in the configuration");
    }
    this.config = config;
    List<FieldConfig> fields = config.fields();
    int n = fields.size();
    names = new String[n];
    mechanisms = new Mechanism[n];
    domains = new Domain[n];
    clamp = new boolean[n];
    epsilons = new double[n];
    KeyedPrf prf = randomness.isKeyed() ? randomness.prf() : null;
    keyed = prf != null ? new KeyedPrf.RecordBits[n] : null;
    for (int i = 0; i < n; i++) {
      FieldConfig f = fields.get(i);
      names[i] = f.name();
      mechanisms[i] = MechanismCatalog.of(f.spec());
      domains[i] = f.domain();
      clamp[i] = f.outOfRange() == OutOfRange.CLAMP;
      epsilons[i] = f.epsilon();
      if (prf != null) {
        // The mechanism spec is bound too: a changed configuration never reuses old bits.
        keyed[i] = prf.forField(f.name(), f.spec().toString()).newBits();
      }
    }
    this.stream = prf != null ? null : randomness.stream();
    this.epsilon = config.epsilonPerRecord();
    this.idField = config.idField().orElse(null);
    this.userField = config.userField().orElse(null);
    FieldSampling sampling = config.sampling().filter(FieldSampling::samples).orElse(null);
    if (sampling == null) {
      unitOf = null;
      fieldsPerRecord = 0;
      units = null;
      chosen = null;
      choiceBits = null;
    } else {
      unitOf = new int[n];
      for (int i = 0; i < n; i++) {
        unitOf[i] = sampling.unitOf(i);
      }
      fieldsPerRecord = sampling.fieldsPerRecord();
      units = new int[sampling.units()];
      chosen = new boolean[sampling.units()];
      choiceBits =
          prf == null
              ? null
              : prf.forField(SAMPLING_FIELD, "choose " + fieldsPerRecord + " of " + units.length)
                  .newBits();
    }
  }

  /**
   * Compiles a configuration with a randomness mode; the mode may be destroyed afterwards (the plan
   * keeps only the derived PRF state).
   *
   * @throws IllegalArgumentException for keyed randomness without an id field
   */
  public static PerturbationPlan compile(PrivacyConfig config, RandomnessMode randomness) {
    return new PerturbationPlan(config, randomness);
  }

  /** The configuration compiled. */
  public PrivacyConfig config() {
    return config;
  }

  /** How many fields are perturbed: the indices of {@link RecordValues} are 0 to size - 1. */
  public int size() {
    return names.length;
  }

  /**
   * The most a perturbed record spends: the sum of its fields' epsilons; with field sampling, of
   * the costliest K units' ({@link RecordValues#epsilon()} is what each record spends).
   */
  public double epsilonPerRecord() {
    return epsilon;
  }

  /** A reusable holder of one record's values for this plan. */
  public RecordValues newValues() {
    return new RecordValues(names.length);
  }

  /**
   * Checks one record's values and, when every check passes, replaces them by their perturbed
   * outputs ({@link RecordValues#output}).
   *
   * @return null when the record is perturbed, else its dead letter (naming fields, never values)
   */
  public DeadLetter perturb(RecordValues r, Source source) {
    if (idField != null && r.id() == null) {
      return new DeadLetter(
          ReasonCode.MISSING_FIELD,
          idField,
          "the id field is missing, null or not a string or integer",
          source);
    }
    if (userField == null) {
      r.user(Identifier.NONE);
    } else if (r.user() == null) {
      return new DeadLetter(
          ReasonCode.MISSING_FIELD,
          userField,
          "the user field is missing, null or not a string or integer",
          source);
    }
    for (int i = 0; i < names.length; i++) {
      DeadLetter refused = check(r, i, source);
      if (refused != null) {
        return refused;
      }
    }
    if (unitOf != null) {
      choose(choiceBits != null ? choiceBits.load(r.id(), r.user(), 0.0) : stream);
    }
    double spent = 0;
    for (int i = 0; i < names.length; i++) {
      if (unitOf != null && !chosen[unitOf[i]]) {
        r.output(i, Double.NaN);
        continue;
      }
      // Keyed bits depend on the field, id, user and the exact value perturbed: a replay of the
      // same record gets the same output, any other record independent noise.
      RandomBits bits = keyed != null ? keyed[i].load(r.id(), r.user(), r.input(i)) : stream;
      r.output(i, mechanisms[i].perturb(r.input(i), bits));
      spent += epsilons[i];
    }
    r.epsilon(spent);
    return null;
  }

  /** Marks K of the d units chosen, uniformly: the first K places of a Fisher-Yates shuffle. */
  private void choose(RandomBits bits) {
    for (int u = 0; u < units.length; u++) {
      units[u] = u;
      chosen[u] = false;
    }
    for (int k = 0; k < fieldsPerRecord; k++) {
      int j = k + (int) bits.nextBounded(units.length - k);
      int u = units[j];
      units[j] = units[k];
      units[k] = u;
      chosen[u] = true;
    }
  }

  /** Checks field i; clamps its value when the field says so. */
  private DeadLetter check(RecordValues r, int i, Source source) {
    if (r.otherType(i) != null) {
      return new DeadLetter(
          ReasonCode.NOT_A_NUMBER,
          names[i],
          "the field is a JSON " + r.otherType(i) + ", not a number",
          source);
    }
    if (!r.present(i)) {
      return new DeadLetter(
          ReasonCode.MISSING_FIELD, names[i], "the field is missing or null", source);
    }
    double x = r.input(i);
    if (!Double.isFinite(x)) {
      return new DeadLetter(
          ReasonCode.NOT_A_NUMBER, names[i], "the field is not a finite number", source);
    }
    Domain d = domains[i];
    if (!d.contains(x)) {
      if (!clamp[i]) {
        return new DeadLetter(
            ReasonCode.OUT_OF_RANGE,
            names[i],
            "the field is outside [" + d.lo() + ", " + d.hi() + "]",
            source);
      }
      x = d.nearestInput(x);
    }
    // -0.0 becomes +0.0: the same input to the mechanism, so the same input to the keyed PRF.
    r.input(i, x + 0.0);
    return null;
  }
}
