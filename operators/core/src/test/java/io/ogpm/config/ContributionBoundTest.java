package io.ogpm.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ContributionBoundTest {
  private static final String FIELDS =
      "user-field: user\nfields:\n  - {name: a, min: 0, max: 1, epsilon: 1}\n";

  /** Windows and lags are whole milliseconds, as the job's clocks are. */
  @Test
  void aWindowOrLagBelowAMillisecondIsRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                ContributionBound.of(
                    1, java.time.Duration.ofNanos(1_500_000), BudgetClock.LOG_APPEND_TIME, null))
        .hasMessage("contribution: window must be a whole number of milliseconds, got PT0.0015S");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                ContributionBound.of(
                    1,
                    java.time.Duration.ofSeconds(10),
                    BudgetClock.LOG_APPEND_TIME,
                    java.time.Duration.ofNanos(2_500_000)))
        .hasMessage("contribution: max-lag must be a whole number of milliseconds, got PT0.0025S");
  }

  @Test
  void readFromTheFileWithItsDefaults() {
    PrivacyConfig c = PrivacyConfig.parse(FIELDS + "contribution: {window: 10s}\n");
    ContributionBound bound = c.contribution().orElseThrow();
    assertThat(bound)
        .isEqualTo(
            ContributionBound.of(1, Duration.ofSeconds(10), BudgetClock.LOG_APPEND_TIME, null));
    assertThat(bound.records()).isEqualTo(1);
    assertThat(bound.maxLag()).isEqualTo(Duration.ofSeconds(1));
    assertThat(bound.clock()).isEqualTo(BudgetClock.LOG_APPEND_TIME);
    assertThat(bound)
        .hasToString(
            "contribution{at most 1 record per user per PT10S of log-append-time, max-lag PT1S}");
    PrivacyConfig ingestion =
        PrivacyConfig.parse(
            FIELDS + "contribution: {records: 5, window: 1m, clock: ingestion-time}\n");
    assertThat(ingestion.contribution().orElseThrow().maxLag()).isZero();
    assertThat(ingestion.contribution().orElseThrow().records()).isEqualTo(5);
    assertThat(ingestion).isNotEqualTo(c).doesNotHaveSameHashCodeAs(c);
    assertThat(PrivacyConfig.parse(FIELDS).contribution()).isEmpty();
    assertThat(c.toString()).contains("contribution{at most 1 record per");
  }
}
