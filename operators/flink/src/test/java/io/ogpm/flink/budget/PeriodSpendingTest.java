package io.ogpm.flink.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.budget.BudgetPeriods;
import io.ogpm.config.BudgetConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PeriodSpendingTest {
  /** Periods of a day, max-lag a day: period p is forgotten at (p + 3) days. */
  static final BudgetPeriods DAYS = new BudgetPeriods(BudgetConfig.of(3, Duration.ofDays(1)));

  static final long DAY = 86_400_000L;

  @Test
  void periodsAreKeptInAscendingOrderWithTheirSpending() {
    long[] s = PeriodSpending.with(null, 7, 0.5);
    s = PeriodSpending.with(s, 9, 1.5);
    s = PeriodSpending.with(s, 5, 2.5);
    s = PeriodSpending.with(s, 8, 3.5);
    assertThat(s).containsExactly(5, bits(2.5), 7, bits(0.5), 8, bits(3.5), 9, bits(1.5));
    assertThat(PeriodSpending.spent(s, 8)).isEqualTo(3.5);
    assertThat(PeriodSpending.spent(s, 6)).isZero();
    assertThat(PeriodSpending.spent(null, 6)).isZero();
    assertThat(PeriodSpending.has(s, 9)).isTrue();
    assertThat(PeriodSpending.has(s, 10)).isFalse();
    assertThat(PeriodSpending.has(null, 10)).isFalse();
  }

  @Test
  void aChangeNeverWritesIntoTheArrayItWasGiven() {
    long[] s = PeriodSpending.with(PeriodSpending.with(null, 1, 1.0), 2, 2.0);
    long[] before = s.clone();
    long[] changed = PeriodSpending.with(s, 2, 2.5);
    assertThat(s).isEqualTo(before);
    assertThat(changed).containsExactly(1, bits(1.0), 2, bits(2.5));
  }

  @Test
  void forgottenPeriodsAreDroppedAndAnUnchangedArrayIsTheSameArray() {
    long[] s =
        PeriodSpending.with(PeriodSpending.with(PeriodSpending.with(null, 10, 1), 11, 2), 12, 3);
    assertThat(PeriodSpending.keptAt(s, DAYS, 13 * DAY - 1)).isSameAs(s);
    long[] kept = PeriodSpending.keptAt(s, DAYS, 13 * DAY);
    assertThat(kept).containsExactly(11, bits(2), 12, bits(3));
    assertThat(s).hasSize(6);
    assertThat(PeriodSpending.keptAt(s, DAYS, 15 * DAY)).isNull();
  }

  private static long bits(double d) {
    return Double.doubleToRawLongBits(d);
  }
}
