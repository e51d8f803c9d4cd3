package io.ogpm.estimate;

/**
 * The covariance of one output's unit vector {@code (cos y, sin y)} averaged over a window's
 * readings, estimated from the window's second trigonometric moment: what a rotation-invariant
 * mechanism's circular intervals are studentised by ({@link FieldEstimator}).
 *
 * <p>With noise moments {@code rho1 = E cos(noise)} and {@code rho2 = E cos(2 noise)} (symmetric
 * noise), a reading at angle t gives a unit vector whose covariance is {@code across I + (along -
 * across) u u^T}, u = (cos t, sin t), {@code along = (1 + rho2) / 2 - rho1^2} its variance along t
 * and {@code across = (1 - rho2) / 2} across it. Averaged over the window's readings: {@code across
 * I + (along - across) M}, {@code M = [[1 + C, S], [S, 1 - C]] / 2} with {@code (C, S)} the
 * readings' mean {@code (cos 2t, sin 2t)}. Since {@code E[e^{2iy}] = rho2 e^{2it}}, the window's
 * mean {@code (cos 2y, sin 2y)} over rho2 estimates {@code (C, S)} without bias; clamped to the
 * unit disk, where the readings' moment lies. Unlike the outputs' sample covariance, this leaves
 * out the spread of the readings' directions, which is not noise.
 *
 * <p>The largest eigenvalue is at most {@code max(along, across)}, the worst case over readings,
 * and a point mass attains it along its own direction; across its direction the variance is {@code
 * across}, smaller at high epsilon, which is what a direction interval needs.
 */
final class ResultantCovariance {
  private final double along;
  private final double across;
  private final double c;
  private final double s;

  private ResultantCovariance(double along, double across, double c, double s) {
    this.along = along;
    this.across = across;
    this.c = c;
    this.s = s;
  }

  /**
   * The estimate for a window whose outputs' mean {@code (cos 2y, sin 2y)} is {@code (meanCos2,
   * meanSin2)}, for noise moments rho1 and rho2 ({@code rho2 > 0}).
   */
  static ResultantCovariance of(double rho1, double rho2, double meanCos2, double meanSin2) {
    double c = meanCos2 / rho2;
    double s = meanSin2 / rho2;
    double length = Math.hypot(c, s);
    if (length > 1) {
      c /= length;
      s /= length;
    }
    return new ResultantCovariance((1 + rho2) / 2 - rho1 * rho1, (1 - rho2) / 2, c, s);
  }

  /** The variance of the component along the direction phi (radians). */
  double along(double phi) {
    double u = Math.cos(phi);
    double v = Math.sin(phi);
    // u^T M u with M = [[1 + c, s], [s, 1 - c]] / 2.
    double m = 0.5 * (1 + c * (u * u - v * v) + 2 * s * u * v);
    return Math.max(0, across + (along - across) * m);
  }

  /** The variance of the component across the direction phi. */
  double across(double phi) {
    return along(phi + Math.PI / 2);
  }

  /** The largest variance over directions. */
  double largest() {
    double m = 0.5 * (1 + Math.hypot(c, s));
    return Math.max(across, across + (along - across) * m);
  }
}
