package io.ogpm.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import io.ogpm.config.ConfigException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A paced budget: 48 a day in slices every hour (2 an hour), records of 1.5 on the ingestion-time
 * clock. A user sending all day is released about evenly across the day instead of in its first
 * minutes; one who was away may spend what accumulated at once; no day's spending exceeds 48.
 */
class BudgetPacingTest {
  static final long DAY = Instant.parse("2026-03-02T00:00:00Z").toEpochMilli();
  static final long HOUR = Duration.ofHours(1).toMillis();

  private final BudgetConfig paced =
      BudgetConfig.of(48, Duration.ofDays(1), BudgetClock.INGESTION_TIME, null)
          .withPacing(Duration.ofHours(1));

  @Test
  void theAllowanceGrowsBySlicesAndCarriesOverWithinThePeriod() {
    assertThat(paced.allowance(0)).isEqualTo(2);
    assertThat(paced.allowance(HOUR - 1)).isEqualTo(2);
    assertThat(paced.allowance(HOUR)).isEqualTo(4);
    assertThat(paced.allowance(9 * HOUR + 5)).isEqualTo(20);
    assertThat(paced.allowance(24 * HOUR - 1)).isEqualTo(48);
    assertThat(paced.firstSlice()).isEqualTo(2);
    BudgetConfig plain = BudgetConfig.of(48, Duration.ofDays(1));
    assertThat(plain.allowance(0)).isEqualTo(48);
    assertThat(plain.pacing()).isEmpty();
    assertThat(paced.pacing()).contains(Duration.ofHours(1));
    assertThat(paced)
        .isNotEqualTo(plain)
        .hasToString("budget{epsilon=48.0 per PT24H of ingestion-time, paced every PT1H}");
  }

  @Test
  void aUserSendingAllDayIsReleasedInEveryHourNotOnlyInTheFirst() throws Exception {
    BudgetRule rule = new BudgetRule(paced);
    Map<Long, Double> spent = new HashMap<>();
    int[] releasedByHour = new int[24];
    int refusedForNow = 0;
    for (long t = DAY; t < DAY + 24 * HOUR; t += 10 * 60_000) { // a record every 10 minutes
      BudgetDecision d = rule.decide(t, 0, null, p -> spent.getOrDefault(p, 0.0), 1.5);
      if (d instanceof BudgetDecision.Released r) {
        spent.put(r.period(), r.spent());
        releasedByHour[(int) ((t - DAY) / HOUR)]++;
      } else if (spent.get(rule.periods().of(t)) < 48) {
        assertThat(((BudgetDecision.Refused) d).refusal())
            .isEqualTo(BudgetDecision.Refusal.ALLOWANCE_SPENT);
        refusedForNow++;
      } else {
        assertThat(((BudgetDecision.Refused) d).refusal())
            .isEqualTo(BudgetDecision.Refusal.BUDGET_EXHAUSTED);
      }
    }
    // 2 an hour at 1.5 a record: one record in each hour, and a second in every third (carry-over).
    assertThat(java.util.Arrays.stream(releasedByHour).boxed())
        .allSatisfy(n -> assertThat(n).isBetween(1, 2));
    assertThat(spent.values()).containsExactly(48.0);
    // By the end of hour k, floor(2k / 1.5) records: the day's 32th is the last hour's second, and
    // its four later records find the day's budget spent; the other 108 refusals wait for a slice.
    assertThat(refusedForNow).isEqualTo(144 - 32 - 4);
  }

  @Test
  void aUserAwayUntilEveningSpendsWhatAccumulatedAtOnce() throws Exception {
    BudgetRule rule = new BudgetRule(paced);
    Map<Long, Double> spent = new HashMap<>();
    int released = 0;
    long evening = DAY + 18 * HOUR;
    for (int i = 0; i < 40; i++) {
      BudgetDecision d = rule.decide(evening + i, 0, null, p -> spent.getOrDefault(p, 0.0), 1.5);
      if (d instanceof BudgetDecision.Released r) {
        spent.put(r.period(), r.spent());
        released++;
      }
    }
    // 19 slices have begun by 18:00: 38, that is 25 records of 1.5.
    assertThat(released).isEqualTo(25);
    // Without pacing the same burst spends the whole day's budget: 32 records.
    BudgetRule plain =
        new BudgetRule(BudgetConfig.of(48, Duration.ofDays(1), BudgetClock.INGESTION_TIME, null));
    Map<Long, Double> spentPlain = new HashMap<>();
    int releasedPlain = 0;
    for (int i = 0; i < 40; i++) {
      BudgetDecision d =
          plain.decide(evening + i, 0, null, p -> spentPlain.getOrDefault(p, 0.0), 1.5);
      if (d instanceof BudgetDecision.Released r) {
        spentPlain.put(r.period(), r.spent());
        releasedPlain++;
      }
    }
    assertThat(releasedPlain).isEqualTo(32);
  }

  @Test
  void aPacingLongerThanThePeriodOrNotWholeMillisecondsIsRefused() {
    BudgetConfig day = BudgetConfig.of(48, Duration.ofDays(1));
    assertThatThrownBy(() -> day.withPacing(Duration.ofDays(2)))
        .isInstanceOf(ConfigException.class)
        .hasMessage("budget: pacing must be positive and at most the period PT24H, got PT48H");
    assertThatThrownBy(() -> day.withPacing(Duration.ZERO))
        .hasMessage("budget: pacing must be positive and at most the period PT24H, got PT0S");
    assertThatThrownBy(() -> day.withPacing(Duration.ofNanos(1_500_000)))
        .hasMessage("budget: pacing must be a whole number of milliseconds, got PT0.0015S");
  }
}
