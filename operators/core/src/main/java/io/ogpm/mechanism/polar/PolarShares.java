package io.ogpm.mechanism.polar;

import io.ogpm.annotation.Internal;

/**
 * The shares of a polar pair's eps that are spent: the radius's eps1 at {@link
 * PolarSplit#optimum()} and the angle's the rest of eps, rounded down where {@code eps1 + eps2}
 * would exceed eps in double arithmetic, so a record's cost, the sum of its two epsilons, is at
 * most the pair's eps (sequential composition). The configuration's polar item and the SQL
 * functions both spend these shares, so a pair gets the same two mechanisms, to the bit, in either.
 * Immutable.
 */
@Internal
public record PolarShares(double epsRadius, double epsAngle) {

  /**
   * The shares of a split problem's optimum.
   *
   * @throws IllegalArgumentException when the optimum gives the radius or the angle nothing (a
   *     coordinate with eps 0 would be released as uniform noise: configure it on its own instead)
   */
  public static PolarShares of(PolarSplit problem) {
    double epsRadius = problem.optimum().epsRadius();
    double epsAngle = remainder(problem.epsilon(), epsRadius);
    if (!(epsRadius > 0 && epsAngle > 0)) {
      throw new IllegalArgumentException(
          "the least total error at epsilon "
              + problem.epsilon()
              + " gives the "
              + (epsRadius > 0 ? "angle" : "radius")
              + " no share of it (see ogpm polar-split)");
    }
    return new PolarShares(epsRadius, epsAngle);
  }

  /**
   * The largest double r with {@code used + r <= total} in double arithmetic: {@code total - used},
   * rounded down where the sum would round up (2.057 + (7.874 - 2.057) is 7.8740000000000006).
   */
  public static double remainder(double total, double used) {
    double r = total - used;
    while (used + r > total) {
      r = Math.nextDown(r);
    }
    return r;
  }
}
