package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;

/**
 * Closed-form integrals of the loss {@code dist(y, x)^k} over an interval of outputs, for k = 1, 2
 * and linear or circular distance. These are the building blocks of every exact expected error.
 */
@Internal
public final class LossIntegrals {
  private LossIntegrals() {}

  /** {@code integral over y in [a, b] of |y - c|^k dy}, exactly, for k = 1 or 2. */
  public static double linear(double a, double b, double c, int k) {
    if (b <= a) {
      return 0;
    }
    if (c <= a) {
      return power(b - c, k + 1) / (k + 1) - power(a - c, k + 1) / (k + 1);
    }
    if (c >= b) {
      return power(c - a, k + 1) / (k + 1) - power(c - b, k + 1) / (k + 1);
    }
    return (power(c - a, k + 1) + power(b - c, k + 1)) / (k + 1);
  }

  /**
   * {@code integral over y in [a, b] of d(y, x)^k dy} where d is the circular distance of the given
   * period. The interval is split at the points {@code x + j * period / 2}, where the nearest image
   * {@code x + m * period} of x changes; on each part the loss is {@code |y - c|^k} for a fixed
   * image c.
   */
  public static double circular(double a, double b, double x, int k, double period) {
    if (b <= a) {
      return 0;
    }
    double half = period / 2;
    // First split point strictly above a.
    double j = Math.floor((a - x) / half) + 1;
    double total = 0;
    double left = a;
    while (left < b) {
      double split = x + j * half;
      double right = Math.min(b, split);
      if (right > left) {
        double mid = 0.5 * (left + right);
        double image = x + period * Math.rint((mid - x) / period);
        total += linear(left, right, image, k);
      }
      left = right;
      j++;
    }
    return total;
  }

  /** The circular distance between y and x for the given period: a value in [0, period / 2]. */
  public static double circularDistance(double y, double x, double period) {
    double d = Math.abs(y - x) % period;
    return Math.min(d, period - d);
  }

  private static double power(double v, int n) {
    return switch (n) {
      case 2 -> v * v;
      case 3 -> v * v * v;
      default -> Math.pow(v, n);
    };
  }
}
