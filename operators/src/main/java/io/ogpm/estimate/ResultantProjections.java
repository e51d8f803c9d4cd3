package io.ogpm.estimate;

/**
 * Intervals for the direction and the length of the mean resultant vector m of a window's inputs,
 * each from its own one-dimensional test, given an estimate {@code v = (x, y)} whose error along any
 * fixed direction has standard deviation at most s and is normal (the normal regime of {@link
 * FieldEstimator}).
 *
 * <p>Why not the confidence disk's projections ({@link ResultantDisk}): a direction or a length is
 * one number, and the disk holds m (two numbers) at 95 %, so its projections cover each of them more
 * often than 95 % (97 to 99 % measured) and are wider than they need to be.
 *
 * <ul>
 *   <li><b>Direction.</b> A direction phi is kept when v's component across it is within {@code
 *       z_across s} of 0 (m has none: 4.5 %, two-sided) and its component along it is at least
 *       {@code -z_along s} (m's is its length, at least 0: 0.5 %, one-sided). The true direction is
 *       kept with probability at least 95 %. The interval is the shortest arc holding every kept
 *       direction. When the data cannot exclude m = 0 ({@code |v| <= sqrt(chi2_2(0.95)) s}, the
 *       disk's test of the origin, Anderson's theorem) it is the whole circle, as before: a window
 *       whose inputs have no direction gets the whole circle in at least 95 % of windows.
 *   <li><b>Length.</b> {@code |m| = <m, u> <= <v, u> + z s <= |v| + z s} along m's own direction u
 *       (2.5 %, one-sided, 1.96), and {@code |m| >= |v| - |v - m| >= |v| - sqrt(chi2_2(0.975)) s}
 *       (2.5 %, the disk's radius at that level: the lower end needs both components, since a short
 *       m gives a long v whichever way the error points).
 * </ul>
 *
 * <p>Every margin is also widened by {@code slack}, the caller's bound on the estimate's non-random
 * error (snapping, rounding).
 */
final class ResultantProjections {
  /** Two-sided 4.5 % normal quantile: the component across a kept direction. */
  static final double Z_ACROSS = 2.0046544617650968;
  /** One-sided 0.5 % normal quantile: the component along a kept direction. */
  static final double Z_ALONG = 2.5758293035489004;
  /** {@code sqrt(-2 ln 0.025)}: the disk's radius at 97.5 %, for the length's lower end. */
  static final double CHI975_2 = Math.sqrt(-2 * Math.log(0.025));

  private ResultantProjections() {}

  /**
   * The arc of kept directions as {@code {centre, half-width}} in radians, the half-width pi for
   * the whole circle.
   */
  static double[] direction(double x, double y, double s, double slack) {
    double r = Math.hypot(x, y);
    double psi = Math.atan2(y, x);
    if (r <= ResultantDisk.CHI95_2 * s + slack) {
      return new double[] {psi, Math.PI};
    }
    double across = Z_ACROSS * s + slack;
    double along = Z_ALONG * s + slack;
    // Kept: r |sin(phi - psi)| <= across, and r cos(phi - psi) >= -along. As r > across, the first
    // keeps psi +- beta and psi + pi +- beta; the second cuts psi + pi +- t0 out of the second arc.
    double beta = Math.asin(Math.min(1, across / r));
    if (r * r > across * across + along * along) {
      return new double[] {psi, beta};
    }
    double t0 = r > along ? Math.acos(along / r) : 0;
    // The shortest arc holding the kept set leaves out its largest gap: one of the two of pi - 2 beta
    // between the arcs, or the 2 t0 cut out of the second.
    if (Math.PI - 2 * beta >= 2 * t0) {
      return new double[] {psi + Math.PI / 2, Math.PI / 2 + beta};
    }
    return new double[] {psi, Math.PI - t0};
  }

  /** {@code {lower, upper}} for the length, within [0, 1]. */
  static double[] length(double x, double y, double s, double slack) {
    double r = Math.hypot(x, y);
    return new double[] {
      Math.min(1, Math.max(0, r - CHI975_2 * s - slack)), Math.min(1, r + Interval.Z95 * s + slack)};
  }
}
