package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.mechanism.random.AesCtrSource;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * {@link DoubleText} writes every double as {@link Double#toString} does: outputs stay byte for byte
 * what they were. Checked on values drawn where perturbed outputs lie (uniform on intervals, on the
 * output grids of the sample's fields), on every binade of both notations, on short decimals and
 * their neighbouring doubles (where a shortest representation is most likely to tie or to sit on a
 * rounding boundary), and on the special values.
 */
class DoubleTextTest {
  private static void same(double x) {
    assertThat(DoubleText.of(x)).as("bits %016x", Double.doubleToRawLongBits(x)).isEqualTo(Double.toString(x));
  }

  @Test
  void uniformValuesOnIntervalsAndGrids() {
    AesCtrSource r = AesCtrSource.seeded(11);
    double[] widths = {1, 2 * Math.PI, 6, 20, 1000};
    for (int i = 0; i < 400_000; i++) {
      double w = widths[i % widths.length];
      same((r.nextUniform() - 0.5) * w);
      // A point of a 2^-32 output grid on [-w/2, w/2], as the mechanisms snap to.
      same(-w / 2 + r.nextBounded(1L << 32) * (w * 0x1p-32));
    }
  }

  @Test
  void everyBinade() {
    AesCtrSource r = AesCtrSource.seeded(12);
    for (int e = -1074; e <= 1023; e++) {
      for (int k = 0; k < 200; k++) {
        double x = Math.scalb(1 + r.nextUniform(), e);
        same(x);
        same(-x);
      }
      same(Math.scalb(1.0, e));
    }
  }

  @Test
  void shortDecimalsAndTheirNeighbours() {
    AesCtrSource r = AesCtrSource.seeded(13);
    for (int i = 0; i < 150_000; i++) {
      int digits = 1 + (int) r.nextBounded(17);
      long unscaled = 1 + r.nextBounded(BigDecimal.TEN.pow(digits).longValueExact() - 1);
      double x = new BigDecimal(unscaled).scaleByPowerOfTen(-(int) r.nextBounded(30) + 8).doubleValue();
      same(x);
      same(Math.nextUp(x));
      same(Math.nextDown(x));
    }
  }

  @Test
  void specialValuesAndTheEndsOfThePlainRange() {
    double[] values = {0.0, -0.0, Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, Double.NaN,
      Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e-3, 1e7, 1.0, 0.1, 0.5, 2.5e-3, 9999999.999999998};
    for (double x : values) {
      same(x);
      same(-x);
      same(Math.nextUp(x));
      same(Math.nextDown(x));
    }
  }
}
