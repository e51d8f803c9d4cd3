package io.ogpm.mechanism;

import io.ogpm.annotation.PublicEvolving;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * Everything that defines a field's mechanism: its type, domain, epsilon, objective and output
 * grid. Immutable; built with {@link #builder()} and validated by {@link Builder#build()}.
 */
@PublicEvolving
public final class MechanismSpec implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private final MechanismType type;
  private final Domain domain;
  private final double epsilon;
  private final Objective objective;
  private final int gridBits;
  // A flag and a value rather than NaN: a serialised spec without these fields reads as not
  // optimised (Java serialisation's defaults, false and 0), not as optimised at 0.
  private final boolean optimized;
  private final double optimizeAt;

  private MechanismSpec(Builder b) {
    this.type = b.type;
    this.domain = b.domain;
    this.epsilon = b.epsilon;
    this.objective = b.objective;
    this.gridBits = b.gridBits;
    this.optimized = !Double.isNaN(b.optimizeAt);
    this.optimizeAt = optimized ? b.optimizeAt : 0;
  }

  public static Builder builder() {
    return new Builder();
  }

  public MechanismType type() {
    return type;
  }

  public Domain domain() {
    return domain;
  }

  public double epsilon() {
    return epsilon;
  }

  public Objective objective() {
    return objective;
  }

  public int gridBits() {
    return gridBits;
  }

  /**
   * The input x0 (in the domain's units) at which the mechanism minimises the objective's error
   * instead of the worst case (paper section "Minimize Error at a Specific x"); empty for the
   * worst-case optimum. The mechanism still treats every input alike and does not reveal x0's data:
   * only its shape (the high density) depends on x0, which is public configuration.
   */
  public OptionalDouble optimizeAt() {
    return optimized ? OptionalDouble.of(optimizeAt) : OptionalDouble.empty();
  }

  /** A builder with this spec's values. */
  public Builder toBuilder() {
    return new Builder()
        .type(type)
        .domain(domain)
        .epsilon(epsilon)
        .objective(objective)
        .gridBits(gridBits)
        .optimizeAt(optimized ? optimizeAt : Double.NaN);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MechanismSpec s
        && s.type == type
        && s.domain.equals(domain)
        && Double.compare(s.epsilon, epsilon) == 0
        && s.objective == objective
        && s.gridBits == gridBits
        && s.optimized == optimized
        && Double.compare(s.optimizeAt, optimizeAt) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, domain, epsilon, objective, gridBits, optimized, optimizeAt);
  }

  @Override
  public String toString() {
    return type.id()
        + "{domain="
        + domain
        + ", epsilon="
        + epsilon
        + ", objective="
        + objective.id()
        + (optimized ? ", optimizeAt=" + optimizeAt : "")
        + ", gridBits="
        + gridBits
        + "}";
  }

  /** Fluent builder; defaults: ogpm, classical [0, 1), objective l1, 32 grid bits. */
  public static final class Builder {
    private MechanismType type = MechanismType.OGPM;
    private Domain domain = Domain.classical(0, 1);
    private double epsilon = Double.NaN;
    private Objective objective = Objective.L1;
    private int gridBits = OutputGrid.DEFAULT_BITS;
    private double optimizeAt = Double.NaN;

    private Builder() {}

    public Builder type(MechanismType type) {
      this.type = Checks.notNull("mechanism", type);
      return this;
    }

    public Builder domain(Domain domain) {
      this.domain = Checks.notNull("domain", domain);
      return this;
    }

    public Builder epsilon(double epsilon) {
      this.epsilon = epsilon;
      return this;
    }

    public Builder objective(Objective objective) {
      this.objective = Checks.notNull("objective", objective);
      return this;
    }

    public Builder gridBits(int gridBits) {
      this.gridBits = gridBits;
      return this;
    }

    /**
     * The input x0 whose error the mechanism minimises (ogpm on a classical domain); NaN (the
     * default) for the worst-case optimum.
     */
    public Builder optimizeAt(double x0) {
      this.optimizeAt = x0;
      return this;
    }

    /**
     * Validates and builds.
     *
     * @throws IllegalArgumentException naming the bad value
     */
    public MechanismSpec build() {
      Checks.epsilon("epsilon", epsilon);
      if (epsilon > type.maxEpsilon()) {
        throw new IllegalArgumentException(
            "epsilon must be <= "
                + type.maxEpsilon()
                + " for "
                + type.id()
                + " (above it its moments and bands are not exact in doubles), got "
                + epsilon);
      }
      if (domain.isCircular() ? !type.supportsCircular() : !type.supportsClassical()) {
        throw new IllegalArgumentException(
            "mechanism " + type.id() + " is not defined on a " + domain.kind().id() + " domain");
      }
      if (objective != Objective.L1 && !type.hasObjective()) {
        throw new IllegalArgumentException(
            "objective "
                + objective.id()
                + " applies to ogpm and staircase only, not "
                + type.id());
      }
      if (!Double.isNaN(optimizeAt)) {
        if (type != MechanismType.OGPM || domain.isCircular()) {
          // On a circle every input has the same error (rotation invariance): there is no x0 to
          // favour.
          throw new IllegalArgumentException(
              "optimize-at applies to ogpm on a classical domain only, not "
                  + type.id()
                  + " on a "
                  + domain.kind().id()
                  + " domain");
        }
        if (!(optimizeAt >= domain.lo() && optimizeAt <= domain.hi())) {
          throw new IllegalArgumentException(
              "optimize-at must be in ["
                  + domain.lo()
                  + ", "
                  + domain.hi()
                  + "], got "
                  + optimizeAt);
        }
      }
      if (gridBits < 1 || gridBits > OutputGrid.MAX_BITS) {
        throw new IllegalArgumentException(
            "grid-bits must be in [1, " + OutputGrid.MAX_BITS + "], got " + gridBits);
      }
      return new MechanismSpec(this);
    }
  }
}
