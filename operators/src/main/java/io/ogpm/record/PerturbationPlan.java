package io.ogpm.record;

import io.ogpm.annotation.Internal;
import io.ogpm.config.FieldConfig;
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
 * out-of-range rule and randomness (the keyed PRF with the field and mechanism already absorbed,
 * or the task's secure stream). Readers of any record format (JSON bytes, a user's objects) fill a
 * {@link RecordValues} by field index; {@link #perturb} checks the values in a fixed order and
 * perturbs them. Nothing here looks a name up or builds a string per accepted record.
 *
 * <p>Checks, in this order, the first failure being the record's dead letter: the id field, the
 * user field, then each field in configuration order (missing or null, not a number, not finite,
 * outside the domain under {@code reject}). Values outside the domain under {@code clamp} are
 * clamped (wrapped on a circle). Randomness is drawn only for accepted records, field by field in
 * configuration order, so a seeded plan is reproducible.
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
  private final KeyedPrf.RecordBits[] keyed;
  private final AesCtrSource stream;
  private final double epsilon;
  private final String idField;
  private final String userField;

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
    KeyedPrf prf = randomness.isKeyed() ? randomness.prf() : null;
    keyed = prf != null ? new KeyedPrf.RecordBits[n] : null;
    for (int i = 0; i < n; i++) {
      FieldConfig f = fields.get(i);
      names[i] = f.name();
      mechanisms[i] = MechanismCatalog.of(f.spec());
      domains[i] = f.domain();
      clamp[i] = f.outOfRange() == OutOfRange.CLAMP;
      if (prf != null) {
        // The mechanism spec is bound too: a changed configuration never reuses old bits.
        keyed[i] = prf.forField(f.name(), f.spec().toString()).newBits();
      }
    }
    this.stream = prf != null ? null : randomness.stream();
    this.epsilon = config.epsilonPerRecord();
    this.idField = config.idField().orElse(null);
    this.userField = config.userField().orElse(null);
  }

  /**
   * Compiles a configuration with a randomness mode; the mode may be destroyed afterwards (the
   * plan keeps only the derived PRF state).
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

  /** The privacy cost of every perturbed record: the sum of its fields' epsilons. */
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
      return new DeadLetter(ReasonCode.MISSING_FIELD, idField, "the id field is missing, null or not a string or integer", source);
    }
    if (userField == null) {
      r.user(Identifier.NONE);
    } else if (r.user() == null) {
      return new DeadLetter(ReasonCode.MISSING_FIELD, userField, "the user field is missing, null or not a string or integer", source);
    }
    for (int i = 0; i < names.length; i++) {
      DeadLetter refused = check(r, i, source);
      if (refused != null) {
        return refused;
      }
    }
    for (int i = 0; i < names.length; i++) {
      // Keyed bits depend on the field, id, user and the exact value perturbed: a replay of the
      // same record gets the same output, any other record independent noise.
      RandomBits bits = keyed != null ? keyed[i].load(r.id(), r.user(), r.input(i)) : stream;
      r.output(i, mechanisms[i].perturb(r.input(i), bits));
    }
    return null;
  }

  /** Checks field i; clamps its value when the field says so. */
  private DeadLetter check(RecordValues r, int i, Source source) {
    if (r.otherType(i) != null) {
      return new DeadLetter(ReasonCode.NOT_A_NUMBER, names[i], "the field is a JSON " + r.otherType(i) + ", not a number", source);
    }
    if (!r.present(i)) {
      return new DeadLetter(ReasonCode.MISSING_FIELD, names[i], "the field is missing or null", source);
    }
    double x = r.input(i);
    if (!Double.isFinite(x)) {
      return new DeadLetter(ReasonCode.NOT_A_NUMBER, names[i], "the field is not a finite number", source);
    }
    Domain d = domains[i];
    if (!d.contains(x)) {
      if (!clamp[i]) {
        return new DeadLetter(ReasonCode.OUT_OF_RANGE, names[i], "the field is outside [" + d.lo() + ", " + d.hi() + "]", source);
      }
      x = d.nearestInput(x);
    }
    // -0.0 becomes +0.0: the same input to the mechanism, so the same input to the keyed PRF.
    r.input(i, x + 0.0);
    return null;
  }
}
