package io.ogpm.mechanism;

import java.util.Objects;

/**
 * Everything that defines a field's mechanism: its type, domain, epsilon, objective and output
 * grid. Immutable; built with {@link #builder()} and validated by {@link Builder#build()}.
 */
public final class MechanismSpec implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private final MechanismType type;
  private final Domain domain;
  private final double epsilon;
  private final Objective objective;
  private final int gridBits;

  private MechanismSpec(Builder b) {
    this.type = b.type;
    this.domain = b.domain;
    this.epsilon = b.epsilon;
    this.objective = b.objective;
    this.gridBits = b.gridBits;
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

  /** A builder with this spec's values. */
  public Builder toBuilder() {
    return new Builder()
        .type(type)
        .domain(domain)
        .epsilon(epsilon)
        .objective(objective)
        .gridBits(gridBits);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MechanismSpec s
        && s.type == type
        && s.domain.equals(domain)
        && Double.compare(s.epsilon, epsilon) == 0
        && s.objective == objective
        && s.gridBits == gridBits;
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, domain, epsilon, objective, gridBits);
  }

  @Override
  public String toString() {
    return type.id() + "{domain=" + domain + ", epsilon=" + epsilon + ", objective="
        + objective.id() + ", gridBits=" + gridBits + "}";
  }

  /** Fluent builder; defaults: ogpm, classical [0, 1), objective l1, 32 grid bits. */
  public static final class Builder {
    private MechanismType type = MechanismType.OGPM;
    private Domain domain = Domain.classical(0, 1);
    private double epsilon = Double.NaN;
    private Objective objective = Objective.L1;
    private int gridBits = OutputGrid.DEFAULT_BITS;

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
     * Validates and builds.
     *
     * @throws IllegalArgumentException naming the bad value
     */
    public MechanismSpec build() {
      Checks.positive("epsilon", epsilon);
      if (epsilon > OgpmShape.MAX_EPSILON) {
        throw new IllegalArgumentException(
            "epsilon must be <= " + OgpmShape.MAX_EPSILON + ", got " + epsilon);
      }
      if (domain.isCircular() ? !type.supportsCircular() : !type.supportsClassical()) {
        throw new IllegalArgumentException(
            "mechanism " + type.id() + " is not defined on a " + domain.kind().id() + " domain");
      }
      if (objective != Objective.L1 && !type.hasObjective()) {
        throw new IllegalArgumentException(
            "objective " + objective.id() + " applies to ogpm and staircase only, not " + type.id());
      }
      if (gridBits < 1 || gridBits > OutputGrid.MAX_BITS) {
        throw new IllegalArgumentException(
            "grid-bits must be in [1, " + OutputGrid.MAX_BITS + "], got " + gridBits);
      }
      return new MechanismSpec(this);
    }
  }
}
