package io.ogpm.mechanism;

import io.ogpm.annotation.PublicEvolving;
import java.util.Locale;

/** How the distance between an output {@code y} and the input {@code x} is measured. */
@PublicEvolving
public enum Distance {
  /** {@code |y - x|}. */
  LINEAR,
  /** The shorter arc on a circle of period T: {@code min(|y - x| mod T, T - |y - x| mod T)}. */
  CIRCULAR;

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code linear} or {@code circular}. */
  public static Distance parse(String id) {
    for (Distance d : values()) {
      if (d.id().equals(id)) {
        return d;
      }
    }
    throw new IllegalArgumentException("distance must be linear or circular, got '" + id + "'");
  }
}
