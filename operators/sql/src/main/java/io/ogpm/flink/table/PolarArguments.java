package io.ogpm.flink.table;

import static io.ogpm.flink.table.SpecArguments.required;

import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.polar.PolarShares;
import io.ogpm.mechanism.polar.PolarSplit;
import java.util.Objects;

/**
 * The arguments of a polar SQL call that define its two mechanisms: {@code radius_max}, {@code
 * eps}, {@code objective}, {@code angle_min} and {@code angle_max}, as the call passed them (any
 * may be NULL or invalid). {@link #split()} turns them into the radius's and the angle's {@link
 * SpecArguments} exactly as the configuration's polar item with {@code radius: {max: radius_max}},
 * {@code angle: {min: angle_min, max: angle_max}}, {@code epsilon: eps} and {@code objective} does
 * (the same {@link PolarShares}), or says which argument is bad. A record: equal when every
 * argument is (doubles by their bits, as {@link Double#equals}).
 *
 * @param radiusMax the radius's domain is [0, radius_max)
 * @param angleMin the angle's circle is [angle_min, angle_max)
 */
record PolarArguments(
    Double radiusMax, Double eps, String objective, Double angleMin, Double angleMax) {
  /** The circle of a call that does not give one: radians, as the paper's [0, 2 pi). */
  static final double DEFAULT_ANGLE_MIN = 0;

  /** The circle of a call that does not give one: radians, as the paper's [0, 2 pi). */
  static final double DEFAULT_ANGLE_MAX = 2 * Math.PI;

  /** The two mechanisms' arguments. */
  record Split(SpecArguments radius, SpecArguments angle) {}

  /**
   * Whether a call with these arguments has the same arguments as this one (doubles by their bits).
   */
  boolean matches(
      Double radiusMax, Double eps, String objective, Double angleMin, Double angleMax) {
    return Objects.equals(this.radiusMax, radiusMax)
        && Objects.equals(this.eps, eps)
        && Objects.equals(this.objective, objective)
        && Objects.equals(this.angleMin, angleMin)
        && Objects.equals(this.angleMax, angleMax);
  }

  /**
   * The radius's and the angle's arguments, with eps split as the configuration splits it.
   *
   * @throws IllegalArgumentException naming the SQL argument that is NULL or invalid and its value,
   *     or saying that the best split gives one coordinate nothing
   */
  Split split() {
    double max = required("radius_max", radiusMax);
    double epsilon = required("eps", eps);
    Objective o = Objective.parse(required("objective", objective));
    double aMin = required("angle_min", angleMin);
    double aMax = required("angle_max", angleMax);
    check(max, epsilon, aMin, aMax);
    PolarShares shares = PolarShares.of(PolarSplit.of(epsilon, max, o.metric(), o));
    return new Split(
        new SpecArguments(
            0.0,
            max,
            shares.epsRadius(),
            Domain.Kind.CLASSICAL.id(),
            SpecArguments.DEFAULT_MECHANISM,
            objective),
        new SpecArguments(
            aMin,
            aMax,
            shares.epsAngle(),
            Domain.Kind.CIRCULAR.id(),
            SpecArguments.DEFAULT_MECHANISM,
            objective));
  }

  /**
   * Checks the numbers on their own as far as they are known (null: not known).
   *
   * @throws IllegalArgumentException naming the argument and its value
   */
  static void check(Double radiusMax, Double eps, Double angleMin, Double angleMax) {
    if (radiusMax != null) {
      Checks.positive("radius_max", radiusMax);
    }
    if (eps != null) {
      Checks.epsilon("eps", eps);
    }
    if (angleMin != null) {
      Checks.finite("angle_min", angleMin);
    }
    if (angleMax != null) {
      Checks.finite("angle_max", angleMax);
    }
    if (angleMin != null && angleMax != null) {
      Checks.ordered("angle_min", angleMin, "angle_max", angleMax);
    }
  }
}
