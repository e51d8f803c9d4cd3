package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.mechanism.catalog.MechanismCatalog;
import org.junit.jupiter.api.Test;

/** Validation names the bad value. */
class MechanismSpecTest {
  @Test
  void badEpsilonsAreNamed() {
    assertThatThrownBy(() -> MechanismSpec.builder().epsilon(0).build()).hasMessage("epsilon must be > 0, got 0.0");
    assertThatThrownBy(() -> MechanismSpec.builder().epsilon(-1).build()).hasMessageContaining("epsilon");
    assertThatThrownBy(() -> MechanismSpec.builder().epsilon(Double.NaN).build())
        .hasMessage("epsilon must be a finite number, got NaN");
    assertThatThrownBy(() -> MechanismSpec.builder().epsilon(Double.POSITIVE_INFINITY).build())
        .hasMessageContaining("epsilon must be a finite number");
    assertThatThrownBy(() -> MechanismSpec.builder().epsilon(701).build()).hasMessageContaining("epsilon must be <= 700");
  }

  @Test
  void badDomainsAreNamed() {
    assertThatThrownBy(() -> Domain.classical(1, 1)).hasMessage("lo must be < hi, got lo=1.0 and hi=1.0");
    assertThatThrownBy(() -> Domain.circular(0, Double.NaN)).hasMessage("hi must be a finite number, got NaN");
    assertThatThrownBy(() -> Domain.classical(-Double.MAX_VALUE, Double.MAX_VALUE)).hasMessageContaining("overflows");
  }

  @Test
  void unbiasedMechanismIsClassicalOnly() {
    assertThatThrownBy(() -> MechanismSpec.builder().type(MechanismType.OGPM_U).epsilon(1)
            .domain(Domain.circular(0, 1)).build())
        .hasMessage("mechanism ogpm-u is not defined on a circular domain");
  }

  @Test
  void unknownNamesAreListed() {
    assertThatThrownBy(() -> MechanismType.parse("ogmp")).hasMessage(
        "mechanism must be one of ogpm, ogpm-u, pm, sw, pm-c, sw-c, t-pm, t-sw, staircase, t-laplace, b-laplace, purkayastha, got 'ogmp'");
    assertThatThrownBy(() -> Objective.parse("l3")).hasMessage("objective must be l1 or l2, got 'l3'");
  }

  @Test
  void inputsOutsideTheDomainAreRefusedWithoutEchoingTheValue() {
    Mechanism m = MechanismCatalog.of(MechanismSpec.builder().epsilon(1).domain(Domain.classical(0, 1)).build());
    assertThatThrownBy(() -> m.perturb(1.5, io.ogpm.mechanism.random.AesCtrSource.seeded(1))).hasMessage("input outside the domain [0.0, 1.0]");
    assertThatThrownBy(() -> m.perturb(Double.NaN, io.ogpm.mechanism.random.AesCtrSource.seeded(1))).hasMessage("input outside the domain [0.0, 1.0]");
    assertThat(m.perturb(1.0, io.ogpm.mechanism.random.AesCtrSource.seeded(1))).isBetween(0.0, 1.0);
  }
}
