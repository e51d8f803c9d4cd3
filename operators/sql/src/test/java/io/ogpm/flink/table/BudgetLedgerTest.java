package io.ogpm.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.budget.BudgetPeriods;
import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import io.ogpm.record.ReasonCode;
import java.time.Duration;
import java.time.Instant;
import org.apache.flink.table.api.dataview.MapView;
import org.junit.jupiter.api.Test;

/**
 * The SQL budget's decision, the DataStream budget's rule: spending per period within the budget
 * (with its rounding slack), periods from the broker's log-append time or the task's clock, never
 * the producer's; late periods closed after max-lag; a clock that never runs backwards; entries
 * kept at least one period after their period closed.
 */
class BudgetLedgerTest {
  static final long DAY = Duration.ofDays(1).toMillis();
  static final long T = 20_000 * DAY; // the start of a period

  private static Instant at(long millis) {
    return Instant.ofEpochMilli(millis);
  }

  @Test
  void releasesWhileTheSpendingOfThePeriodStaysWithinTheBudget() throws Exception {
    BudgetLedger ledger = new BudgetLedger(BudgetConfig.of(0.3, Duration.ofDays(1)));
    MapView<Long, Double> spent = new MapView<>();
    // 0.1 + 0.1 + 0.1 > 0.3 in doubles: the slack lets a budget of exact multiples be used to the
    // end.
    for (int i = 0; i < 3; i++) {
      assertThat(ledger.charge(spent, T + 1000, at(T + 10 * i), "LogAppendTime", 0.1)).isNull();
    }
    assertThat(ledger.spentAfter()).isEqualTo(0.1 + 0.1 + 0.1);
    assertThat(ledger.charge(spent, T + 1000, at(T + 50), "LogAppendTime", 0.1))
        .isEqualTo(ReasonCode.BUDGET_EXHAUSTED);
    assertThat(ledger.charge(spent, T + 1000, at(T + 50), "LogAppendTime", 1e-9))
        .isEqualTo(ReasonCode.BUDGET_EXHAUSTED);
    // The previous period is still open (max-lag one period): its own spending.
    assertThat(ledger.charge(spent, T + 1000, at(T - 5), "LogAppendTime", 0.3)).isNull();
    assertThat(ledger.spentAfter()).isEqualTo(0.3);
    assertThat(spent.get(T / DAY)).isEqualTo(0.1 + 0.1 + 0.1);
    assertThat(spent.get(T / DAY - 1)).isEqualTo(0.3);
  }

  @Test
  void onlyTheBrokersLogAppendTimeIsTrusted() throws Exception {
    BudgetLedger ledger = new BudgetLedger(BudgetConfig.of(1, Duration.ofDays(1)));
    MapView<Long, Double> spent = new MapView<>();
    assertThat(ledger.charge(spent, T, at(T), "CreateTime", 0.1))
        .isEqualTo(ReasonCode.UNTRUSTED_TIME);
    assertThat(ledger.charge(spent, T, at(T), "NoTimestampType", 0.1))
        .isEqualTo(ReasonCode.UNTRUSTED_TIME);
    assertThat(ledger.charge(spent, T, at(T), null, 0.1)).isEqualTo(ReasonCode.UNTRUSTED_TIME);
    assertThat(ledger.charge(spent, T, null, "LogAppendTime", 0.1))
        .isEqualTo(ReasonCode.UNTRUSTED_TIME);
    // More than a period ahead of the task's clock: a broker clock far off.
    assertThat(ledger.charge(spent, T, at(T + 2 * DAY), "LogAppendTime", 0.1))
        .isEqualTo(ReasonCode.UNTRUSTED_TIME);
    assertThat(ledger.charge(spent, T, at(T + 2 * DAY - 1), "LogAppendTime", 0.1)).isNull();
    assertThat(spent.contains(T / DAY)).isFalse();
  }

  @Test
  void aPeriodClosesMaxLagAfterItsEndAndTheClockNeverRunsBack() throws Exception {
    BudgetLedger ledger =
        new BudgetLedger(
            BudgetConfig.of(
                1, Duration.ofDays(1), BudgetClock.LOG_APPEND_TIME, Duration.ofHours(1)));
    MapView<Long, Double> spent = new MapView<>();
    long end = T + DAY;
    assertThat(
            ledger.charge(
                spent, end + Duration.ofHours(1).toMillis() - 1, at(T), "LogAppendTime", 0.1))
        .isNull();
    assertThat(
            ledger.charge(spent, end + Duration.ofHours(1).toMillis(), at(T), "LogAppendTime", 0.1))
        .isEqualTo(ReasonCode.BUDGET_PERIOD_CLOSED);
    // A wall clock stepped back does not reopen the period.
    assertThat(ledger.charge(spent, T, at(T), "LogAppendTime", 0.1))
        .isEqualTo(ReasonCode.BUDGET_PERIOD_CLOSED);
  }

  @Test
  void ingestionTimeChargesTheTasksPeriod() throws Exception {
    BudgetLedger ledger =
        new BudgetLedger(
            BudgetConfig.of(0.2, Duration.ofHours(1), BudgetClock.INGESTION_TIME, null));
    MapView<Long, Double> spent = new MapView<>();
    long hour = Duration.ofHours(1).toMillis();
    // Whatever the record says about its time.
    assertThat(ledger.charge(spent, T, at(0), "CreateTime", 0.2)).isNull();
    assertThat(ledger.charge(spent, T + 1, null, null, 0.2)).isEqualTo(ReasonCode.BUDGET_EXHAUSTED);
    assertThat(ledger.charge(spent, T + hour, null, null, 0.2)).isNull();
    assertThat(spent.get(T / hour)).isEqualTo(0.2);
    assertThat(spent.get(T / hour + 1)).isEqualTo(0.2);
  }

  @Test
  void anEntryIsKeptAtLeastOnePeriodAfterItsPeriodClosed() {
    BudgetConfig b =
        BudgetConfig.of(1, Duration.ofDays(1), BudgetClock.LOG_APPEND_TIME, Duration.ofHours(6));
    Duration ttl = BudgetLedger.timeToLive(b);
    assertThat(ttl).isEqualTo(Duration.ofDays(3).plusHours(6));
    // Written at the earliest at start - len (a record more than a period ahead is refused), it
    // lives until end + lag + len: the DataStream budget's forgetAt.
    long start = T;
    long earliestWrite = start - DAY;
    assertThat(earliestWrite + ttl.toMillis()).isEqualTo(new BudgetPeriods(b).forgetAt(T / DAY));
    assertThat(
            BudgetLedger.timeToLive(
                BudgetConfig.of(1, Duration.ofHours(2), BudgetClock.INGESTION_TIME, null)))
        .isEqualTo(Duration.ofHours(6));
  }
}
