package io.ogpm.mechanism;

import io.ogpm.annotation.PublicEvolving;
import java.util.Locale;

/** The loss {@code dist(y, x)^k}: absolute error (k = 1) or square error (k = 2). */
@PublicEvolving
public enum ErrorMetric {
  L1(1),
  L2(2);

  private final int exponent;

  ErrorMetric(int exponent) {
    this.exponent = exponent;
  }

  /** The power k applied to the distance. */
  public int exponent() {
    return exponent;
  }

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code l1} or {@code l2}. */
  public static ErrorMetric parse(String id) {
    for (ErrorMetric m : values()) {
      if (m.id().equals(id)) {
        return m;
      }
    }
    throw new IllegalArgumentException("metric must be l1 or l2, got '" + id + "'");
  }
}
