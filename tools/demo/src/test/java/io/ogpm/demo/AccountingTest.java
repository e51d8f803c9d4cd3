package io.ogpm.demo;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The demo's accounting names the first thing missing, in one line. */
class AccountingTest {
  static final String W0 = "1767225600000|walk|x";
  static final String W1 = "1767225610000|walk|x";
  static final String W2 = "1767225610000||y";

  @Test
  void everyRecordIsPerturbedOrDeadLetteredOnce() {
    assertThatCode(() -> Accounting.checkRecords(10, 7, 3, Set.of("0/1", "0/2", "1/5")))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> Accounting.checkRecords(8076, 5716, 0, Set.of()))
        .hasMessage(
            "demo: 8076 records replayed into ogpm.raw but 5716 perturbed + 0 dead-lettered: 2360 unaccounted for");
    assertThatThrownBy(() -> Accounting.checkRecords(10, 9, 2, Set.of("0/1", "0/2")))
        .hasMessage(
            "demo: 10 records replayed into ogpm.raw but 9 perturbed + 2 dead-lettered: 1 too many (duplicates)");
    assertThatThrownBy(() -> Accounting.checkRecords(10, 8, 2, Set.of("0/1")))
        .hasMessage("demo: 1 dead letters repeat an input already dead-lettered");
  }

  @Test
  void everyWindowIsPresentOverAllItsRecords() {
    Map<String, Long> expected = Map.of(W0, 20L, W1, 5L, W2, 5L);
    assertThatCode(() -> Accounting.checkWindows(expected, Map.of(W0, 20L, W1, 5L, W2, 5L)))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> Accounting.checkWindows(expected, Map.of(W0, 20L)))
        .hasMessage(
            "demo: 2 of 3 window statistics missing, the first: window 2026-01-01T00:00:10Z, group walk, field x"
                + " (5 records)");
    assertThatThrownBy(() -> Accounting.checkWindows(expected, Map.of(W0, 20L, W1, 5L)))
        .hasMessage(
            "demo: 1 of 3 window statistics missing, the first: window 2026-01-01T00:00:10Z, group (none), field y"
                + " (5 records)");
    assertThatThrownBy(() -> Accounting.checkWindows(expected, Map.of(W0, 19L, W1, 5L, W2, 5L)))
        .hasMessage(
            "demo: 1 of 3 window statistics are over the wrong records, the first: window 2026-01-01T00:00:00Z,"
                + " group walk, field x has 19 of 20 records (late or lost records)");
    assertThatThrownBy(() -> Accounting.checkWindows(Map.of(W0, 20L), Map.of(W0, 20L, W1, 1L)))
        .hasMessage(
            "demo: 1 window statistics for no replayed record, the first: window 2026-01-01T00:00:10Z, group walk,"
                + " field x");
  }
}
