package io.ogpm.estimate;

import io.ogpm.annotation.PublicEvolving;
import io.ogpm.mechanism.Domain;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a field's outputs are used for, which {@code mechanism: auto} chooses the mechanism for
 * ({@link MechanismAdvisor}).
 */
@PublicEvolving
public enum OptimizeFor {
  /** Single released values: the worst-case error of one output (the paper's objective). */
  VALUES,
  /** Window means: the width of the 95 % interval at the planned window size. */
  MEANS,
  /** Window distributions: the reconstruction's expected error. */
  DISTRIBUTIONS,
  /** What the aggregation reports: window means and distributions, the worse of the two regrets. */
  AGGREGATION;

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Refuses a question asked of a field on a domain where {@code auto} cannot weigh it: on a circle
   * the advisor weighs single values only (it has no planned widths for circular means nor errors
   * for circular distributions), so asking for anything else there would be silently ignored.
   *
   * @throws IllegalArgumentException naming the question if it is not {@link #VALUES} on a circle
   */
  public OptimizeFor requireWeighableOn(Domain domain) {
    if (domain.isCircular() && this != VALUES) {
      throw new IllegalArgumentException(
          "optimize-for "
              + id()
              + " is not weighed on a circular domain: auto chooses by single values there"
              + " (optimize-for values)");
    }
    return this;
  }

  /** Parses an {@link #id()}. */
  public static OptimizeFor parse(String id) {
    for (OptimizeFor o : values()) {
      if (o.id().equals(id)) {
        return o;
      }
    }
    throw new IllegalArgumentException(
        "optimize-for must be one of "
            + Arrays.stream(values()).map(OptimizeFor::id).collect(Collectors.joining(", "))
            + ", got '"
            + id
            + "'");
  }
}
