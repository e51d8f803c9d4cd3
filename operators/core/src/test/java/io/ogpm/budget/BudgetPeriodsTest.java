package io.ogpm.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The calendar at its edges: periods of a day, max-lag six hours. */
class BudgetPeriodsTest {
  static final long HOUR = 3_600_000L;
  static final long DAY = 24 * HOUR;
  static final BudgetPeriods DAYS =
      new BudgetPeriods(
          BudgetConfig.of(1, Duration.ofDays(1), BudgetClock.LOG_APPEND_TIME, Duration.ofHours(6)));

  @Test
  void aPeriodCoversItsStartButNotItsEndAndTimesBefore1970RoundDown() {
    assertThat(DAYS.of(10 * DAY)).isEqualTo(10);
    assertThat(DAYS.of(11 * DAY - 1)).isEqualTo(10);
    assertThat(DAYS.of(-1)).isEqualTo(-1);
  }

  @Test
  void aPeriodClosesMaxLagAfterItsEnd() {
    assertThat(DAYS.closed(10, 11 * DAY + 6 * HOUR - 1)).isFalse();
    assertThat(DAYS.closed(10, 11 * DAY + 6 * HOUR)).isTrue();
  }

  @Test
  void onlyPeriodsBeyondTheNextOneAreAhead() {
    assertThat(DAYS.ahead(11, 10 * DAY)).isFalse();
    assertThat(DAYS.ahead(12, 11 * DAY - 1)).isTrue();
    assertThat(DAYS.ahead(12, 11 * DAY)).isFalse();
  }

  @Test
  void aPeriodIsForgottenOnePeriodAfterItClosed() {
    assertThat(DAYS.forgetAt(10)).isEqualTo(12 * DAY + 6 * HOUR);
  }
}
