package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * A statistic whose every moment is known by hand: values 0, 1 and 2, drawn at input x in [0, 1] as
 * two coin flips of chance x with probability 1 - e and evenly otherwise (e = 0.1, a background as
 * a mechanism's). So {@code Psi(x) = (1 - e) 2x + e}, its mean square about 1 is {@code m(x) = (1 -
 * e) (u^2 + 1) / 2 + 2e / 3} (u = 2x - 1) and its variance {@code v(x) = m(x) - (1 - e)^2 u^2 = a +
 * d m(x)} with {@code d = 2e - 1} and {@code a = (1 - e)^2 + 4e (1 - e) / 3}: the variance model is
 * exact, so a window's estimate is {@code a + d s}, s its mean square about 1.
 */
class BinStatisticTest {
  static final double[] VALUES = {0, 1, 2};
  static final double E = 0.1;
  static final double EDGE_SLACK = 1e-9;

  static double[] probabilities(double x) {
    return new double[] {
      (1 - E) * (1 - x) * (1 - x) + E / 3,
      (1 - E) * 2 * x * (1 - x) + E / 3,
      (1 - E) * x * x + E / 3
    };
  }

  static BinStatistic mixedBinomial() {
    int inputs = NormalApproximation.INPUTS;
    double[][] probabilities = new double[inputs + 1][];
    for (int i = 0; i <= inputs; i++) {
      probabilities[i] = probabilities((double) i / inputs);
    }
    return BinStatistic.of(
        0,
        1,
        VALUES,
        MeanIdentification.grid(0, 1, x -> (1 - E) * 2 * x + E),
        MeanIdentification.grid(
            0, 1, x -> (1 - E) * ((2 * x - 1) * (2 * x - 1) + 1) / 2 + 2 * E / 3),
        probabilities,
        EDGE_SLACK);
  }

  @Test
  void keepsTheStatisticsMomentsAtTheEndsAndInTheMiddle() {
    BinStatistic s = mixedBinomial();
    assertThat(s.values()).containsExactly(0, 1, 2);
    // v(0) = v(1) = a + d (1 - e / 3), v(1/2) = a + d ((1 - e) / 2 + 2e / 3).
    double a = (1 - E) * (1 - E) + 4 * E * (1 - E) / 3;
    double d = 2 * E - 1;
    double end = a + d * (1 - E / 3);
    double middle = a + d * ((1 - E) / 2 + 2 * E / 3);
    assertThat(s.sdAt(0)).isCloseTo(Math.sqrt(end), within(1e-12));
    assertThat(s.sdAt(1)).isCloseTo(Math.sqrt(middle), within(1e-12));
    assertThat(s.sdAt(2)).isCloseTo(Math.sqrt(end), within(1e-12));
    assertThat(s.expectationAt(0)).isCloseTo(E, within(1e-15));
    assertThat(s.expectationAt(1)).isCloseTo(1, within(1e-15));
    assertThat(s.expectationAt(2)).isCloseTo(2 - E, within(1e-15));
    assertThat(s.slack()).isGreaterThan(EDGE_SLACK * 2).isLessThan(3 * EDGE_SLACK);
  }

  @Test
  void aWindowsVarianceIsTheModelsAtItsMeanSquareWithoutTheReadingsSpread() {
    BinStatistic s = mixedBinomial();
    double a = (1 - E) * (1 - E) + 4 * E * (1 - E) / 3;
    double d = 2 * E - 1;
    // Readings half at 0.2 and half at 0.8: the expected counts.
    double[] p0 = probabilities(0.2);
    double[] p1 = probabilities(0.8);
    long n = 100_000;
    long[] counts = new long[3];
    for (int o = 0; o < 3; o++) {
      counts[o] = Math.round(n * (p0[o] + p1[o]) / 2);
    }
    long total = counts[0] + counts[1] + counts[2];
    double psibar = (counts[1] + 2.0 * counts[2]) / total;
    double square = (double) (counts[0] + counts[2]) / total;
    double estimate = s.variance().estimate(psibar, square);
    assertThat(estimate).isCloseTo(a + d * square, within(1e-9));
    // The readings' own variance (u = -0.6 and 0.6), not the outputs' spread, which holds Psi's
    // spread between them: ((1 - e) 1.2)^2 / 4 more.
    double truth = a + d * ((1 - E) * (0.36 + 1) / 2 + 2 * E / 3);
    assertThat(estimate).isCloseTo(truth, within(1e-4));
    double spread = square - (psibar - 1) * (psibar - 1);
    assertThat(spread - estimate).isCloseTo((1 - E) * 1.2 * (1 - E) * 1.2 / 4, within(1e-4));
  }

  @Test
  void boundsAreTheWindowsMeanOfPsiStudentisedByItsModelIdentified() {
    BinStatistic s = mixedBinomial();
    long[] counts = {300, 400, 300};
    long n = 1_000;
    double psibar = 1;
    double square = 0.6;
    double root = Math.sqrt(n);
    for (boolean upper : new boolean[] {true, false}) {
      double term = s.variance().term(1.96, upper);
      assertThat(term).isFinite().isGreaterThanOrEqualTo(0);
      // (z + term / sqrt n) (sqrt(Vhat) + sqrt(2 e) range) / sqrt n + slack.
      double margin =
          (1.96 + term / root)
                  * (Math.sqrt(s.variance().estimate(psibar, square))
                      + Math.sqrt(2 * EDGE_SLACK) * 2)
                  / root
              + s.slack();
      assertThat(s.margin(n, 1.96, upper, psibar, square)).isCloseTo(margin, within(1e-15));
      // Psi(x) = 1.8 x + 0.1: the input means allowed are psibar's bounds mapped back, each one
      // grid step further out (the identification's certificate between its grid points).
      double step = 1.0 / MeanIdentification.POINTS;
      if (upper) {
        assertThat(s.upperMean(counts, n, 1.96))
            .isCloseTo((psibar + margin - E) / (2 - 2 * E) + step, within(1e-9));
      } else {
        assertThat(s.lowerMean(counts, n, 1.96))
            .isCloseTo((psibar - margin - E) / (2 - 2 * E) - step, within(1e-9));
      }
    }
  }

  @Test
  void theRegimeIsTheOutputMeansCriterionOnTheStatisticsShape() {
    BinStatistic s = mixedBinomial();
    double z = 1.96;
    long from = 2;
    while (!s.studentised(from, z, 1, true)) {
      from++;
    }
    assertThat(from).isGreaterThan(2).isLessThan(10_000);
    // From there on (the criterion falls with n), and at a half share later.
    assertThat(s.studentised(10 * from, z, 1, true)).isTrue();
    long half = from;
    while (!s.studentised(half, 2.24, 0.5, true)) {
      half++;
    }
    assertThat(half).isGreaterThan(from);
  }

  @Test
  void decreasingValuesAreRejectedAndADecreasingExpectationHasNoIdentification() {
    double[][] probabilities = new double[NormalApproximation.INPUTS + 1][];
    for (int i = 0; i < probabilities.length; i++) {
      probabilities[i] = probabilities((double) i / NormalApproximation.INPUTS);
    }
    double[] squares = MeanIdentification.grid(0, 1, x -> 0.5);
    assertThatThrownBy(
            () ->
                BinStatistic.of(
                    0,
                    1,
                    new double[] {2, 1, 0},
                    MeanIdentification.grid(0, 1, x -> x),
                    squares,
                    probabilities,
                    0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("value 1 is 1.0 after 2.0");
    assertThat(
            BinStatistic.of(
                0, 1, VALUES, MeanIdentification.grid(0, 1, x -> 1 - x), squares, probabilities, 0))
        .isNull();
  }
}
