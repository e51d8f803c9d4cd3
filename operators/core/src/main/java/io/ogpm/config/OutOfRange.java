package io.ogpm.config;

import io.ogpm.annotation.PublicEvolving;
import java.util.Locale;

/**
 * What to do with an input outside its field's configured {@code [min, max]}: a mechanism is only
 * private for inputs in its domain, so the value must either be dropped or moved into the domain.
 */
@PublicEvolving
public enum OutOfRange {
  /** Send the record to the dead letter output ({@code out-of-range}). The default. */
  REJECT,
  /** Replace the value by the nearest end of the domain, then perturb it. */
  CLAMP;

  /** The lower-case name used in configuration files. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code reject} or {@code clamp}. */
  public static OutOfRange parse(String id) {
    for (OutOfRange o : values()) {
      if (o.id().equals(id)) {
        return o;
      }
    }
    throw new IllegalArgumentException("out-of-range must be reject or clamp, got '" + id + "'");
  }
}
