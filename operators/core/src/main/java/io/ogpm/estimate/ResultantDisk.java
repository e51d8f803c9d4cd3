package io.ogpm.estimate;

/**
 * A confidence disk for the mean resultant vector {@code m = (1/n) sum e^{i x_j}} of a window's
 * inputs (angles in radians), and the directions and lengths it allows: centre {@code (x, y)},
 * radius {@code radius}. Every vector in the disk is possible, so the direction interval is the set
 * of directions of its points and the length interval the range of their lengths, both clipped to
 * the unit disk (no mean resultant is longer than 1). Both hold whenever the disk holds m: they are
 * simultaneous.
 */
record ResultantDisk(double x, double y, double radius) {
  /**
   * {@code sqrt} of the 95 % quantile of chi-square with 2 degrees of freedom: {@code sqrt(-2 ln
   * 0.05)}.
   */
  static final double CHI95_2 = Math.sqrt(-2 * Math.log(0.05));

  /** The length of the centre. */
  double length() {
    return Math.hypot(x, y);
  }

  /** The direction of the centre, in radians (-pi, pi]. */
  double direction() {
    return Math.atan2(y, x);
  }

  /**
   * Half the angle of the directions of the disk's points within the unit disk, in radians: pi (the
   * whole circle) when the disk holds the origin, and 0 when it touches or misses the unit disk
   * from outside ({@code l - radius >= 1}: then {@code (1 + l^2 - radius^2) / (2 l) >= 1}).
   */
  double directionHalfWidth() {
    double l = length();
    if (l <= radius) {
      return Math.PI;
    }
    if (l * l - radius * radius <= 1) {
      // The tangents from the origin touch the disk inside the unit disk.
      return Math.asin(radius / l);
    }
    // The extreme directions are where the disk's edge meets the unit circle.
    return Math.acos(Math.min(1, (1 + l * l - radius * radius) / (2 * l)));
  }

  /** The shortest length of a point of the disk within the unit disk. */
  double minLength() {
    return Math.min(1, Math.max(0, length() - radius));
  }

  /** The longest length of a point of the disk within the unit disk. */
  double maxLength() {
    return Math.min(1, length() + radius);
  }
}
