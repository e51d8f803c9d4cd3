package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;

/**
 * Argument preconditions. Every message names the offending parameter and its value, so that a
 * configuration error can be traced to its source without a stack trace.
 */
@Internal
public final class Checks {
  private Checks() {}

  /** Requires a finite number (neither NaN nor infinite). */
  public static double finite(String name, double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException(name + " must be a finite number, got " + value);
    }
    return value;
  }

  /** Requires a finite number strictly greater than zero. */
  public static double positive(String name, double value) {
    finite(name, value);
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be > 0, got " + value);
    }
    return value;
  }

  /**
   * Requires an epsilon the mechanisms accept: finite, above 0 and at most {@link
   * OgpmShape#MAX_EPSILON} (above it e^eps overflows a double).
   */
  public static double epsilon(String name, double value) {
    positive(name, value);
    if (value > OgpmShape.MAX_EPSILON) {
      throw new IllegalArgumentException(
          name + " must be <= " + OgpmShape.MAX_EPSILON + ", got " + value);
    }
    return value;
  }

  /** Requires a finite lower bound strictly below a finite upper bound. */
  public static void ordered(String loName, double lo, String hiName, double hi) {
    finite(loName, lo);
    finite(hiName, hi);
    if (!(lo < hi)) {
      throw new IllegalArgumentException(
          loName
              + " must be < "
              + hiName
              + ", got "
              + loName
              + "="
              + lo
              + " and "
              + hiName
              + "="
              + hi);
    }
    if (!Double.isFinite(hi - lo)) {
      throw new IllegalArgumentException(
          hiName
              + " - "
              + loName
              + " overflows a double: "
              + loName
              + "="
              + lo
              + ", "
              + hiName
              + "="
              + hi);
    }
  }

  /** Requires {@code 0 <= u < 1}. */
  public static double unitInterval(String name, double u) {
    if (!(u >= 0 && u < 1)) {
      throw new IllegalArgumentException(name + " must be in [0, 1), got " + u);
    }
    return u;
  }

  /** Requires a non-null reference. */
  public static <T> T notNull(String name, T value) {
    if (value == null) {
      throw new IllegalArgumentException(name + " must not be null");
    }
    return value;
  }
}
