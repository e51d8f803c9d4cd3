package io.ogpm.estimate;

import java.util.function.DoubleUnaryOperator;

/**
 * The interval for the direction of the mean resultant vector m of a window's inputs, from a test
 * of each direction rather than from the confidence disk's projection, given an estimate {@code v =
 * (x, y)} whose error is normal with covariance at most {@code s^2 I} (the normal regime of {@link
 * FieldEstimator}).
 *
 * <p>Why: a direction is one number, and the disk ({@link ResultantDisk}) holds m, two numbers, at
 * 95 %; its projection onto the directions covers the direction more often than 95 % and is wider
 * than it needs to be (docs/interval-coverage.md gives both coverages).
 *
 * <p>How: a direction phi is kept when v lies in {@code A_phi}, the disk of radius {@code
 * sqrt(chi2_2(0.95)) s} about 0 joined with the half-strip of points whose component along phi is
 * at least 0 and whose component across it is within {@code 1.96 s}. For m on the ray of phi at
 * distance r, v lies in {@code A_phi} with probability at least 95 % for every r: at r = 0 the disk
 * alone holds 95 % (Anderson's theorem for a covariance below {@code s^2 I}); as r grows the
 * half-strip alone tends to 95 %, since the component across phi is m's own error across it; in
 * between, the union holds more ({@code ResultantProjectionsTest} checks it by simulation, for r
 * from 0 to 6 s and covariances of aspect 1 to 10 at several angles). So the kept directions hold
 * m's direction in at least 95 % of windows, and a window whose inputs have no direction (m = 0)
 * gets the whole circle in at least 95 %.
 *
 * <p>What it gives: the whole circle when {@code |v| <= sqrt(chi2_2(0.95)) s} (as the disk's
 * projection does), else {@code arg v +- asin(1.96 s / |v|)}, where the disk's projection gives
 * {@code asin(2.45 s / |v|)}: 20 % narrower for a clear direction. Every margin is also widened by
 * {@code slack}, the caller's bound on the estimate's non-random error (snapping, rounding).
 */
final class ResultantProjections {
  private ResultantProjections() {}

  /**
   * The arc of kept directions as {@code {centre, half-width}} in radians, the half-width pi for
   * the whole circle.
   */
  static double[] direction(double x, double y, double s, double slack) {
    return direction(x, y, s, phi -> s, slack);
  }

  /**
   * The arc when the covariance is not round: the disk at {@code sDisk} (its largest standard
   * deviation, so the disk still holds 95 % at m = 0), the half-strip of direction phi at {@code
   * sAcross(phi)} (the standard deviation across phi, which decides the strip's 95 % far out). The
   * arc's half-width takes the largest {@code sAcross} over twice the arc it would have at phi =
   * arg v, so that the directions it keeps are every one whose strip holds v.
   */
  static double[] direction(
      double x, double y, double sDisk, DoubleUnaryOperator sAcross, double slack) {
    double r = Math.hypot(x, y);
    double psi = Math.atan2(y, x);
    if (r <= ResultantDisk.CHI95_2 * sDisk + slack) {
      return new double[] {psi, Math.PI};
    }
    double half = Math.asin(Math.min(1, (Interval.Z95 * sAcross.applyAsDouble(psi) + slack) / r));
    double widest = 0;
    for (int k = -8; k <= 8; k++) {
      widest = Math.max(widest, sAcross.applyAsDouble(psi + 2 * half * k / 8));
    }
    return new double[] {psi, Math.asin(Math.min(1, (Interval.Z95 * widest + slack) / r))};
  }
}
