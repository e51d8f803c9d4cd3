package io.ogpm.flink.table;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.Identifier;
import io.ogpm.mechanism.random.KeyedPrf;
import io.ogpm.mechanism.random.RandomBits;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.metrics.Counter;

/**
 * The record path of the scalar functions: one value and its call's arguments in, the perturbed
 * value or NULL out. The mechanism is the DataStream operator's ({@link MechanismCatalog}: the same
 * exact samplers and output grid), compiled once per distinct argument tuple ({@link
 * CompileCache}); the call that repeats the previous row's arguments, as a call with literal
 * arguments always does, compares six arguments and compiles nothing.
 *
 * <p>What gives NULL, each counted in {@code valuesRejected} under its {@link Reason} (never with
 * the value): arguments that define no mechanism ({@code invalid-argument}); a NULL value; NaN or
 * an infinity ({@code not-a-number}); a value outside a classical domain [lo, hi] ({@code
 * out-of-range}; a circular domain wraps it instead, the same angle); for keyed randomness a NULL
 * record id. Perturbed values are counted in {@code valuesPerturbed}.
 *
 * <p>Randomness: the task's secure stream, or the keyed PRF v2 of the DataStream operator ({@link
 * KeyedPrf}: field and mechanism spec absorbed per field, then record id, "no user" and the value
 * as the mechanism gets it, after wrapping, -0.0 as +0.0), so a keyed call gives exactly the output
 * the DataStream operator gives the same record under the same key.
 *
 * <p>Not thread-safe: one per function instance.
 */
final class ValuePerturber {
  private final RandomBits stream;
  private final CompileCache<SpecArguments, Mechanism> mechanisms;
  private final CompileCache<FieldKey, KeyedMechanism> keyedMechanisms;
  private final CompileCache<PolarArguments, PolarMechanisms> polarMechanisms;
  private final Counter perturbed;
  private final Map<Reason, Counter> rejected = new EnumMap<>(Reason.class);
  private final FunctionMetrics metrics;

  private SpecArguments lastArguments;
  private Mechanism lastMechanism;
  private String lastField;
  private KeyedMechanism lastKeyed;
  private PolarArguments lastPolarArguments;
  private PolarMechanisms lastPolar;

  private ValuePerturber(RandomBits stream, KeyedPrf prf, FunctionMetrics metrics) {
    this.stream = stream;
    this.metrics = metrics;
    this.mechanisms =
        new CompileCache<>(CompileCache.DEFAULT_CAPACITY, a -> MechanismCatalog.of(a.spec()));
    this.keyedMechanisms =
        prf == null
            ? null
            : new CompileCache<>(
                CompileCache.DEFAULT_CAPACITY,
                k -> {
                  Mechanism m = MechanismCatalog.of(k.arguments().spec());
                  // The DataStream operator's binding: the field's name and its mechanism spec.
                  return new KeyedMechanism(
                      m, prf.forField(k.field(), m.spec().toString()).newBits());
                });
    this.polarMechanisms =
        new CompileCache<>(
            CompileCache.DEFAULT_CAPACITY,
            a -> {
              PolarArguments.Split split = a.split();
              return new PolarMechanisms(
                  MechanismCatalog.of(split.radius().spec()),
                  MechanismCatalog.of(split.angle().spec()));
            });
    this.perturbed = metrics.counter("valuesPerturbed");
  }

  /** A perturber drawing from a random stream (the task's secure source). */
  static ValuePerturber withStream(RandomBits stream, FunctionMetrics metrics) {
    return new ValuePerturber(Objects.requireNonNull(stream, "stream"), null, metrics);
  }

  /** A perturber drawing keyed bits (replay-safe). */
  static ValuePerturber keyed(KeyedPrf prf, FunctionMetrics metrics) {
    return new ValuePerturber(null, Objects.requireNonNull(prf, "prf"), metrics);
  }

  /** How many argument tuples were compiled (for tests). */
  int compilations() {
    return mechanisms.compilations()
        + polarMechanisms.compilations()
        + (keyedMechanisms == null ? 0 : keyedMechanisms.compilations());
  }

  /**
   * The mechanism a call's arguments define, compiled once per distinct tuple (a call that repeats
   * the previous call's arguments looks nothing up); null when they define none.
   */
  Mechanism mechanismOf(
      Double lo, Double hi, Double eps, String domain, String mechanism, String objective) {
    if (!repeats(lo, hi, eps, domain, mechanism, objective)) {
      lastMechanism = mechanisms.get(lastArguments).value();
    }
    return lastMechanism;
  }

  /** The value perturbed by its call's {@link #mechanismOf mechanism}, or null (counted). */
  Double perturb(Double value, Mechanism m) {
    if (m == null) {
      return reject(Reason.INVALID_ARGUMENT);
    }
    double x = admitted(value, m.domain());
    return Double.isNaN(x) ? null : record(m.perturb(x, stream));
  }

  /**
   * A polar call's two mechanisms, compiled once per distinct tuple as {@link #mechanismOf}; null
   * when the arguments define no pair.
   */
  PolarMechanisms polarMechanismsOf(
      Double radiusMax, Double eps, String objective, Double angleMin, Double angleMax) {
    if (stream == null) {
      throw new IllegalStateException("this perturber has no stream");
    }
    if (lastPolarArguments == null
        || !lastPolarArguments.matches(radiusMax, eps, objective, angleMin, angleMax)) {
      lastPolarArguments = new PolarArguments(radiusMax, eps, objective, angleMin, angleMax);
      lastPolar = polarMechanisms.get(lastPolarArguments).value();
    }
    return lastPolar;
  }

  /**
   * A polar pair perturbed by its call's {@link #polarMechanismsOf mechanisms}, {@code {radius,
   * angle}}, or null when either coordinate has no perturbation (each bad coordinate counted under
   * its reason; nothing is drawn then, so a pair is released whole or not at all). The radius is
   * drawn first, then the angle, as the DataStream operator draws a polar item's two fields.
   */
  double[] perturbPolar(Double radius, Double angle, PolarMechanisms p) {
    if (p == null) {
      reject(Reason.INVALID_ARGUMENT);
      return null;
    }
    double r = admitted(radius, p.radius.domain());
    double a = admitted(angle, p.angle.domain());
    if (Double.isNaN(r) || Double.isNaN(a)) {
      return null;
    }
    double yr = p.radius.perturb(r, stream);
    double ya = p.angle.perturb(a, stream);
    perturbed.inc(2);
    return new double[] {yr, ya};
  }

  /**
   * A keyed call's mechanism for a field, with the keyed PRF bound to the field and its spec,
   * compiled once per distinct field and tuple as {@link #mechanismOf}; null when they define none.
   */
  KeyedMechanism keyedMechanismOf(
      String field,
      Double lo,
      Double hi,
      Double eps,
      String domain,
      String mechanism,
      String objective) {
    if (keyedMechanisms == null) {
      throw new IllegalStateException("this perturber has no key");
    }
    if (!repeats(lo, hi, eps, domain, mechanism, objective) || !Objects.equals(lastField, field)) {
      lastField = field;
      lastKeyed =
          field == null ? null : keyedMechanisms.get(new FieldKey(field, lastArguments)).value();
    }
    return lastKeyed;
  }

  /**
   * The perturbed value of a record's field by its call's {@link #keyedMechanismOf mechanism}, or
   * null (counted).
   */
  Double perturbKeyed(Identifier id, Double value, KeyedMechanism k) {
    if (k == null) {
      return reject(Reason.INVALID_ARGUMENT);
    }
    if (id == null) {
      return reject(Reason.NULL_RECORD_ID);
    }
    double x = admitted(value, k.mechanism.domain());
    if (Double.isNaN(x)) {
      return null;
    }
    return record(k.mechanism.perturb(x, k.bits.load(id, Identifier.NONE, x)));
  }

  /**
   * Whether a call's mechanism arguments are the previous call's, whose compiled mechanism it then
   * reuses; if not, they become the previous call's.
   */
  private boolean repeats(
      Double lo, Double hi, Double eps, String domain, String mechanism, String objective) {
    if (lastArguments != null && lastArguments.matches(lo, hi, eps, domain, mechanism, objective)) {
      return true;
    }
    lastArguments = new SpecArguments(lo, hi, eps, domain, mechanism, objective);
    return false;
  }

  /**
   * The value the mechanism is given: x itself in the domain, wrapped onto a circle, +0.0 for -0.0;
   * NaN (counted) when there is none.
   */
  private double admitted(Double value, Domain d) {
    if (value == null) {
      reject(Reason.NULL_VALUE);
      return Double.NaN;
    }
    double x = value;
    if (!Double.isFinite(x)) {
      reject(Reason.NOT_A_NUMBER);
      return Double.NaN;
    }
    if (!d.contains(x)) {
      if (!d.isCircular()) {
        reject(Reason.OUT_OF_RANGE);
        return Double.NaN;
      }
      x = d.nearestInput(x);
    }
    return x + 0.0;
  }

  private Double record(double y) {
    perturbed.inc();
    return y;
  }

  private Double reject(Reason reason) {
    rejected.computeIfAbsent(reason, r -> metrics.counter("valuesRejected", r)).inc();
    return null;
  }

  /** A keyed call's cache key: the field's name and the arguments. */
  private record FieldKey(String field, SpecArguments arguments) {}

  /** A polar call's two mechanisms. */
  record PolarMechanisms(Mechanism radius, Mechanism angle) {}

  /** A mechanism with the keyed PRF bound to its field and spec. */
  static final class KeyedMechanism {
    final Mechanism mechanism;
    final KeyedPrf.RecordBits bits;

    KeyedMechanism(Mechanism mechanism, KeyedPrf.RecordBits bits) {
      this.mechanism = mechanism;
      this.bits = bits;
    }
  }
}
