package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.mechanism.Domain;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The query's rules and the distribution's records: every bad value is refused, named in the
 * message; what is kept is a copy.
 */
class DistributionQueryTest {
  @Test
  void theDefaultAsksForTheDecilesAndTheMedianAndNoExceedance() {
    assertThat(DistributionQuery.DEFAULT.probabilities()).containsExactly(0.1, 0.5, 0.9);
    assertThat(DistributionQuery.DEFAULT.thresholds()).isEmpty();
    assertThat(DistributionQuery.defaultProbabilities()).containsExactly(0.1, 0.5, 0.9);
    assertThat(DistributionQuery.of(null, null).probabilities()).isEmpty();
    assertThat(DistributionQuery.of(new double[] {0.1, 0.5, 0.9}, new double[0]))
        .isEqualTo(DistributionQuery.DEFAULT)
        .hasSameHashCodeAs(DistributionQuery.DEFAULT);
    assertThat(DistributionQuery.DEFAULT.withThresholds(2).toString())
        .isEqualTo("quantiles [0.1, 0.5, 0.9], exceedances [2.0]");
  }

  @Test
  void badProbabilitiesAreNamed() {
    for (double bad : new double[] {0, 1, -0.5, 1.5, Double.NaN}) {
      assertThatThrownBy(() -> DistributionQuery.DEFAULT.withProbabilities(0.5, bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("a quantile's probability must be in (0, 1), got " + bad);
    }
    assertThatThrownBy(() -> DistributionQuery.DEFAULT.withProbabilities(0.5, 0.25))
        .hasMessage("quantile probabilities must increase without repeats, got 0.25 after 0.5");
    assertThatThrownBy(() -> DistributionQuery.DEFAULT.withProbabilities(0.5, 0.5))
        .hasMessage("quantile probabilities must increase without repeats, got 0.5 after 0.5");
    double[] many = new double[DistributionQuery.MAX_PROBABILITIES + 1];
    Arrays.setAll(many, i -> (i + 1) / 40.0);
    assertThatThrownBy(() -> DistributionQuery.DEFAULT.withProbabilities(many))
        .hasMessage("at most 32 quantiles, got 33");
    assertThat(
            DistributionQuery.DEFAULT
                .withProbabilities(Arrays.copyOf(many, DistributionQuery.MAX_PROBABILITIES))
                .probabilities())
        .hasSize(32);
  }

  @Test
  void badThresholdsAreNamed() {
    for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> DistributionQuery.DEFAULT.withThresholds(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("an exceedance threshold must be a finite number, got " + bad);
    }
    assertThatThrownBy(() -> DistributionQuery.DEFAULT.withThresholds(3, 2))
        .hasMessage("exceedance thresholds must increase without repeats, got 2.0 after 3.0");
    double[] many = new double[DistributionQuery.MAX_THRESHOLDS + 1];
    Arrays.setAll(many, i -> i);
    assertThatThrownBy(() -> DistributionQuery.DEFAULT.withThresholds(many))
        .hasMessage("at most 32 exceedance thresholds, got 33");
    DistributionQuery q = DistributionQuery.DEFAULT.withThresholds(0, 360);
    assertThat(q.requireWithin(Domain.circular(0, 360))).isSameAs(q);
    assertThatThrownBy(() -> q.requireWithin(Domain.classical(0, 100)))
        .hasMessage("exceedance threshold 360.0 is outside the domain [0.0, 100.0]");
  }

  @Test
  void theLimitsAndTheRepeatsAreExact() {
    double[] most = new double[DistributionQuery.MAX_THRESHOLDS];
    Arrays.setAll(most, i -> i);
    assertThat(DistributionQuery.DEFAULT.withThresholds(most).thresholds()).containsExactly(most);
    assertThatThrownBy(() -> DistributionQuery.DEFAULT.withThresholds(1, 2, 2))
        .hasMessage("exceedance thresholds must increase without repeats, got 2.0 after 2.0");
    assertThat(DistributionQuery.DEFAULT.withThresholds(-0.5, 0, 0.5).thresholds())
        .containsExactly(-0.5, 0, 0.5);
  }

  @Test
  void queriesDifferingInEitherListAreUnequalAndHashApart() {
    DistributionQuery q = DistributionQuery.of(new double[] {0.25, 0.75}, new double[] {1, 2});
    List<DistributionQuery> others =
        List.of(
            q.withProbabilities(0.25),
            q.withProbabilities(0.25, 0.5),
            q.withThresholds(1),
            q.withThresholds(1, 3),
            DistributionQuery.of(null, null),
            DistributionQuery.DEFAULT);
    for (DistributionQuery other : others) {
      assertThat(q).as("against %s", other).isNotEqualTo(other);
      assertThat(q.hashCode()).as("against %s", other).isNotEqualTo(other.hashCode());
    }
    assertThat(q).isNotEqualTo(q.toString()).isNotEqualTo(null);
    assertThat(q)
        .isEqualTo(q.withProbabilities(0.25, 0.75).withThresholds(1, 2))
        .hasSameHashCodeAs(q.withThresholds(1, 2));
  }

  @Test
  void theQueryKeepsCopies() {
    double[] p = {0.25, 0.75};
    DistributionQuery q = DistributionQuery.of(p, null);
    p[0] = 0.5;
    q.probabilities()[1] = 0.5;
    assertThat(q.probabilities()).containsExactly(0.25, 0.75);
  }

  @Test
  void theRecordsRefuseBadValuesNamingThem() {
    Interval i = new Interval(0.5, 0.25, 0.75);
    assertThatThrownBy(() -> new QuantileEstimate(1.0, i))
        .hasMessage("a quantile's probability must be in (0, 1), got 1.0");
    assertThatThrownBy(() -> new QuantileEstimate(0.0, i))
        .hasMessage("a quantile's probability must be in (0, 1), got 0.0");
    assertThat(new QuantileEstimate(Double.MIN_VALUE, i).probability()).isPositive();
    assertThatThrownBy(() -> new QuantileEstimate(0.5, null))
        .hasMessage("the quantile 0.5 needs an interval");
    assertThatThrownBy(() -> new ExceedanceEstimate(Double.NaN, i))
        .hasMessage("an exceedance threshold must be a finite number, got NaN");
    assertThatThrownBy(() -> new ExceedanceEstimate(2, null))
        .hasMessage("the exceedance of 2.0 needs an interval");
    CumulativeBand band =
        new CumulativeBand(new double[] {0, 1}, new double[] {0, 1}, new double[] {1, 1});
    assertThatThrownBy(() -> new DistributionEstimate(null, List.of(), List.of()))
        .hasMessage("a distribution estimate needs a cumulative band, got null");
    assertThatThrownBy(() -> new DistributionEstimate(band, null, List.of()))
        .hasMessage("a distribution estimate's quantiles must be a list without nulls, got null");
    assertThatThrownBy(
            () ->
                new DistributionEstimate(band, List.of(), Arrays.asList((ExceedanceEstimate) null)))
        .hasMessage(
            "a distribution estimate's exceedances must be a list without nulls, got [null]");
    java.util.ArrayList<QuantileEstimate> quantiles = new java.util.ArrayList<>();
    quantiles.add(new QuantileEstimate(0.5, i));
    DistributionEstimate d = new DistributionEstimate(band, quantiles, List.of());
    quantiles.clear();
    assertThat(d.quantiles()).hasSize(1);
    assertThatThrownBy(() -> d.quantiles().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
