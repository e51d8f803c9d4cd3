package io.ogpm.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class BudgetConfigTest {
  @ParameterizedTest
  @CsvSource({
      "P1D, PT24H",
      "PT12H, PT12H",
      "PT30M, PT30M",
      "P2DT3H, PT51H",
      "pt90s, PT1M30S",
      "1d, PT24H",
      "12h, PT12H",
      "30m, PT30M",
      "45s, PT45S",
      "7d, PT168H",
  })
  void periodsInBothForms(String text, String iso) {
    assertThat(BudgetConfig.parsePeriod(text)).isEqualTo(Duration.parse(iso));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "1", "d", "1w", "1D", "1.5h", "1 d", "P1W", "-1d", "P1M", "1y",
      "99999999999999d"})
  void otherPeriodsAreErrors(String text) {
    assertThatThrownBy(() -> BudgetConfig.parsePeriod(text))
        .isInstanceOf(ConfigException.class)
        .hasMessage("budget: period must be an ISO-8601 duration (P1D, PT12H) or a whole number"
            + " with unit d, h, m or s (1d, 12h, 30m), got '" + text + "'");
  }

  @ParameterizedTest
  @ValueSource(strings = {"PT0S", "0d", "-PT1H", "PT-1H", "P-1D"})
  void periodMustBePositive(String text) {
    Duration period = BudgetConfig.parsePeriod(text);
    assertThatThrownBy(() -> BudgetConfig.of(1, period))
        .isInstanceOf(ConfigException.class)
        .hasMessage("budget: period must be positive, got " + period);
  }

  @ParameterizedTest
  @ValueSource(doubles = {0, -1, Double.NaN, Double.POSITIVE_INFINITY})
  void epsilonMustBeFiniteAndPositive(double epsilon) {
    assertThatThrownBy(() -> BudgetConfig.of(epsilon, Duration.ofDays(1)))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("budget: epsilon must be ")
        .hasMessageEndingWith("got " + epsilon);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1d", "P1D"})
  void valueSemantics(String period) throws Exception {
    BudgetConfig b = BudgetConfig.of(2.5, BudgetConfig.parsePeriod(period));
    assertThat(b).isEqualTo(BudgetConfig.of(2.5, Duration.ofHours(24)))
        .isNotEqualTo(BudgetConfig.of(2.5, Duration.ofHours(23)))
        .isNotEqualTo(BudgetConfig.of(2.0, Duration.ofHours(24)));
    assertThat(PrivacyConfigTest.roundTrip(b)).isEqualTo(b).hasSameHashCodeAs(b);
  }
}
