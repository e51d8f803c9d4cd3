package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Outputs on the fixed grid, whatever the input (docs/mechanisms.md, "Floating point"). */
class OutputGridTest {
  @Test
  void outputsAreCellMidpointsOfAGridAnchoredAtLo() {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(1).domain(Domain.classical(-2, 2)).build());
    AesCtrSource source = AesCtrSource.seeded(1);
    for (int i = 0; i < 100_000; i++) {
      double x = -2 + 4 * source.nextUniform();
      double y = m.perturb(x, source);
      double cells = (y + 2) / m.cellWidth() - 0.5;
      assertThat(cells).isEqualTo(Math.rint(cells));
    }
  }

  @Test
  void theSetOfOutputsDoesNotDependOnTheInput() {
    // A coarse grid (2^-6) makes the sets of reachable outputs small enough to compare exactly.
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder()
                .epsilon(0.5)
                .gridBits(6)
                .domain(Domain.classical(0.1, 0.7))
                .build());
    AesCtrSource source = AesCtrSource.seeded(2);
    Set<Double> atLo = new HashSet<>();
    Set<Double> atHi = new HashSet<>();
    for (int i = 0; i < 200_000; i++) {
      atLo.add(m.perturb(0.1, source));
      atHi.add(m.perturb(0.7, source));
    }
    assertThat(atLo).hasSize(64).isEqualTo(atHi);
    // Unsnapped outputs, by contrast, have input-dependent low bits: almost all distinct.
    Set<Double> raw = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      raw.add(m.perturbUnsnapped(0.1, source.nextUniform()));
    }
    assertThat(raw.size()).isGreaterThan(990);
  }

  @Test
  void circularOutputsWrapAndNeverEqualThePeriod() {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(3).gridBits(4).domain(Domain.circular(0, 16)).build());
    AesCtrSource source = AesCtrSource.seeded(5);
    Set<Double> seen = new HashSet<>();
    for (int i = 0; i < 100_000; i++) {
      seen.add(m.perturb(15.99, source));
    }
    assertThat(seen).allMatch(y -> y >= 0 && y < 16).contains(0.5, 15.5);
  }

  @Test
  void enlargedOutputDomainUsesOnlyCellsInsideIt() {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().type(MechanismType.OGPM_U).epsilon(1).gridBits(3).build());
    AesCtrSource source = AesCtrSource.seeded(6);
    for (int i = 0; i < 100_000; i++) {
      double y = m.perturb(i % 2, source);
      assertThat(y).isBetween(m.outputLo(), Math.nextDown(m.outputHi()));
    }
  }

  @Test
  void aGridFinerThanDoublePrecisionIsRejectedByName() {
    assertThatThrownBy(
            () ->
                MechanismCatalog.of(
                    MechanismSpec.builder()
                        .epsilon(1)
                        .gridBits(40)
                        .domain(Domain.classical(1e9, 1e9 + 1))
                        .build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("grid-bits 40");
  }
}
