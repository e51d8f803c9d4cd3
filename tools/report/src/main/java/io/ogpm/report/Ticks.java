package io.ogpm.report;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Axis ticks at round values with few digits: multiples of 1, 2 or 5 times a power of ten, labelled
 * with just the decimals the step needs ("0.08", not ".08" or "0.08000000000000002"); on angles,
 * multiples of pi/2 (pi/4 on a range narrower than pi) labelled "-π", "-π/2", "0", "π/2", "π".
 */
public record Ticks(List<Double> values, List<String> labels) {
  private static final double EPS = 1e-9;

  /** About {@code target} round ticks within [min, max]. */
  public static Ticks round(double min, double max, int target) {
    if (!(max > min)) {
      throw new IllegalArgumentException("ticks need min < max, got [" + min + ", " + max + "]");
    }
    double raw = (max - min) / Math.max(1, target);
    double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    double step = 10 * magnitude;
    for (double m : new double[] {1, 2, 5}) {
      if (m * magnitude >= raw * (1 - EPS)) {
        step = m * magnitude;
        break;
      }
    }
    BigDecimal exact = BigDecimal.valueOf(step).stripTrailingZeros();
    int decimals = Math.max(0, exact.scale());
    List<Double> values = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (long k = (long) Math.ceil(min / step - EPS); k * step <= max + step * EPS; k++) {
      BigDecimal v = exact.multiply(BigDecimal.valueOf(k)).setScale(decimals);
      values.add(v.doubleValue());
      labels.add(v.signum() == 0 ? "0" : v.toPlainString());
    }
    return new Ticks(List.copyOf(values), List.copyOf(labels));
  }

  /** Multiples of pi/2 (pi/4 if the range is narrower than pi) within [min, max]. */
  public static Ticks angles(double min, double max) {
    int quarters = max - min < Math.PI - EPS ? 1 : 2; // the step in quarters of pi
    List<Double> values = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (long k = (long) Math.ceil(min / (Math.PI / 4) / quarters - EPS) * quarters;
        k * Math.PI / 4 <= max + EPS;
        k += quarters) {
      values.add(k * Math.PI / 4);
      labels.add(piLabel(k));
    }
    return new Ticks(List.copyOf(values), List.copyOf(labels));
  }

  /** {@code quarters} x pi/4 as a reduced fraction of pi. */
  public static String piLabel(long quarters) {
    if (quarters == 0) {
      return "0";
    }
    long num = quarters;
    long den = 4;
    long g = gcd(Math.abs(num), den);
    num /= g;
    den /= g;
    String sign = num < 0 ? "-" : "";
    long a = Math.abs(num);
    String n = a == 1 ? "π" : a + "π";
    return sign + n + (den == 1 ? "" : "/" + den);
  }

  private static long gcd(long a, long b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  /** Whether [lo, hi] looks like an angle in radians: both ends multiples of pi/2, not both 0. */
  public static boolean isAngleRange(double lo, double hi) {
    return multipleOfHalfPi(lo) && multipleOfHalfPi(hi) && (lo != 0 || hi != 0);
  }

  private static boolean multipleOfHalfPi(double v) {
    double k = v / (Math.PI / 2);
    return Math.abs(k - Math.rint(k)) < 1e-9;
  }
}
