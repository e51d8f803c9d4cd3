package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Intervals are closed, on the line and on the circle, and an interval needs both ends. */
class IntervalTest {
  @Test
  void theEndsBelongToTheInterval() {
    Interval i = new Interval(2, 1, 3);
    assertThat(i.contains(1)).isTrue();
    assertThat(i.contains(3)).isTrue();
    assertThat(i.contains(Math.nextDown(1.0))).isFalse();
    assertThat(i.contains(Math.nextUp(3.0))).isFalse();
    assertThat(new Interval(1, 1, 1).contains(1)).isTrue();
  }

  @Test
  void anIntervalNeedsBothEnds() {
    assertThat(new Interval(2, 1, 3).hasBounds()).isTrue();
    assertThat(new Interval(2, Double.NaN, 3).hasBounds()).isFalse();
    assertThat(new Interval(2, 1, Double.NaN).hasBounds()).isFalse();
    assertThat(Interval.within(2, 1, Double.NaN)).isEqualTo(Interval.pointOnly(2));
    assertThat(Interval.within(2, Double.NaN, 3)).isEqualTo(Interval.pointOnly(2));
  }

  @Test
  void arcsOnACircleThatDoesNotStartAtZeroAreClosed() {
    // The circle [10, 370): values, ends and the circle's start are all taken modulo 360.
    double lo = 10;
    double period = 360;
    Interval arc = new Interval(100, 50, 150);
    assertThat(arc.containsOnCircle(50, lo, period)).isTrue();
    assertThat(arc.containsOnCircle(150, lo, period)).isTrue();
    assertThat(arc.containsOnCircle(100 + 360, lo, period)).isTrue();
    assertThat(arc.containsOnCircle(100 - 720, lo, period)).isTrue();
    assertThat(arc.containsOnCircle(49, lo, period)).isFalse();
    assertThat(arc.containsOnCircle(151, lo, period)).isFalse();
    assertThat(arc.containsOnCircle(280, lo, period)).isFalse();

    // Across the seam at 10 = 370: from 340 to 40.
    Interval seam = new Interval(10, 340, 40);
    assertThat(seam.containsOnCircle(340, lo, period)).isTrue();
    assertThat(seam.containsOnCircle(40, lo, period)).isTrue();
    assertThat(seam.containsOnCircle(10, lo, period)).isTrue();
    assertThat(seam.containsOnCircle(369, lo, period)).isTrue();
    assertThat(seam.containsOnCircle(339, lo, period)).isFalse();
    assertThat(seam.containsOnCircle(41, lo, period)).isFalse();
    assertThat(seam.containsOnCircle(190, lo, period)).isFalse();

    // A zero-width arc (the disk only touches the unit disk) holds its own direction only.
    Interval point = new Interval(200, 200, 200);
    assertThat(point.containsOnCircle(200, lo, period)).isTrue();
    assertThat(point.containsOnCircle(200 + 360, lo, period)).isTrue();
    assertThat(point.containsOnCircle(201, lo, period)).isFalse();
    assertThat(point.containsOnCircle(20, lo, period)).isFalse();

    // The whole circle, given as [lo, lo + period], holds everything.
    Interval whole = new Interval(100, 10, 370);
    for (double v : new double[] {10, 9, 189.5, 369.9, 1000}) {
      assertThat(whole.containsOnCircle(v, lo, period)).as("%s", v).isTrue();
    }
  }
}
