package io.ogpm.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ContributionBoundTest {
  private static final String FIELDS =
      "user-field: user\nfields:\n  - {name: a, min: 0, max: 1, epsilon: 1}\n";

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
