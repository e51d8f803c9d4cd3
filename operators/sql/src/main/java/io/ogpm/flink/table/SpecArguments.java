package io.ogpm.flink.table;

import io.ogpm.config.MechanismChoice;
import io.ogpm.estimate.MechanismAdvisor;
import io.ogpm.estimate.OptimizeFor;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import java.util.Objects;

/**
 * The arguments of a SQL call that define a mechanism: {@code lo}, {@code hi}, {@code eps}, {@code
 * domain}, {@code mechanism} and {@code objective}, as the call passed them (any of them may be
 * NULL or invalid). {@link #spec()} turns them into a {@link MechanismSpec} with the default output
 * grid, the same spec a configuration file with these values gives, or says which argument is bad.
 * Immutable; equal when every argument is (doubles compared by their bits).
 */
final class SpecArguments {
  /** The domain of a call that does not name one. */
  static final String DEFAULT_DOMAIN = Domain.Kind.CLASSICAL.id();

  /** The mechanism of a call that does not name one: the paper's optimal mechanism. */
  static final String DEFAULT_MECHANISM = MechanismType.OGPM.id();

  /** The objective of a call that does not name one: the paper's closed form. */
  static final String DEFAULT_OBJECTIVE = Objective.L1.id();

  private final Double lo;
  private final Double hi;
  private final Double eps;
  private final String domain;
  private final String mechanism;
  private final String objective;

  SpecArguments(
      Double lo, Double hi, Double eps, String domain, String mechanism, String objective) {
    this.lo = lo;
    this.hi = hi;
    this.eps = eps;
    this.domain = domain;
    this.mechanism = mechanism;
    this.objective = objective;
  }

  Double lo() {
    return lo;
  }

  Double hi() {
    return hi;
  }

  Double eps() {
    return eps;
  }

  String domain() {
    return domain;
  }

  String mechanism() {
    return mechanism;
  }

  String objective() {
    return objective;
  }

  /** Whether a call with these arguments has the same arguments as this one. */
  boolean matches(
      Double lo, Double hi, Double eps, String domain, String mechanism, String objective) {
    return same(this.lo, lo)
        && same(this.hi, hi)
        && same(this.eps, eps)
        && Objects.equals(this.domain, domain)
        && Objects.equals(this.mechanism, mechanism)
        && Objects.equals(this.objective, objective);
  }

  /**
   * The spec these arguments define.
   *
   * @throws IllegalArgumentException naming the SQL argument that is NULL or invalid, and its value
   *     (these are the call's constants, never a sensitive value)
   */
  MechanismSpec spec() {
    double low = required("lo", lo);
    double high = required("hi", hi);
    double epsilon = required("eps", eps);
    Domain.Kind kind = Domain.Kind.parse(required("domain", domain));
    Checks.ordered("lo", low, "hi", high);
    Checks.epsilon("eps", epsilon);
    MechanismType type = MechanismType.parseOrAuto(required("mechanism", mechanism));
    boolean auto = type == null;
    MechanismSpec spec =
        MechanismSpec.builder()
            .type(auto ? MechanismType.autoPlaceholder(epsilon) : type)
            .domain(Domain.of(kind, low, high))
            .epsilon(epsilon)
            .objective(Objective.parse(required("objective", objective)))
            .build();
    // A call names no window size or question: auto plans for the aggregation at the
    // configuration's default window, the same for the perturbing and the aggregating call.
    return auto
        ? MechanismAdvisor.advise(
                spec, OptimizeFor.AGGREGATION, MechanismChoice.DEFAULT_RECORDS_PER_WINDOW)
            .spec()
        : spec;
  }

  /**
   * The value of a SQL argument that must be given.
   *
   * @throws IllegalArgumentException naming the argument when it is NULL
   */
  static <T> T required(String name, T value) {
    if (value == null) {
      throw new IllegalArgumentException(name + " must not be NULL");
    }
    return value;
  }

  private static boolean same(Double a, Double b) {
    return a == null
        ? b == null
        : b != null && Double.doubleToLongBits(a) == Double.doubleToLongBits(b);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SpecArguments a && a.matches(lo, hi, eps, domain, mechanism, objective);
  }

  @Override
  public int hashCode() {
    return Objects.hash(lo, hi, eps, domain, mechanism, objective);
  }

  @Override
  public String toString() {
    return "lo="
        + lo
        + ", hi="
        + hi
        + ", eps="
        + eps
        + ", domain="
        + domain
        + ", mechanism="
        + mechanism
        + ", objective="
        + objective;
  }
}
