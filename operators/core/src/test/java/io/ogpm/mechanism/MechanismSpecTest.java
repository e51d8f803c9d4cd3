package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.mechanism.catalog.MechanismCatalog;
import org.junit.jupiter.api.Test;

/** Validation names the bad value. */
class MechanismSpecTest {
  /**
   * Every mechanism builds at its largest epsilon and is refused just above it, in one line naming
   * the value; the mechanisms with a central piece stop at 20 (the sw family at 12), where their
   * moments are still exact in doubles.
   */
  @Test
  void eachMechanismIsOfferedUpToItsLargestEpsilonAndRefusedAbove() {
    for (MechanismType type : MechanismType.values()) {
      Domain domain = type.supportsClassical() ? Domain.classical(0, 1) : Domain.circular(0, 1);
      double most = type.maxEpsilon();
      MechanismSpec at = MechanismSpec.builder().type(type).domain(domain).epsilon(most).build();
      assertThat(MechanismCatalog.of(at).spec().epsilon()).isEqualTo(most);
      double above = Math.nextUp(most);
      assertThatThrownBy(
              () -> MechanismSpec.builder().type(type).domain(domain).epsilon(above).build())
          .as("%s", type)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("epsilon must be <= " + most)
          .hasMessageEndingWith("got " + above)
          .hasMessageNotContaining("\n");
    }
    assertThat(MechanismType.SW.maxEpsilon()).isEqualTo(12);
    assertThat(MechanismType.OGPM.maxEpsilon()).isEqualTo(20);
    assertThat(MechanismType.autoPlaceholder(20)).isEqualTo(MechanismType.OGPM);
    assertThat(MechanismType.autoPlaceholder(21)).isEqualTo(MechanismType.T_LAPLACE);
  }

  @Test
  void badEpsilonsAreNamed() {
    assertThatThrownBy(() -> MechanismSpec.builder().epsilon(0).build())
        .hasMessage("epsilon must be > 0, got 0.0");
    assertThatThrownBy(() -> MechanismSpec.builder().epsilon(-1).build())
        .hasMessageContaining("epsilon");
    assertThatThrownBy(() -> MechanismSpec.builder().epsilon(Double.NaN).build())
        .hasMessage("epsilon must be a finite number, got NaN");
    assertThatThrownBy(() -> MechanismSpec.builder().epsilon(Double.POSITIVE_INFINITY).build())
        .hasMessageContaining("epsilon must be a finite number");
    assertThatThrownBy(() -> MechanismSpec.builder().epsilon(701).build())
        .hasMessageContaining("epsilon must be <= 700");
  }

  @Test
  void badDomainsAreNamed() {
    assertThatThrownBy(() -> Domain.classical(1, 1))
        .hasMessage("lo must be < hi, got lo=1.0 and hi=1.0");
    assertThatThrownBy(() -> Domain.circular(0, Double.NaN))
        .hasMessage("hi must be a finite number, got NaN");
    assertThatThrownBy(() -> Domain.classical(-Double.MAX_VALUE, Double.MAX_VALUE))
        .hasMessageContaining("overflows");
  }

  @Test
  void unbiasedMechanismIsClassicalOnly() {
    assertThatThrownBy(
            () ->
                MechanismSpec.builder()
                    .type(MechanismType.OGPM_U)
                    .epsilon(1)
                    .domain(Domain.circular(0, 1))
                    .build())
        .hasMessage("mechanism ogpm-u is not defined on a circular domain");
  }

  @Test
  void unknownNamesAreListed() {
    assertThatThrownBy(() -> MechanismType.parse("ogmp"))
        .hasMessage(
            "mechanism must be one of ogpm, ogpm-u, pm, sw, pm-c, sw-c, t-pm, t-sw, hm, staircase, t-laplace, b-laplace, purkayastha, got 'ogmp'");
    assertThatThrownBy(() -> Objective.parse("l3"))
        .hasMessage("objective must be l1 or l2, got 'l3'");
  }

  @Test
  void inputsOutsideTheDomainAreRefusedWithoutEchoingTheValue() {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(1).domain(Domain.classical(0, 1)).build());
    assertThatThrownBy(() -> m.perturb(1.5, io.ogpm.mechanism.random.AesCtrSource.seeded(1)))
        .hasMessage("input outside the domain [0.0, 1.0]");
    assertThatThrownBy(() -> m.perturb(Double.NaN, io.ogpm.mechanism.random.AesCtrSource.seeded(1)))
        .hasMessage("input outside the domain [0.0, 1.0]");
    assertThat(m.perturb(1.0, io.ogpm.mechanism.random.AesCtrSource.seeded(1))).isBetween(0.0, 1.0);
  }

  @Test
  void optimizeAtIsPartOfTheSpecAndChoosesTheMechanismOptimalAtX0() {
    MechanismSpec worst =
        MechanismSpec.builder().epsilon(1).domain(Domain.classical(0, 10)).build();
    MechanismSpec at = worst.toBuilder().optimizeAt(2).build();
    assertThat(worst.optimizeAt()).isEmpty();
    assertThat(at.optimizeAt()).hasValue(2.0);
    assertThat(at).isNotEqualTo(worst).isEqualTo(worst.toBuilder().optimizeAt(2).build());
    assertThat(at.hashCode())
        .isEqualTo(worst.toBuilder().optimizeAt(2).build().hashCode())
        .isNotEqualTo(worst.hashCode());
    assertThat(at.toBuilder().build()).isEqualTo(at);
    assertThat(at.toBuilder().optimizeAt(0).build()).isNotEqualTo(at);
    // The text binds keyed randomness to the mechanism (KeyedPrf): a spec without optimize-at has
    // no trace of the option in its text, so its keyed outputs do not depend on the option; with
    // it, another x0 gives independent bits.
    assertThat(worst.toString())
        .isEqualTo("ogpm{domain=classical[0.0, 10.0), epsilon=1.0, objective=l1, gridBits=32}");
    assertThat(at.toString())
        .isEqualTo(
            "ogpm{domain=classical[0.0, 10.0), epsilon=1.0, objective=l1, optimizeAt=2.0, gridBits=32}");
    // The paper's example (section "Minimize Error at a Specific x", docs/mechanisms.md, "Checked
    // examples") on
    // [0, 10): error 0.24137 * 10 at x0 = 2, high density 1.5459 / 10; the worst-case optimum's
    // error there is 0.24336 * 10.
    Mechanism atX0 = MechanismCatalog.of(at);
    assertThat(atX0.expectedError(2, ErrorMetric.L1, Distance.LINEAR))
        .isCloseTo(2.4137, org.assertj.core.data.Offset.offset(5e-5));
    assertThat(atX0.distribution(2).pieces().get(0).density())
        .isCloseTo(0.15459, org.assertj.core.data.Offset.offset(5e-6));
    assertThat(MechanismCatalog.of(worst).expectedError(2, ErrorMetric.L1, Distance.LINEAR))
        .isCloseTo(2.4336, org.assertj.core.data.Offset.offset(5e-5));
    assertThat(atX0.realizedEpsilon()).isPositive().isLessThanOrEqualTo(1);
    assertThatThrownBy(() -> worst.toBuilder().optimizeAt(10.5).build())
        .hasMessage("optimize-at must be in [0.0, 10.0], got 10.5");
    assertThatThrownBy(() -> worst.toBuilder().optimizeAt(Double.POSITIVE_INFINITY).build())
        .hasMessageContaining("got Infinity");
    assertThatThrownBy(() -> worst.toBuilder().type(MechanismType.STAIRCASE).optimizeAt(1).build())
        .hasMessage(
            "optimize-at applies to ogpm on a classical domain only, not staircase on a classical domain");
    assertThatThrownBy(() -> worst.toBuilder().domain(Domain.circular(0, 10)).optimizeAt(1).build())
        .hasMessage(
            "optimize-at applies to ogpm on a classical domain only, not ogpm on a circular domain");
  }
}
