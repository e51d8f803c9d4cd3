package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * Reading quantiles, exceedances and shares off a band where the band's ends meet the asked
 * probability exactly, and at the band's points themselves: F may equal the band's end, so ties
 * count as the band allows.
 */
class CumulativeBandTest {
  /**
   * 30 % to 35 % of the inputs at the domain's start, F(0.25) at most exactly 0.5, F(0.75) at least
   * exactly 0.5.
   */
  private static final CumulativeBand BAND =
      new CumulativeBand(
          new double[] {0, 0.25, 0.5, 0.75, 1},
          new double[] {0.3, 0.3, 0.4, 0.5, 1},
          new double[] {0.35, 0.5, 0.7, 0.95, 1});

  /** Sums and differences of a few of the band's values: within a few ulps of 1. */
  private static final double ROUNDING = 4 * Math.ulp(1.0);

  @Test
  void aBandEndEqualToTheProbabilityAdmitsThatPoint() {
    // F(0.25) <= 0.5 allows F(0.25) = 0.5, which makes 0.25 the median: the interval starts at the
    // last point whose upper end is below 0.5, 0. F(0.75) >= 0.5 makes 0.75 at or beyond it.
    assertThat(BAND.quantile(0.5, Double.NaN)).isEqualTo(new Interval(0.375, 0, 0.75));
  }

  @Test
  void aLowerEndAtTheFirstPointPutsTheQuantileThere() {
    // At least 30 % of the inputs are at the start: every quantile up to 0.3 is the start itself.
    assertThat(BAND.quantile(0.25, Double.NaN)).isEqualTo(new Interval(0, 0, 0));
    assertThat(BAND.quantile(0.3, 0.5)).isEqualTo(new Interval(0, 0, 0));
    // Just above 0.3 it may lie anywhere up to 0.5 (F(0.5) >= 0.4), not before F(0) can reach it.
    assertThat(BAND.quantile(0.32, 0.6)).isEqualTo(new Interval(0.5, 0, 0.5));
    // F(0.25) <= 0.5 < 0.6: the 0.6-quantile lies beyond 0.25; only F(1) surely reaches 0.6.
    assertThat(BAND.quantile(0.6, 0.1)).isEqualTo(new Interval(0.25, 0.25, 1));
  }

  @Test
  void probabilitiesOutsideTheOpenUnitIntervalAreRefused() {
    for (double p : new double[] {0, -0.25, 1, Double.NaN}) {
      assertThatThrownBy(() -> BAND.quantile(p, Double.NaN))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("a quantile's probability must be in (0, 1), got " + p);
    }
  }

  @Test
  void theExceedanceOfTheFirstPointComesFromTheBandThere() {
    // 1 - F(0) with F(0) in [0.3, 0.35]: the inputs at the start are at or below it.
    Interval above = BAND.exceedance(0, Double.NaN);
    assertThat(above.lower()).isCloseTo(0.65, within(ROUNDING));
    assertThat(above.upper()).isCloseTo(0.7, within(ROUNDING));
    assertThat(above.estimate()).isCloseTo(0.675, within(ROUNDING));
  }

  @Test
  void theExceedanceOfAPointUsesTheBandAtThatPoint() {
    // 1 - F(0.5) with F(0.5) in [0.4, 0.7].
    Interval above = BAND.exceedance(0.5, 0.9);
    assertThat(above.lower()).isCloseTo(0.3, within(ROUNDING));
    assertThat(above.upper()).isCloseTo(0.6, within(ROUNDING));
    assertThat(above.estimate()).isEqualTo(above.upper());
  }

  @Test
  void aShareIsEstimatedAtItsIntervalsMiddle() {
    // F(0.75) - F(0.25): at least 0.5 - 0.5, at most 0.95 - 0.3.
    Interval middle = BAND.share(0.25, 0.75, Double.NaN);
    assertThat(middle.lower()).isZero();
    assertThat(middle.upper()).isCloseTo(0.65, within(ROUNDING));
    assertThat(middle.estimate()).isCloseTo(0.325, within(ROUNDING));
    assertThat(BAND.share(0.25, 0.75, 0.2).estimate()).isEqualTo(0.2);
  }

  @Test
  void anEmptyRangeHasAShareTheBandCannotTellFromNothing() {
    // (0.5, 0.5] holds no input; the band, reading F(0.5) twice, allows 0 up to its width there.
    Interval none = BAND.share(0.5, 0.5, Double.NaN);
    assertThat(none.contains(0)).isTrue();
    assertThat(none.lower()).isZero();
    assertThat(none.upper()).isCloseTo(0.3, within(ROUNDING));
  }
}
