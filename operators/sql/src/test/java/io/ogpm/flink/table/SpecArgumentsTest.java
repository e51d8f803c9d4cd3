package io.ogpm.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.mechanism.MechanismSpec;
import org.junit.jupiter.api.Test;

/**
 * SQL arguments give the spec a configuration file with the same values gives (so the same
 * mechanism, grid and keyed-PRF binding); tuples are equal exactly when every argument is, doubles
 * by their bits.
 */
class SpecArgumentsTest {
  private static MechanismSpec configured(String field) {
    return PrivacyConfig.parse("fields:\n  - " + field + "\n").fields().get(0).spec();
  }

  @Test
  void givesTheSpecOfAConfigurationFileWithTheSameValues() {
    assertThat(new SpecArguments(-2.0, 2.0, 1.0, "classical", "ogpm", "l1").spec())
        .isEqualTo(configured("{name: x, min: -2, max: 2, epsilon: 1}"))
        .hasToString(configured("{name: x, min: -2, max: 2, epsilon: 1}").toString());
    assertThat(new SpecArguments(-Math.PI, Math.PI, 2.5, "circular", "purkayastha", "l1").spec())
        .isEqualTo(
            configured(
                "{name: x, domain: circular, min: -3.141592653589793, max: 3.141592653589793, "
                    + "epsilon: 2.5, mechanism: purkayastha}"));
    assertThat(new SpecArguments(0.0, 10.0, 0.5, "classical", "staircase", "l2").spec())
        .isEqualTo(
            configured(
                "{name: x, min: 0, max: 10, epsilon: 0.5, mechanism: staircase, objective: l2}"));
  }

  /**
   * auto is the configuration's auto at its defaults (the aggregation, 1,000 reports per window):
   * pm at eps 1 on [0, 1], and ogpm on a circle.
   */
  @Test
  void autoIsTheConfigurationsAutoAtItsDefaults() {
    MechanismSpec auto = new SpecArguments(0.0, 1.0, 1.0, "classical", "auto", "l1").spec();
    assertThat(auto)
        .isEqualTo(configured("{name: x, min: 0, max: 1, epsilon: 1, mechanism: auto}"));
    assertThat(auto.type().id()).isEqualTo("pm");
    assertThat(new SpecArguments(0.0, 1.0, 1.0, "circular", "auto", "l1").spec().type().id())
        .isEqualTo("ogpm");
  }

  @Test
  void namesTheBadArgumentAndItsValue() {
    assertThatThrownBy(() -> new SpecArguments(0.0, 1.0, 800.0, "classical", "ogpm", "l1").spec())
        .hasMessage("eps must be <= 700.0, got 800.0");
    assertThatThrownBy(() -> new SpecArguments(0.0, 1.0, 0.0, "classical", "ogpm", "l1").spec())
        .hasMessage("eps must be > 0, got 0.0");
    assertThatThrownBy(() -> new SpecArguments(0.0, 1.0, 1.0, "classical", "ogpm", null).spec())
        .hasMessage("objective must not be NULL");
    assertThatThrownBy(() -> new SpecArguments(0.0, -1.0, 1.0, "classical", "ogpm", "l1").spec())
        .hasMessage("lo must be < hi, got lo=0.0 and hi=-1.0");
    assertThatThrownBy(
            () -> new SpecArguments(-1e308, 1e308, 1.0, "classical", "ogpm", "l1").spec())
        .hasMessageContaining("overflows a double");
    // Checked in this order: lo and hi before eps.
    assertThatThrownBy(() -> new SpecArguments(1.0, 0.0, 0.0, "classical", "ogpm", "l1").spec())
        .hasMessage("lo must be < hi, got lo=1.0 and hi=0.0");
    assertThat(new SpecArguments(0.0, 1.0, 20.0, "classical", "ogpm", "l1").spec().epsilon())
        .isEqualTo(20);
    assertThatThrownBy(
            () -> new SpecArguments(0.0, 1.0, Math.nextUp(20.0), "classical", "ogpm", "l1").spec())
        .hasMessageStartingWith("epsilon must be <= 20.0 for ogpm");
    assertThat(new SpecArguments(0.0, 1.0, 700.0, "classical", "t-laplace", "l1").spec().epsilon())
        .isEqualTo(700);
    assertThatThrownBy(
            () ->
                new SpecArguments(0.0, 1.0, Math.nextUp(700.0), "classical", "t-laplace", "l1")
                    .spec())
        .hasMessageStartingWith("eps must be <= 700.0");
    assertThat(SpecArguments.DEFAULT_DOMAIN).isEqualTo("classical");
    assertThat(SpecArguments.DEFAULT_MECHANISM).isEqualTo("ogpm");
    assertThat(SpecArguments.DEFAULT_OBJECTIVE).isEqualTo("l1");
  }

  @Test
  void tuplesAreEqualWhenEveryArgumentIsByItsBits() {
    SpecArguments a = new SpecArguments(0.0, 1.0, 1.0, "classical", "ogpm", "l1");
    assertThat(a)
        .isEqualTo(new SpecArguments(0.0, 1.0, 1.0, "classical", "ogpm", "l1"))
        .hasSameHashCodeAs(new SpecArguments(0.0, 1.0, 1.0, "classical", "ogpm", "l1"));
    assertThat(a)
        .isNotEqualTo(new SpecArguments(-0.0, 1.0, 1.0, "classical", "ogpm", "l1"))
        .isNotEqualTo(new SpecArguments(0.0, 1.5, 1.0, "classical", "ogpm", "l1"))
        .isNotEqualTo(new SpecArguments(0.0, 1.0, 2.0, "classical", "ogpm", "l1"))
        .isNotEqualTo(new SpecArguments(0.0, 1.0, 1.0, "circular", "ogpm", "l1"))
        .isNotEqualTo(new SpecArguments(0.0, 1.0, 1.0, "classical", "pm", "l1"))
        .isNotEqualTo(new SpecArguments(0.0, 1.0, 1.0, "classical", "ogpm", "l2"))
        .isNotEqualTo(new SpecArguments(null, 1.0, 1.0, "classical", "ogpm", "l1"))
        .isNotEqualTo("lo=0.0");
    assertThat(new SpecArguments(null, null, Double.NaN, null, null, null))
        .isEqualTo(new SpecArguments(null, null, Double.NaN, null, null, null));
    assertThat(a.matches(0.0, 1.0, 1.0, "classical", "ogpm", "l1")).isTrue();
    assertThat(a.matches(null, 1.0, 1.0, "classical", "ogpm", "l1")).isFalse();
    assertThat(a)
        .hasToString("lo=0.0, hi=1.0, eps=1.0, domain=classical, mechanism=ogpm, objective=l1");
  }
}
