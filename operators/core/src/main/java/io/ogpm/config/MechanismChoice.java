package io.ogpm.config;

import io.ogpm.annotation.PublicEvolving;
import io.ogpm.estimate.OptimizeFor;
import io.ogpm.mechanism.Checks;
import java.io.Serializable;
import java.util.Objects;

/**
 * How a field configured with {@code mechanism: auto} got its mechanism: the question it was chosen
 * for, the window size it was planned at (the field's own reports per window, after field
 * sampling), and the one-line reason. Immutable and serializable.
 */
@PublicEvolving
public final class MechanismChoice implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The records per window {@code auto} plans for when the configuration does not say. */
  public static final long DEFAULT_RECORDS_PER_WINDOW = 1_000;

  private final OptimizeFor optimizeFor;
  private final long recordsPerWindow;
  private final String reason;

  private MechanismChoice(OptimizeFor optimizeFor, long recordsPerWindow, String reason) {
    this.optimizeFor = optimizeFor;
    this.recordsPerWindow = recordsPerWindow;
    this.reason = reason;
  }

  /**
   * A request not yet resolved (no reason), or a resolved choice.
   *
   * @throws IllegalArgumentException if the question is null or the records are below 1
   */
  public static MechanismChoice of(OptimizeFor optimizeFor, long recordsPerWindow, String reason) {
    Checks.notNull("optimize-for", optimizeFor);
    if (recordsPerWindow < 1) {
      throw new IllegalArgumentException(
          "records-per-window must be a whole number of at least 1, got " + recordsPerWindow);
    }
    return new MechanismChoice(optimizeFor, recordsPerWindow, reason);
  }

  public OptimizeFor optimizeFor() {
    return optimizeFor;
  }

  /** The field's reports per window the choice planned for. */
  public long recordsPerWindow() {
    return recordsPerWindow;
  }

  /** Why this mechanism, in one line; null before the choice is made. */
  public String reason() {
    return reason;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MechanismChoice c
        && c.optimizeFor == optimizeFor
        && c.recordsPerWindow == recordsPerWindow
        && Objects.equals(c.reason, reason);
  }

  @Override
  public int hashCode() {
    return Objects.hash(optimizeFor, recordsPerWindow, reason);
  }

  @Override
  public String toString() {
    return "auto for "
        + optimizeFor.id()
        + " at "
        + recordsPerWindow
        + " records per window"
        + (reason == null ? "" : ": " + reason);
  }
}
