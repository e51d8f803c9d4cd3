package io.ogpm.mechanism;

import io.ogpm.annotation.PublicEvolving;

/**
 * The mechanisms this library offers, by the names used on the command line and in configuration.
 */
@PublicEvolving
public enum MechanismType {
  /** Optimal GPM (Theorem 3 classical, Theorem 4 circular), per objective. */
  OGPM("ogpm", true, true),
  /** Optimal unbiased GPM (Theorem 5), enlarged output domain, classical only. */
  OGPM_U("ogpm-u", true, false),
  /** Piecewise Mechanism (Wang et al.), enlarged output domain. */
  PM("pm", true, true),
  /** Square Wave (Li et al.), enlarged output domain. */
  SW("sw", true, true),
  /** PM with its output compressed linearly into the domain. */
  PM_C("pm-c", true, true),
  /** SW with its output compressed linearly into the domain. */
  SW_C("sw-c", true, true),
  /** PM with its output truncated into the domain (atoms at the ends). */
  T_PM("t-pm", true, true),
  /** SW with its output truncated into the domain (atoms at the ends). */
  T_SW("t-sw", true, true),
  /**
   * Wang et al.'s Hybrid Mechanism: PM or Duchi et al.'s two-output mechanism, mixed for the
   * smallest worst-case variance of one value (unbiased, enlarged output domain), classical only.
   */
  HM("hm", true, false),
  /** Geng and Viswanath's staircase noise (unbounded output), gamma optimal per objective. */
  STAIRCASE("staircase", true, true),
  /** Laplace noise of scale width / eps, output truncated into the domain. */
  T_LAPLACE("t-laplace", true, true),
  /** Bounded Laplace (Holohan et al.) with the input-dependent normaliser. */
  B_LAPLACE("b-laplace", true, true),
  /** Purkayastha (Weggenmann and Kerschbaum): Laplace along the circle. */
  PURKAYASTHA("purkayastha", false, true);

  private final String id;
  private final boolean classical;
  private final boolean circular;

  MechanismType(String id, boolean classical, boolean circular) {
    this.id = id;
    this.classical = classical;
    this.circular = circular;
  }

  /** The name on the command line and in configuration files. */
  public String id() {
    return id;
  }

  /** Whether the objective option chooses between variants of this mechanism. */
  public boolean hasObjective() {
    return this == OGPM || this == STAIRCASE;
  }

  /**
   * The largest epsilon this mechanism is offered at: where every quantity the library computes
   * from it (its moments, the estimates' mean function, intervals and cumulative band) stays exact
   * to the tolerance the estimates assume ({@code 1e-12} of the domain). Above it a piecewise
   * mechanism's central piece or bump, about {@code e^-eps} of the domain wide for OGPM, PM and HM
   * and {@code e^-eps / eps} for SW, holds densities whose moments cancel in doubles, and outputs
   * snapped to the grid move by more than the band can spare. The Laplace mechanisms have no such
   * piece: the overflow of {@code e^eps} is their limit.
   */
  public double maxEpsilon() {
    return switch (this) {
      case SW, SW_C, T_SW -> 12;
      case T_LAPLACE, B_LAPLACE, PURKAYASTHA -> OgpmShape.MAX_EPSILON;
      default -> 20;
    };
  }

  /**
   * The type a {@value #AUTO} spec carries until it is resolved at its epsilon per report: OGPM,
   * whose options (objective, optimize-at) auto weighs, up to its {@link #maxEpsilon}; above it
   * truncated Laplace, offered at every epsilon, so that a spec builds wherever some mechanism is
   * offered.
   */
  public static MechanismType autoPlaceholder(double epsilon) {
    return epsilon > OGPM.maxEpsilon() ? T_LAPLACE : OGPM;
  }

  /** Whether the mechanism is defined on the circle itself (not on the flattened range). */
  public boolean isNativelyCircular() {
    return this == OGPM || this == PURKAYASTHA;
  }

  /** Whether the mechanism can be used on a classical domain. */
  public boolean supportsClassical() {
    return classical;
  }

  /** Whether the mechanism can be used on a circular domain. */
  public boolean supportsCircular() {
    return circular;
  }

  /** Parses a mechanism name. */
  public static MechanismType parse(String id) {
    for (MechanismType t : values()) {
      if (t.id.equals(id)) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "mechanism must be one of " + known() + ", got '" + id + "'");
  }

  /**
   * The name that lets the configuration, the command line or SQL choose the mechanism ({@code
   * io.ogpm.estimate.MechanismAdvisor}).
   */
  public static final String AUTO = "auto";

  /**
   * Parses a mechanism name where {@value #AUTO} is allowed.
   *
   * @return the type, or null for {@value #AUTO}
   * @throws IllegalArgumentException naming the value when it is neither
   */
  public static MechanismType parseOrAuto(String id) {
    if (AUTO.equals(id)) {
      return null;
    }
    for (MechanismType t : values()) {
      if (t.id.equals(id)) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "mechanism must be auto or one of " + known() + ", got '" + id + "'");
  }

  private static String known() {
    StringBuilder known = new StringBuilder();
    for (MechanismType t : values()) {
      known.append(known.length() == 0 ? "" : ", ").append(t.id);
    }
    return known.toString();
  }
}
