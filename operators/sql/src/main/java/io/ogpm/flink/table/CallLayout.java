package io.ogpm.flink.table;

import io.ogpm.flink.LdpAggregation;

/**
 * Where a function's call holds the arguments that define its mechanism, and what an argument the
 * call leaves out (or the function fixes) is: {@code LDP_PERTURB(value, lo, hi, eps [, domain,
 * mechanism, objective])} has {@code lo} at 1 and its domain at 4, classical when the call has four
 * arguments. Immutable.
 */
final class CallLayout {
  /** Not in the call: the function fixes the argument, or the call may leave it out. */
  static final int ABSENT = -1;

  final String function;
  final int lo;
  final int hi;
  final int eps;
  final int domain;
  final int mechanism;
  final int objective;
  final int bins;

  /** {@code LDP_QUANTILE}'s {@code p}; ABSENT in the others. */
  final int probability;

  final String fixedDomain;
  final String fixedMechanism;

  /**
   * A polar call's {@code radius_max}, {@code angle_min} and {@code angle_max}; ABSENT in the
   * others.
   */
  final int radiusMax;

  final int angleMin;
  final int angleMax;

  private CallLayout(
      String function,
      int lo,
      int domain,
      int mechanism,
      int objective,
      int bins,
      String fixedDomain,
      String fixedMechanism) {
    this(function, lo, domain, mechanism, objective, bins, ABSENT, fixedDomain, fixedMechanism);
  }

  private CallLayout(
      String function,
      int lo,
      int domain,
      int mechanism,
      int objective,
      int bins,
      int probability,
      String fixedDomain,
      String fixedMechanism) {
    this.function = function;
    this.lo = lo;
    this.hi = lo + 1;
    this.eps = lo + 2;
    this.domain = domain;
    this.mechanism = mechanism;
    this.objective = objective;
    this.bins = bins;
    this.probability = probability;
    this.fixedDomain = fixedDomain;
    this.fixedMechanism = fixedMechanism;
    this.radiusMax = ABSENT;
    this.angleMin = ABSENT;
    this.angleMax = ABSENT;
  }

  /**
   * A polar call: {@code (radius, angle, radius_max, eps [, objective [, angle_min, angle_max]])},
   * the mechanisms ogpm on the classical radius and the circular angle.
   */
  private CallLayout(String function) {
    this.function = function;
    this.lo = ABSENT;
    this.hi = ABSENT;
    this.radiusMax = 2;
    this.eps = 3;
    this.objective = 4;
    this.angleMin = 5;
    this.angleMax = 6;
    this.domain = ABSENT;
    this.mechanism = ABSENT;
    this.bins = ABSENT;
    this.probability = ABSENT;
    this.fixedDomain = null;
    this.fixedMechanism = SpecArguments.DEFAULT_MECHANISM;
  }

  /** {@code LDP_PERTURB(value, lo, hi, eps [, domain [, mechanism [, objective]]])}. */
  static final CallLayout LDP_PERTURB =
      new CallLayout("LDP_PERTURB", 1, 4, 5, 6, ABSENT, null, null);

  /** {@code OGPM_PERTURB(value, lo, hi, eps [, domain])}: ogpm, objective l1. */
  static final CallLayout OGPM_PERTURB =
      new CallLayout(
          "OGPM_PERTURB", 1, 4, ABSENT, ABSENT, ABSENT, null, SpecArguments.DEFAULT_MECHANISM);

  /**
   * {@code LDP_PERTURB_KEYED(record_id, field, value, lo, hi, eps [, domain [, mechanism [,
   * objective]]])}.
   */
  static final CallLayout LDP_PERTURB_KEYED =
      new CallLayout("LDP_PERTURB_KEYED", 3, 6, 7, 8, ABSENT, null, null);

  /**
   * {@code LDP_HISTOGRAM(perturbed, lo, hi, eps [, domain [, mechanism [, bins [, objective]]]])}.
   */
  static final CallLayout LDP_HISTOGRAM =
      new CallLayout("LDP_HISTOGRAM", 1, 4, 5, 7, 6, null, null);

  /**
   * {@code LDP_QUANTILE(perturbed, p, lo, hi, eps [, domain [, mechanism [, bins [,
   * objective]]]])}: LDP_HISTOGRAM's arguments after {@code p}.
   */
  static final CallLayout LDP_QUANTILE =
      new CallLayout("LDP_QUANTILE", 2, 5, 6, 8, 7, 1, null, null);

  /** {@code LDP_MEAN(perturbed, lo, hi, eps [, mechanism [, objective]])}: classical. */
  static final CallLayout LDP_MEAN =
      new CallLayout("LDP_MEAN", 1, ABSENT, 4, 5, ABSENT, "classical", null);

  /** {@code LDP_CIRCULAR_MEAN(perturbed, lo, hi, eps [, mechanism [, objective]])}: circular. */
  static final CallLayout LDP_CIRCULAR_MEAN =
      new CallLayout("LDP_CIRCULAR_MEAN", 1, ABSENT, 4, 5, ABSENT, "circular", null);

  /**
   * {@code LDP_PERTURB_POLAR(radius, angle, radius_max, eps [, objective [, angle_min,
   * angle_max]])}.
   */
  static final CallLayout LDP_PERTURB_POLAR = new CallLayout("LDP_PERTURB_POLAR");

  /**
   * {@code LDP_POLAR_MEAN(radius, angle, radius_max, eps [, objective [, angle_min, angle_max]])}.
   */
  static final CallLayout LDP_POLAR_MEAN = new CallLayout("LDP_POLAR_MEAN");

  /** Whether the call is a polar one. */
  boolean polar() {
    return radiusMax != ABSENT;
  }

  /** Most histogram bins a call may ask for (as the DataStream aggregation). */
  static final int MAX_BINS = LdpAggregation.MAX_BINS;

  /** The domain of a call that does not give one. */
  String defaultDomain() {
    return fixedDomain != null ? fixedDomain : SpecArguments.DEFAULT_DOMAIN;
  }

  /** The mechanism of a call that does not give one. */
  String defaultMechanism() {
    return fixedMechanism != null ? fixedMechanism : SpecArguments.DEFAULT_MECHANISM;
  }

  /** Whether a call of {@code count} arguments holds the argument at {@code position}. */
  static boolean holds(int position, int count) {
    return position != ABSENT && position < count;
  }
}
