package io.ogpm.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class TicksTest {
  @Test
  void roundTicksHaveFewDigitsAndALeadingZero() {
    assertThat(Ticks.round(0, 0.0837, 5).labels())
        .containsExactly("0", "0.02", "0.04", "0.06", "0.08");
    assertThat(Ticks.round(-3, 3, 6).labels())
        .containsExactly("-3", "-2", "-1", "0", "1", "2", "3");
    assertThat(Ticks.round(-1.47, 0.99, 6).labels()).containsExactly("-1.0", "-0.5", "0", "0.5");
  }

  @Test
  void anglesAreMultiplesOfHalfPiLabelledInPi() {
    Ticks t = Ticks.angles(-Math.PI, Math.PI);
    assertThat(t.labels()).containsExactly("-π", "-π/2", "0", "π/2", "π");
    assertThat(t.values().get(1)).isCloseTo(-Math.PI / 2, within(1e-12));
    assertThat(Ticks.angles(0, 2 * Math.PI).labels())
        .containsExactly("0", "π/2", "π", "3π/2", "2π");
    assertThat(Ticks.angles(-Math.PI / 2, Math.PI / 2).labels())
        .containsExactly("-π/2", "0", "π/2");
  }

  @Test
  void angleRangesAreRecognisedByTheirEnds() {
    assertThat(Ticks.isAngleRange(-Math.PI, Math.PI)).isTrue();
    assertThat(Ticks.isAngleRange(-Math.PI / 2, Math.PI / 2)).isTrue();
    assertThat(Ticks.isAngleRange(-3, 3)).isFalse();
    assertThat(Ticks.isAngleRange(0, 360)).isFalse();
  }
}
