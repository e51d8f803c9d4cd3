package io.ogpm.record;

import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;

/**
 * A double's text exactly as {@link Double#toString} writes it, without its cost where that cost
 * is high. On Java 17, {@code Double.toString} runs the FloatingDecimal algorithm, which for the
 * 16-17 significant digits of a perturbed value falls back to big-integer arithmetic (about 1 us
 * per value, a third of the record path). Raffaello Giulietti's Schubfach algorithm (as shipped in
 * jackson-core) writes the shortest decimal that reads back as the same double, and of those the
 * closest, in the same format, in a few tens of nanoseconds.
 *
 * <p>The two agree in the plain-notation range 1e-3 <= |x| < 1e7, where Java 17's algorithm does
 * produce the shortest and closest digits: no decimal of 17 digits or fewer lies on the boundary
 * of a double's rounding interval there (that boundary is a dyadic fraction of at least 30
 * significant decimal digits), so inclusive or exclusive boundaries never make them choose
 * differently. Outside that range (the
 * computerised notation) Java 17 is known to write too many digits for some values (for example
 * 2.0061014710099768E16, where 2.006101471009977E16 suffices), so those values keep
 * {@code Double.toString}. {@code DoubleTextTest} compares both on millions of values.
 */
final class DoubleText {
  private DoubleText() {}

  static final double PLAIN_MIN = 1e-3;
  static final double PLAIN_MAX = 1e7;

  /** {@code Double.toString(x)}. */
  static String of(double x) {
    double a = Math.abs(x);
    return a >= PLAIN_MIN && a < PLAIN_MAX ? DoubleToDecimal.toString(x) : Double.toString(x);
  }
}
