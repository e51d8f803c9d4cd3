package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * A statistic whose every moment is known by hand: {@code psi = [output in the upper bin]} of two
 * bins, with {@code P(upper | x) = x} on [0, 1], so {@code Psi(x) = x} and psi is Bernoulli(x). Its
 * variance {@code x (1 - x)}, skewness {@code (1 - 2x) / sqrt(x (1 - x))} and excess kurtosis
 * {@code (1 - 6 x (1 - x)) / (x (1 - x))} check the moments the statistic keeps, and the identity
 * {@code Psi} makes its bounds the studentised bounds of psibar itself.
 */
class BinStatisticTest {
  static final double[] VALUES = {0, 1};

  /** Inputs 0.1, 0.3, 0.5, 0.7 and 0.9: an odd number, equally spaced, as {@code of} expects. */
  static final double[] INPUTS = {0.1, 0.3, 0.5, 0.7, 0.9};

  static final double EDGE_SLACK = 1e-3;

  static BinStatistic bernoulli() {
    double[][] probabilities = new double[INPUTS.length][];
    for (int i = 0; i < INPUTS.length; i++) {
      probabilities[i] = new double[] {1 - INPUTS[i], INPUTS[i]};
    }
    return BinStatistic.of(
        0, 1, VALUES, MeanIdentification.grid(0, 1, x -> x), probabilities, EDGE_SLACK);
  }

  @Test
  void keepsTheStatisticsMomentsAtTheEndsAndInTheMiddle() {
    BinStatistic s = bernoulli();
    assertThat(s.values()).containsExactly(0, 1);
    // Standard deviations at the first, middle and last inputs: sqrt(0.09), sqrt(0.25), sqrt(0.09).
    assertThat(s.sdAt(0)).isCloseTo(0.3, within(1e-12));
    assertThat(s.sdAt(1)).isCloseTo(0.5, within(1e-12));
    assertThat(s.sdAt(2)).isCloseTo(0.3, within(1e-12));
    assertThat(s.expectationAt(0)).isEqualTo(0);
    assertThat(s.expectationAt(1)).isCloseTo(0.5, within(1e-15));
    assertThat(s.expectationAt(2)).isEqualTo(1);
    // Skewed right most at x = 0.1, left most at x = 0.9: 0.8 / 0.3 either way.
    assertThat(s.rightSkew()).isCloseTo(0.8 / 0.3, within(1e-12));
    assertThat(s.leftSkew()).isCloseTo(0.8 / 0.3, within(1e-12));
    // The middle half: inputs 0.3, 0.5 and 0.7, so E psi = 0.5 and the spread is 0.5 - 0.25.
    assertThat(s.middleHalf()).containsExactly(new double[] {0.5, 0.25}, within(1e-12));
    // Skewness 8/3 and excess kurtosis (1 - 0.54) / 0.09 at x = 0.1 (|-2| at 0.5 is smaller).
    double kurtosis = (1 - 6 * 0.09) / 0.09;
    assertThat(s.normalFrom(1.96, 0.005))
        .isEqualTo(NormalApproximation.minimumCountAt(0.8 / 0.3, kurtosis, 1.96, 0.005));
    assertThat(s.slack()).isCloseTo(EDGE_SLACK, within(1e-9)).isGreaterThan(EDGE_SLACK);
  }

  @Test
  void boundsAreTheStudentisedBoundsOfTheWindowsMeanOfPsi() {
    BinStatistic s = bernoulli();
    long[] counts = {700, 300};
    long n = 1_000;
    double spread = 0.3 - 0.3 * 0.3;
    double half = BinStatistic.studentised(1.96, 0.8 / 0.3, n) * Math.sqrt(spread / n) + s.slack();
    // Psi is the identity, so the input means allowed are psibar's bounds themselves, each one grid
    // step further out (the identification's certificate between its grid points).
    double step = 1.0 / MeanIdentification.POINTS;
    assertThat(s.upperMean(counts, n, 1.96)).isCloseTo(0.3 + half + step, within(1e-9));
    assertThat(s.lowerMean(counts, n, 1.96)).isCloseTo(0.3 - half - step, within(1e-9));
    // The skewness term: z + g1 (2 z^2 + 1) / (6 sqrt n), nothing for a statistic skewed the other
    // way.
    assertThat(BinStatistic.studentised(2, 3, 100)).isCloseTo(2 + 3 * 9 / 60.0, within(1e-15));
    assertThat(BinStatistic.studentised(2, -3, 100)).isEqualTo(2);
  }

  @Test
  void decreasingValuesAreRejectedAndADecreasingExpectationHasNoIdentification() {
    double[][] probabilities = {{0.9, 0.1}, {0.5, 0.5}, {0.1, 0.9}};
    assertThatThrownBy(
            () ->
                BinStatistic.of(
                    0,
                    1,
                    new double[] {1, 0},
                    MeanIdentification.grid(0, 1, x -> x),
                    probabilities,
                    0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("value 1 is 0.0 after 1.0");
    assertThat(
            BinStatistic.of(
                0, 1, VALUES, MeanIdentification.grid(0, 1, x -> 1 - x), probabilities, 0))
        .isNull();
  }
}
