package io.ogpm.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SeriesTest {

  @Test
  void keepsPointsAndCopiesArrays() {
    double[] x = {1, 2, 3};
    double[] y = {10, Double.NaN, 30};
    Series s = Series.of("ogpm", x, y);
    x[0] = 99;
    y[0] = 99;
    s.yValues()[2] = 99;

    assertThat(s.name()).isEqualTo("ogpm");
    assertThat(s.size()).isEqualTo(3);
    assertThat(s.xValues()).containsExactly(1, 2, 3);
    assertThat(s.y(0)).isEqualTo(10);
    assertThat(s.y(1)).isNaN();
    assertThat(s.y(2)).isEqualTo(30);
    assertThat(s.style()).isEmpty();
  }

  @Test
  void carriesStyleHint() {
    Series s = Series.of("a", new double[] {1}, new double[] {2}, Series.Style.DASHED_LINE);
    assertThat(s.style()).contains(Series.Style.DASHED_LINE);
    assertThat(s.withStyle(Series.Style.MARKERS_ONLY).style()).contains(Series.Style.MARKERS_ONLY);
    assertThat(s.withStyle(Series.Style.MARKERS_ONLY)).isNotEqualTo(s);
  }

  @Test
  void rejectsLengthMismatch() {
    assertThatThrownBy(() -> Series.of("laplace", new double[] {1, 2, 3}, new double[] {1, 2}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("laplace")
        .hasMessageContaining("3 x values")
        .hasMessageContaining("2 y values");
  }

  @Test
  void rejectsNonFiniteX() {
    assertThatThrownBy(() -> Series.of("s", new double[] {0, Double.NaN}, new double[] {1, 2}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("x[1] = NaN");
    assertThatThrownBy(
            () -> Series.of("s", new double[] {Double.NEGATIVE_INFINITY}, new double[] {1}))
        .hasMessageContaining("x[0] = -Infinity");
  }

  @Test
  void rejectsInfiniteYButAcceptsNaN() {
    assertThatThrownBy(
            () -> Series.of("s", new double[] {0, 1}, new double[] {1, Double.POSITIVE_INFINITY}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("y[1] = Infinity");
    assertThat(Series.of("s", new double[] {0}, new double[] {Double.NaN}).size()).isEqualTo(1);
  }

  @Test
  void rejectsBlankName() {
    assertThatThrownBy(() -> Series.of(" ", new double[0], new double[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("blank");
  }
}
