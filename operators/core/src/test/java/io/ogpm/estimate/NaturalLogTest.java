package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.random.AesCtrSource;
import org.junit.jupiter.api.Test;

/**
 * {@link NaturalLog} against {@code StrictMath.log} (fdlibm, within one ulp): within 2 ulp of the
 * result plus {@link NaturalLog#ABSOLUTE_ERROR}, on values spread over every binade, around 1
 * (where the result is tiny and the exponent changes; within 2 ulp alone there), at and between the
 * table's points, on the ratios {@code c / (n pi)} the deviance takes, and the special values.
 */
class NaturalLogTest {
  private static void assertClose(double x) {
    double expected = StrictMath.log(x);
    double actual = NaturalLog.of(x);
    double tolerance = 2 * Math.ulp(expected) + NaturalLog.ABSOLUTE_ERROR;
    if (!(Math.abs(actual - expected) <= tolerance)) {
      // One failure message with the argument's bits rather than millions of assertions.
      assertThat(actual)
          .as("ln(%s) (bits %x)", x, Double.doubleToRawLongBits(x))
          .isEqualTo(expected);
    }
  }

  @Test
  void everyBinade() {
    AesCtrSource bits = AesCtrSource.seeded(5);
    for (int e = -1022; e <= 1023; e++) {
      for (int i = 0; i < 500; i++) {
        assertClose(Math.scalb(1 + bits.nextUniform(), e));
      }
      assertClose(Math.scalb(1.0, e));
      assertClose(Math.nextDown(Math.scalb(1.0, e + 1)));
    }
  }

  @Test
  void aroundOne() {
    AesCtrSource bits = AesCtrSource.seeded(6);
    for (int i = 0; i < 200_000; i++) {
      double d = Math.scalb(bits.nextUniform(), -(int) (bits.nextUniform() * 60));
      assertClose(1 + d);
      assertClose(1 - d);
    }
    for (int i = 1; i < 2_000; i++) {
      assertClose(Math.nextUp(1.0) + (i - 1) * Math.ulp(1.0));
      assertClose(1 - i * Math.ulp(0.5));
    }
    assertThat(NaturalLog.of(1)).isEqualTo(0.0);
  }

  /** Within 2^-9 of 1 only the series is left: 2 ulp of the (tiny) result, no absolute slack. */
  @Test
  void nearOneToTheUlp() {
    AesCtrSource bits = AesCtrSource.seeded(8);
    for (int i = 0; i < 200_000; i++) {
      double d = Math.scalb(bits.nextUniform(), -9 - (int) (bits.nextUniform() * 50));
      for (double x : new double[] {1 + d, 1 - d}) {
        double expected = StrictMath.log(x);
        assertThat(NaturalLog.of(x))
            .as("ln(%s)", x)
            .isCloseTo(expected, within(2 * Math.ulp(expected)));
      }
    }
  }

  @Test
  void atAndBetweenTheTablesPoints() {
    for (int k = 0; k <= 128; k++) {
      double f = 1 + k / 128.0;
      for (int e = -3; e <= 3; e++) {
        double x = Math.scalb(f, e);
        assertClose(x);
        assertClose(Math.nextUp(x));
        assertClose(Math.nextDown(x));
        // Halfway between two points, where the nearest one changes.
        assertClose(Math.scalb(f + 1 / 256.0, e));
        assertClose(Math.nextDown(Math.scalb(f + 1 / 256.0, e)));
      }
    }
  }

  @Test
  void theDeviancesRatios() {
    AesCtrSource bits = AesCtrSource.seeded(7);
    for (int i = 0; i < 200_000; i++) {
      long n = 1 + (long) Math.scalb(bits.nextUniform(), 24);
      long c = 1 + (long) (bits.nextUniform() * n);
      double pi = Math.max(bits.nextUniform() * bits.nextUniform(), 1e-300);
      assertClose(c / (n * pi));
    }
  }

  @Test
  void specialValuesAreStrictMaths() {
    double[] specials = {
      0.0,
      -0.0,
      -1,
      Double.MIN_VALUE,
      Double.MIN_NORMAL / 3,
      Double.MIN_NORMAL,
      Double.MAX_VALUE,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY,
      Double.NaN
    };
    for (double x : specials) {
      assertThat(Double.doubleToLongBits(NaturalLog.of(x)))
          .as("ln(%s)", x)
          .isEqualTo(Double.doubleToLongBits(StrictMath.log(x)));
    }
  }
}
