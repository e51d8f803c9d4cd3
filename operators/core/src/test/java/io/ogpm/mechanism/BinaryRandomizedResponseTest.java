package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The response's exact ratio {@code (2^53 - T) / T} is at most e^eps, proved against an independent
 * exact lower bound on {@code e^eps - 1} ({@link ExactExpm1}), certified by its realized epsilon,
 * and as close to e^eps as an integer T allows.
 */
class BinaryRandomizedResponseTest {
  static final BigInteger TWO_POW_53 = BigInteger.ONE.shiftLeft(53);

  @ParameterizedTest(name = "eps={0}")
  @ValueSource(doubles = {1e-6, 0.001, 0.1, 0.5, 0.61, 1, 2, 4, 8, 20, 36, 37, 60, 700})
  void theExactRatioIsAtMostExpEpsilonAndNoFurtherBelowThanOneStepOfT(double eps) {
    BinaryRandomizedResponse r = BinaryRandomizedResponse.of(eps);
    long t = r.flipThreshold();
    BigInteger excess = TWO_POW_53.subtract(BigInteger.valueOf(2 * t)); // (2^53 - T) - T
    BigInteger den = BigInteger.valueOf(t);
    assertThat(ExactExpm1.lower(eps).bounds(excess, den))
        .as("(2^53 - 2T) / T <= e^eps - 1")
        .isTrue();
    assertThat(r.realizedEpsilon()).isLessThanOrEqualTo(eps);
    assertThat(ExactExpm1.lower(r.realizedEpsilon()).bounds(excess, den))
        .as("e^realized - 1 >= (2^53 - 2T) / T")
        .isTrue();
    if (t > 1) {
      // T - 1 would exceed the budget: T is the smallest.
      BigInteger smaller = BigInteger.valueOf(t - 1);
      assertThat(
              ExactExpm1.upper(eps)
                  .isExceededBy(TWO_POW_53.subtract(smaller.shiftLeft(1)), smaller))
          .isTrue();
    }
    assertThat(r.keepProbability()).isEqualTo((Math.scalb((double) ((1L << 53) - t), -53)));
  }

  @ParameterizedTest(name = "eps={0}")
  @ValueSource(doubles = {0, -1, Double.NaN, Double.POSITIVE_INFINITY})
  void refusesANonPositiveOrNonFiniteEpsilon(double eps) {
    assertThatThrownBy(() -> BinaryRandomizedResponse.of(eps))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("epsilon");
  }
}
