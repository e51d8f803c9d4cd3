package io.ogpm.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.ContributionBound;
import io.ogpm.record.ReasonCode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ContributionRuleTest {
  static final long T0 = 1_772_323_200_000L; // 2026-03-01T00:00:00Z, a multiple of 10 s

  /**
   * Exactly uniform: every sequence of draws of Algorithm R equally likely, each set of c of the
   * window's n records is kept by as many sequences as every other, whatever n and c.
   */
  @Test
  void everySetOfCRecordsIsEquallyLikelyToBeKept() {
    for (int capacity = 1; capacity <= 3; capacity++) {
      for (int n = capacity; n <= 6; n++) {
        Map<TreeSet<Integer>, Integer> kept = new HashMap<>();
        enumerate(n, capacity, new int[capacity], 1, new ArrayList<>(), kept);
        long sequences = 1;
        for (int i = capacity + 1; i <= n; i++) {
          sequences *= i;
        }
        long sets = binomial(n, capacity);
        assertThat(kept).as("n %s, c %s", n, capacity).hasSize((int) sets);
        long each = sequences / sets;
        assertThat(kept.values()).allSatisfy(count -> assertThat((long) count).isEqualTo(each));
      }
    }
  }

  /** Every sequence of draws for records k..n, and the slots they leave. */
  private static void enumerate(
      int n,
      int capacity,
      int[] slots,
      int k,
      List<Long> draws,
      Map<TreeSet<Integer>, Integer> kept) {
    if (k > n) {
      TreeSet<Integer> set = new TreeSet<>();
      for (int s : slots) {
        set.add(s);
      }
      kept.merge(set, 1, Integer::sum);
      return;
    }
    long choices = k <= capacity ? 1 : k;
    for (long j = 0; j < choices; j++) {
      long draw = j;
      int slot = ContributionRule.slotFor(k, capacity, bound -> draw);
      int[] next = slots.clone();
      if (slot >= 0) {
        next[slot] = k;
      }
      enumerate(n, capacity, next, k + 1, draws, kept);
    }
  }

  private static long binomial(int n, int k) {
    long b = 1;
    for (int i = 0; i < k; i++) {
      b = b * (n - i) / (i + 1);
    }
    return b;
  }

  /** The n-th record replaces slot j for a draw j below the capacity, and is dropped from it on. */
  @Test
  void aDrawAtOrAboveTheCapacityKeepsNothing() {
    assertThat(ContributionRule.slotFor(3, 2, b -> 0)).isZero();
    assertThat(ContributionRule.slotFor(3, 2, b -> 1)).isEqualTo(1);
    assertThat(ContributionRule.slotFor(3, 2, b -> 2)).isEqualTo(-1);
    assertThat(ContributionRule.slotFor(2, 2, b -> 2)).as("the first c are kept").isEqualTo(1);
  }

  @Test
  void aRecordNumberOrCapacityBelowOneIsRefused() {
    assertThatThrownBy(() -> ContributionRule.slotFor(0, 2, b -> 0))
        .hasMessage("a record's number and the capacity must be >= 1, got 0 and 2");
    assertThatThrownBy(() -> ContributionRule.slotFor(1, 0, b -> 0))
        .hasMessage("a record's number and the capacity must be >= 1, got 1 and 0");
  }

  @Test
  void recordsArePlacedByTheBrokersTimeNeverTheProducers() {
    ContributionRule rule =
        new ContributionRule(
            ContributionBound.of(2, Duration.ofSeconds(10), BudgetClock.LOG_APPEND_TIME, null));
    long now = T0 + 15_000;
    long watermark = T0 + 15_000;
    assertThat(rule.closesByWatermark()).isTrue();
    assertThat(rule.place(now, watermark, T0 + 12_345, "LogAppendTime"))
        .isEqualTo(new ContributionRule.Placed((T0 + 10_000) / 10_000));
    assertThat(rule.place(now, watermark, T0 + 12_345, "CreateTime"))
        .isEqualTo(new ContributionRule.Refused(ReasonCode.UNTRUSTED_TIME, 0));
    assertThat(rule.place(now, watermark, T0 + 12_345, null))
        .isEqualTo(new ContributionRule.Refused(ReasonCode.UNTRUSTED_TIME, 0));
    // More than one window ahead of the job's clock: a broker clock far off.
    assertThat(rule.place(now, watermark, T0 + 30_000, "LogAppendTime"))
        .isEqualTo(new ContributionRule.Refused(ReasonCode.UNTRUSTED_TIME, 0));
    // The window before ended at T0 + 10 s; its max-lag (a tenth of the window) ended at 11 s.
    assertThat(rule.releaseAt(T0 / 10_000)).isEqualTo(T0 + 11_000);
    assertThat(rule.place(now, watermark, T0 + 9_999, "LogAppendTime"))
        .isEqualTo(new ContributionRule.Refused(ReasonCode.CONTRIBUTION_WINDOW_CLOSED, T0 + 9_999));
    assertThat(rule.place(now, T0 + 10_999, T0 + 9_999, "LogAppendTime"))
        .isEqualTo(new ContributionRule.Placed(T0 / 10_000));
  }

  /**
   * A backlog read an hour late (after a restore or an outage) is placed in its own windows: the
   * watermark, not the job's clock, closes them.
   */
  @Test
  void aBacklogIsPlacedInItsWindowsWhateverTheJobsClock() {
    ContributionRule rule =
        new ContributionRule(
            ContributionBound.of(2, Duration.ofSeconds(10), BudgetClock.LOG_APPEND_TIME, null));
    long anHourLater = T0 + 3_600_000;
    assertThat(rule.place(anHourLater, T0 + 2_000, T0 + 2_500, "LogAppendTime"))
        .isEqualTo(new ContributionRule.Placed(T0 / 10_000));
    assertThat(rule.place(anHourLater, T0 + 11_000, T0 + 2_500, "LogAppendTime"))
        .isEqualTo(new ContributionRule.Refused(ReasonCode.CONTRIBUTION_WINDOW_CLOSED, T0 + 2_500));
  }

  @Test
  void onIngestionTimeTheJobsClockPlacesEveryRecord() {
    ContributionRule rule =
        new ContributionRule(
            ContributionBound.of(1, Duration.ofMinutes(1), BudgetClock.INGESTION_TIME, null));
    assertThat(rule.closesByWatermark()).isFalse();
    // The watermark plays no part: the record is placed by the job's clock, in an open window.
    assertThat(rule.place(T0 + 61_000, Long.MAX_VALUE, 0, "CreateTime"))
        .isEqualTo(new ContributionRule.Placed((T0 + 61_000) / 60_000));
    assertThat(rule.releaseAt((T0 + 61_000) / 60_000)).isEqualTo(T0 + 120_000);
  }
}
