package io.ogpm.flink.budget;

import static io.ogpm.flink.budget.BudgetFunctionTest.at;
import static io.ogpm.flink.budget.BudgetFunctionTest.released;
import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.PerturbedRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The budget's state written by an earlier layout restores into today's operator: the committed
 * fixture {@code budget/map-layout.snapshot} is the keyed state and timers of the budget operator
 * when it kept a map from period to epsilon per user ({@code epsilon-spent-by-period}), written by
 * {@link #rewriteTheMapLayoutFixture} with that code (see {@code budget/README.md}). Budget 3 per
 * day, 1 per record, max-lag one day; at 06:00 of day 1, user {@code u} had spent 2 on day 1 and 3
 * on day 0 (open until 00:00 of day 2), {@code v} 1 on day 1. Its timers forget day 0 at 00:00 of
 * day 3 and day 1 at 00:00 of day 4.
 */
class BudgetStateMigrationTest {
  /**
   * BudgetFunctionTest's budget: 3 per day, max-lag a day; its calendar ({@link
   * BudgetFunctionTest#at}).
   */
  static final BudgetConfig BUDGET = BudgetFunctionTest.LOG_APPEND;

  static final String FINGERPRINT = BudgetFunctionTest.FINGERPRINT;
  static final String MAP_LAYOUT = "src/test/resources/budget/map-layout.snapshot";

  private final List<AutoCloseable> open = new ArrayList<>();
  private long offset;

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord> harness(
      OperatorSubtaskState restore) throws Exception {
    return harness(new BudgetFunction(BUDGET, FINGERPRINT), restore);
  }

  private KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord> harness(
      KeyedProcessFunction<String, PerturbedRecord, PerturbedRecord> budget,
      OperatorSubtaskState restore)
      throws Exception {
    var h =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new KeyedProcessOperator<>(budget), PerturbedRecord::getUser, Types.STRING);
    open.add(h);
    if (restore != null) {
      h.initializeState(restore);
    }
    h.open();
    return h;
  }

  private String appended(
      KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord> h,
      String user,
      long timestamp)
      throws Exception {
    String id = user + "#" + offset;
    PerturbedRecord r =
        new PerturbedRecord(
                id.getBytes(StandardCharsets.UTF_8),
                "{}".getBytes(StandardCharsets.UTF_8),
                1.0,
                user,
                timestamp,
                TimestampType.LOG_APPEND_TIME)
            .from("raw", 0, offset++);
    h.processElement(r, timestamp);
    return id;
  }

  private OperatorSubtaskState mapLayout() throws Exception {
    return OperatorSnapshotUtil.readStateHandle(MAP_LAYOUT);
  }

  @Test
  void theFormerLayoutsSpendingIsEnforcedAfterARestore() throws Exception {
    var h = harness(mapLayout());
    h.setProcessingTime(at(1, 7));
    String third = appended(h, "u", at(1, 6.5));
    appended(h, "u", at(1, 6.6)); // day 1 spent
    appended(h, "u", at(0, 23.5)); // day 0 spent before the restore
    String v2 = appended(h, "v", at(1, 6.7));
    String v3 = appended(h, "v", at(1, 6.8));
    appended(h, "v", at(1, 6.9));
    String w = appended(h, "w", at(1, 6.9)); // no state in the fixture
    assertThat(released(h)).containsExactly(third, v2, v3, w);
    assertThat(BudgetFunctionTest.reasons(h)).containsOnly("budget-exhausted").hasSize(3);
  }

  @Test
  void aMovedSpendingSurvivesTheNextSnapshotAndTheFormerMapIsEmptied() throws Exception {
    var h = harness(mapLayout());
    h.setProcessingTime(at(1, 7));
    String third = appended(h, "u", at(1, 6.5)); // moves u's spending into the new layout
    // One value per user (u moved, v still in the map): the map's entries are gone once moved.
    assertThat(h.numKeyedStateEntries()).isEqualTo(2);
    var restored = harness(h.snapshot(2, at(1, 7)));
    restored.setProcessingTime(at(1, 8));
    appended(restored, "u", at(1, 7.5));
    appended(restored, "u", at(0, 23.5));
    String v2 = appended(restored, "v", at(1, 7.6));
    assertThat(released(h)).containsExactly(third);
    assertThat(released(restored)).containsExactly(v2);
    assertThat(BudgetFunctionTest.reasons(restored))
        .containsExactly("budget-exhausted", "budget-exhausted");
  }

  @Test
  void theRestoredTimersForgetTheFormerLayoutsSpending() throws Exception {
    var h = harness(mapLayout());
    assertThat(h.numProcessingTimeTimers()).isEqualTo(3); // u: days 0 and 1; v: day 1
    h.setProcessingTime(at(3, 0)); // day 0 forgotten: u's map moved by its timer, day 1 kept
    assertThat(h.numKeyedStateEntries()).isEqualTo(2);
    assertThat(h.numProcessingTimeTimers()).isEqualTo(2);
    h.setProcessingTime(at(4, 0));
    assertThat(h.numKeyedStateEntries()).isZero();
    assertThat(h.numProcessingTimeTimers()).isZero();
  }

  /**
   * Writes the fixture with the former layout's function; run only with {@code
   * -Dogpm.budget.rewrite=true} (it was written by the former {@code BudgetFunction} itself).
   */
  @Test
  @EnabledIfSystemProperty(named = "ogpm.budget.rewrite", matches = "true")
  void rewriteTheMapLayoutFixture() throws Exception {
    var h = harness(new MapLayoutBudgetFunction(BUDGET, FINGERPRINT), null);
    h.setProcessingTime(at(1, 6));
    appended(h, "u", at(1, 5));
    appended(h, "u", at(1, 5.5));
    appended(h, "u", at(0, 23));
    appended(h, "u", at(0, 23));
    appended(h, "u", at(0, 23));
    appended(h, "v", at(1, 4));
    assertThat(h.extractOutputValues()).hasSize(6);
    Files.createDirectories(Path.of(MAP_LAYOUT).getParent());
    OperatorSnapshotUtil.writeStateHandle(h.snapshot(1, at(1, 6)), MAP_LAYOUT);
  }
}
