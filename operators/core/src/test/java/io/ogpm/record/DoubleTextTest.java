package io.ogpm.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.mechanism.random.AesCtrSource;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DoubleText} writes every double as {@link Double#toString} does, byte for byte. Checked on
 * values drawn where perturbed outputs lie (uniform on intervals, on the output grids of the
 * sample's fields), on every binade of both notations, on short decimals and their neighbouring
 * doubles (where a shortest representation is most likely to tie or to sit on a rounding boundary),
 * and on the special values. Every value is also written into a buffer after other bytes, which it
 * must not overwrite, and within the {@link DoubleText#MAX_CHARS} bytes it may use (it writes all
 * 17 digits before it drops trailing zeroes).
 */
class DoubleTextTest {
  private static final byte[] BUFFER = new byte[3 + DoubleText.MAX_CHARS + 3];

  private static void same(double x) {
    String expected = Double.toString(x);
    byte[] alone = new byte[DoubleText.MAX_CHARS];
    assertThat(new String(alone, 0, DoubleText.write(x, alone, 0), StandardCharsets.ISO_8859_1))
        .as("bits %016x", Double.doubleToRawLongBits(x))
        .isEqualTo(expected);
    Arrays.fill(BUFFER, (byte) '#');
    int end = DoubleText.write(x, BUFFER, 3);
    assertThat(new String(BUFFER, 3, end - 3, StandardCharsets.ISO_8859_1)).isEqualTo(expected);
    int outside = 0;
    for (int i = 0; i < BUFFER.length; i++) {
      if ((i < 3 || i >= 3 + DoubleText.MAX_CHARS) && BUFFER[i] != '#') {
        outside++;
      }
    }
    assertThat(outside).as("bytes written outside the room for %s", expected).isZero();
  }

  /**
   * Eight digits in one long: every m of a stride through [0, 10^8) (a prime stride, so every digit
   * position takes every value), and every m of the first and last 20,000, as {@code %08d} writes
   * them.
   */
  @Test
  void eightDigitsInOneLong() {
    byte[] bytes = new byte[8];
    for (long m = 0; m < 100_000_000; m += m < 20_000 || m > 99_980_000 ? 1 : 9_973) {
      long digits = DoubleText.digits((int) m);
      for (int b = 0; b < 8; b++) {
        bytes[b] = (byte) (digits >>> 8 * b);
      }
      assertThat(new String(bytes, StandardCharsets.ISO_8859_1))
          .isEqualTo(String.format("%08d", m));
    }
  }

  /**
   * The powers of ten, computed at class loading from their definition, are the entries of
   * Schubfach's own table (as shipped in jackson-core, read by reflection).
   */
  @Test
  void powersOfTenAreSchubfachsTable() throws Exception {
    Class<?> math = Class.forName("com.fasterxml.jackson.core.io.schubfach.MathUtils");
    Method g1 = math.getDeclaredMethod("g1", int.class);
    Method g0 = math.getDeclaredMethod("g0", int.class);
    g1.setAccessible(true);
    g0.setAccessible(true);
    for (int k = DoubleText.K_LO; k <= DoubleText.K_HI; k++) {
      assertThat(DoubleText.g(k))
          .as("k = %d", k)
          .containsExactly((long) g1.invoke(null, k), (long) g0.invoke(null, k));
    }
    // Beyond the range kept, where 10^-k is a fraction as well as where it is a whole number.
    for (int k : new int[] {-324, -100, -1, 0, 1, 17, 292}) {
      assertThat(DoubleText.g(k))
          .as("k = %d", k)
          .containsExactly((long) g1.invoke(null, k), (long) g0.invoke(null, k));
    }
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

  /**
   * 2,000 values in each binade of the plain range, where the digits are written here; 50 in each
   * of the others, where {@code Double.toString} is called (what is checked there is which side of
   * the range a value falls on, and the copy of its text).
   *
   * <p>Tagged slow: a few seconds, and no mutant of the record path is killed by it alone. Surefire
   * runs it; mutation testing leaves it out, where every surviving mutant would rerun it.
   */
  @Test
  @Tag("slow")
  void everyBinade() {
    AesCtrSource r = AesCtrSource.seeded(12);
    for (int e = -1074; e <= 1023; e++) {
      boolean plain =
          Math.scalb(2.0, e) > DoubleText.PLAIN_MIN && Math.scalb(1.0, e) < DoubleText.PLAIN_MAX;
      for (int k = 0; k < (plain ? 2_000 : 50); k++) {
        double x = Math.scalb(1 + r.nextUniform(), e);
        same(x);
        same(-x);
      }
      same(Math.scalb(1.0, e));
    }
  }

  @Test
  @Tag("slow") // 450,000 texts; no mutant that faster tests leave
  void shortDecimalsAndTheirNeighbours() {
    AesCtrSource r = AesCtrSource.seeded(13);
    for (int i = 0; i < 150_000; i++) {
      int digits = 1 + (int) r.nextBounded(17);
      long unscaled = 1 + r.nextBounded(BigDecimal.TEN.pow(digits).longValueExact() - 1);
      double x =
          new BigDecimal(unscaled).scaleByPowerOfTen(-(int) r.nextBounded(30) + 8).doubleValue();
      same(x);
      same(Math.nextUp(x));
      same(Math.nextDown(x));
    }
  }

  @Test
  void specialValuesAndTheEndsOfThePlainRange() {
    double[] values = {
      0.0,
      -0.0,
      Double.MIN_VALUE,
      Double.MIN_NORMAL,
      Double.MAX_VALUE,
      Double.NaN,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY,
      1e-3,
      1e7,
      1.0,
      0.1,
      0.5,
      2.5e-3,
      9999999.999999998
    };
    for (double x : values) {
      same(x);
      same(-x);
      same(Math.nextUp(x));
      same(Math.nextDown(x));
    }
  }
}
