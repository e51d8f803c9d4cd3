package io.ogpm.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
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
  @ValueSource(
      strings = {
        "",
        "1",
        "d",
        "1w",
        "1D",
        "1.5h",
        "1 d",
        "P1W",
        "-1d",
        "P1M",
        "1y",
        "99999999999999d"
      })
  void otherPeriodsAreErrors(String text) {
    assertThatThrownBy(() -> BudgetConfig.parsePeriod(text))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "budget: period must be an ISO-8601 duration (P1D, PT12H) or a whole number"
                + " with unit d, h, m or s (1d, 12h, 30m), got '"
                + text
                + "'");
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
    Duration day = Duration.ofHours(24);
    assertThat(b)
        .isEqualTo(BudgetConfig.of(2.5, day))
        .isEqualTo(BudgetConfig.of(2.5, day, BudgetClock.LOG_APPEND_TIME, day))
        .isNotEqualTo(BudgetConfig.of(2.5, Duration.ofHours(23)))
        .isNotEqualTo(BudgetConfig.of(2.0, day))
        .isNotEqualTo(BudgetConfig.of(2.5, day, BudgetClock.LOG_APPEND_TIME, Duration.ofHours(1)))
        .isNotEqualTo(BudgetConfig.of(2.5, day, BudgetClock.INGESTION_TIME, null));
    assertThat(PrivacyConfigTest.roundTrip(b)).isEqualTo(b).hasSameHashCodeAs(b);
    BudgetConfig ingestion = BudgetConfig.of(2.5, day, BudgetClock.INGESTION_TIME, null);
    assertThat(PrivacyConfigTest.roundTrip(ingestion))
        .isEqualTo(ingestion)
        .hasSameHashCodeAs(ingestion);
  }

  @Test
  void theBrokersLogAppendTimeIsTheDefaultClockWithALagOfOnePeriod() {
    BudgetConfig b = BudgetConfig.of(1, Duration.ofHours(6));
    assertThat(b.clock()).isEqualTo(BudgetClock.LOG_APPEND_TIME);
    assertThat(b.maxLag()).isEqualTo(Duration.ofHours(6));
    assertThat(b).hasToString("budget{epsilon=1.0 per PT6H of log-append-time, max-lag PT6H}");
  }

  /**
   * The spending a budget allows: its epsilon with a relative slack of 1e-12, so that sums of costs
   * that meet it only up to rounding fit, and not a double more.
   */
  @Test
  void spendingIsAllowedUpToTheEpsilonTimesOnePlusTheSlack() {
    BudgetConfig b = BudgetConfig.of(0.3, Duration.ofDays(1));
    assertThat(b.allows(0.1 + 0.1 + 0.1)).isTrue(); // 0.30000000000000004
    assertThat(b.allows(0.3 * (1 + 1e-12))).isTrue();
    assertThat(b.allows(Math.nextUp(0.3 * (1 + 1e-12)))).isFalse();
    assertThat(b.allows(0.3 + 1e-9)).isFalse();
    assertThat(b.allows(Double.NaN)).isFalse();
    assertThat(b.allows(0)).isTrue();
  }

  @Test
  void ingestionTimeHasNoLag() {
    BudgetConfig b = BudgetConfig.of(1, Duration.ofHours(6), BudgetClock.INGESTION_TIME, null);
    assertThat(b.maxLag()).isZero();
    assertThat(b).hasToString("budget{epsilon=1.0 per PT6H of ingestion-time}");
    assertThatThrownBy(
            () ->
                BudgetConfig.of(1, Duration.ofHours(6), BudgetClock.INGESTION_TIME, Duration.ZERO))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("budget: max-lag applies to clock log-append-time only");
  }

  @Test
  void aLagOfZeroAndOfTheLongestDurationAreAccepted() {
    assertThat(
            BudgetConfig.of(1, Duration.ofDays(1), BudgetClock.LOG_APPEND_TIME, Duration.ZERO)
                .maxLag())
        .isZero();
    assertThat(
            BudgetConfig.of(
                    1,
                    Duration.ofDays(36_500),
                    BudgetClock.LOG_APPEND_TIME,
                    Duration.ofDays(36_500))
                .maxLag())
        .isEqualTo(Duration.ofDays(36_500));
    assertThatThrownBy(
            () ->
                BudgetConfig.of(
                    1, Duration.ofDays(1), BudgetClock.LOG_APPEND_TIME, Duration.ofDays(36_501)))
        .isInstanceOf(ConfigException.class)
        .hasMessage("budget: max-lag must be at most 36500 days, got PT876024H");
    assertThatThrownBy(
            () ->
                BudgetConfig.of(
                    1, Duration.ofDays(1), BudgetClock.LOG_APPEND_TIME, Duration.ofNanos(1)))
        .isInstanceOf(ConfigException.class)
        .hasMessage("budget: max-lag must be a whole number of milliseconds, got PT0.000000001S");
  }

  /** Periods and lags are whole milliseconds, not whole seconds. */
  @ParameterizedTest
  @ValueSource(strings = {"PT0.001S", "PT1.5S", "PT59.999S"})
  void fractionsOfASecondInWholeMillisecondsAreAccepted(String text) {
    Duration d = Duration.parse(text);
    assertThat(BudgetConfig.of(1, d).period()).isEqualTo(d);
    assertThat(BudgetConfig.of(1, Duration.ofDays(1), BudgetClock.LOG_APPEND_TIME, d).maxLag())
        .isEqualTo(d);
    assertThatThrownBy(() -> BudgetConfig.of(1, d.plusNanos(1)))
        .isInstanceOf(ConfigException.class)
        .hasMessage("budget: period must be a whole number of milliseconds, got " + d.plusNanos(1));
  }

  @ParameterizedTest
  @CsvSource({"log-append-time, LOG_APPEND_TIME", "ingestion-time, INGESTION_TIME"})
  void clocksByName(String id, BudgetClock clock) {
    assertThat(BudgetClock.parse(id)).isEqualTo(clock);
    assertThat(clock.id()).isEqualTo(id);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "LogAppendTime", "LOG_APPEND_TIME", "create-time", "event-time"})
  void otherClocksAreErrors(String id) {
    assertThatThrownBy(() -> BudgetClock.parse(id))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("clock must be log-append-time or ingestion-time, got '" + id + "'");
  }
}
