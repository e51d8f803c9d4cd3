package io.ogpm.mechanism;

import io.ogpm.annotation.PublicEvolving;

/**
 * A bounded input domain {@code [lo, hi)}: classical (an interval with two ends) or circular (a
 * circle of period {@code hi - lo}, where {@code lo} and {@code hi} are the same point).
 *
 * <p>Inputs are accepted on the closed interval {@code [lo, hi]}: a sensor that reports exactly its
 * configured maximum is valid. On a circle, {@code hi} is the same point as {@code lo}.
 */
@PublicEvolving
public final class Domain implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /** Whether the domain has ends or wraps around. */
  public enum Kind {
    CLASSICAL,
    CIRCULAR;

    /** The lower-case name used on the command line and in configuration files. */
    public String id() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Parses {@code classical} or {@code circular}. */
    public static Kind parse(String id) {
      for (Kind k : values()) {
        if (k.id().equals(id)) {
          return k;
        }
      }
      throw new IllegalArgumentException("domain must be classical or circular, got '" + id + "'");
    }
  }

  private final Kind kind;
  private final double lo;
  private final double hi;

  private Domain(Kind kind, double lo, double hi) {
    this.kind = kind;
    this.lo = lo;
    this.hi = hi;
  }

  /** The interval {@code [lo, hi)}. */
  public static Domain classical(double lo, double hi) {
    return of(Kind.CLASSICAL, lo, hi);
  }

  /** The circle of period {@code hi - lo}, parametrised by {@code [lo, hi)}. */
  public static Domain circular(double lo, double hi) {
    return of(Kind.CIRCULAR, lo, hi);
  }

  /** A domain of the given kind; validates {@code lo < hi}, both finite. */
  public static Domain of(Kind kind, double lo, double hi) {
    Checks.notNull("kind", kind);
    Checks.ordered("lo", lo, "hi", hi);
    return new Domain(kind, lo, hi);
  }

  public Kind kind() {
    return kind;
  }

  public boolean isCircular() {
    return kind == Kind.CIRCULAR;
  }

  public double lo() {
    return lo;
  }

  public double hi() {
    return hi;
  }

  /** {@code hi - lo}: the length of the interval, or the period of the circle. */
  public double width() {
    return hi - lo;
  }

  /** Whether {@code x} is an acceptable input: {@code lo <= x <= hi}. NaN is not. */
  public boolean contains(double x) {
    return x >= lo && x <= hi;
  }

  /**
   * Validates an input and returns it; a circular input equal to {@code hi} is returned as {@code
   * lo}, the same point.
   */
  public double requireInput(String name, double x) {
    if (!contains(x)) {
      throw new IllegalArgumentException(name + " must be in [" + lo + ", " + hi + "], got " + x);
    }
    return isCircular() && x == hi ? lo : x;
  }

  /**
   * The input nearest to x: on an interval, x clamped into [lo, hi]; on a circle, the same angle, x
   * modulo the period, in [lo, hi). For {@code out-of-range: clamp}.
   */
  public double nearestInput(double x) {
    if (isCircular()) {
      double w = width();
      double r = lo + (((x - lo) % w) + w) % w;
      return r >= hi ? lo : r;
    }
    return Math.min(Math.max(x, lo), hi);
  }

  /** The natural distance on this domain: circular on a circle, linear otherwise. */
  public Distance naturalDistance() {
    return isCircular() ? Distance.CIRCULAR : Distance.LINEAR;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Domain d
        && d.kind == kind
        && Double.compare(d.lo, lo) == 0
        && Double.compare(d.hi, hi) == 0;
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(kind, lo, hi);
  }

  @Override
  public String toString() {
    return kind.id() + "[" + lo + ", " + hi + ")";
  }
}
