package io.ogpm.mechanism;

import io.ogpm.annotation.PublicEvolving;
import java.util.Locale;

/**
 * The worst-case error an optimal mechanism minimises. {@link #L1} is the closed form of the paper
 * (Theorems 3 and 4, p = e^(eps/2)); {@link #L2} is the true square-error optimum, whose high
 * density solves a cubic (docs/mechanisms.md, "The square-error optimum"), not the paper's closed
 * form.
 */
@PublicEvolving
public enum Objective {
  L1(ErrorMetric.L1),
  L2(ErrorMetric.L2);

  private final ErrorMetric metric;

  Objective(ErrorMetric metric) {
    this.metric = metric;
  }

  /** The error metric this objective minimises in the worst case. */
  public ErrorMetric metric() {
    return metric;
  }

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code l1} or {@code l2}. */
  public static Objective parse(String id) {
    for (Objective o : values()) {
      if (o.id().equals(id)) {
        return o;
      }
    }
    throw new IllegalArgumentException("objective must be l1 or l2, got '" + id + "'");
  }
}
