package io.ogpm.flink.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.ogpm.config.BudgetClock;
import io.ogpm.config.ContributionBound;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.mechanism.audit.ClopperPearson;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contribution bound in Flink's keyed operator test harness (real keyed state, timers and
 * snapshots): at most c of a user's records per window leave, when the window closes; the others
 * are dead-lettered without a value; each record is chosen with probability c / n; a restore never
 * lets more than c of a window's records out.
 */
class ContributionFunctionTest {
  static final long T0 = Instant.parse("2026-03-01T00:00:00Z").toEpochMilli();
  static final String FINGERPRINT = "v1:0123456789abcdef";
  static final ContributionBound TWO_PER_10S =
      ContributionBound.of(2, Duration.ofSeconds(10), BudgetClock.LOG_APPEND_TIME, null);

  private final List<KeyedOneInputStreamOperatorTestHarness<?, ?, ?>> open = new ArrayList<>();
  private long offset;

  @AfterEach
  void close() throws Exception {
    for (var h : open) {
      h.close();
    }
  }

  private KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord> harness(
      ContributionBound bound, long seed, OperatorSubtaskState restore) throws Exception {
    var h =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new KeyedProcessOperator<>(
                new ContributionFunction(bound, FINGERPRINT, new SplittableRandom(seed))),
            PerturbedRecord::getUser,
            Types.STRING);
    open.add(h);
    if (restore != null) {
      h.initializeState(restore);
    }
    h.open();
    return h;
  }

  private String send(
      KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord> h,
      String user,
      long timestamp,
      TimestampType type)
      throws Exception {
    String id = user + "#" + offset;
    h.processElement(
        new PerturbedRecord(
                id.getBytes(StandardCharsets.UTF_8),
                "{\"x\":0.123}".getBytes(StandardCharsets.UTF_8),
                1.0,
                user,
                timestamp,
                type)
            .from("raw", 0, offset++),
        timestamp);
    return id;
  }

  @Test
  void atMostCOfAUsersRecordsLeaveEachWindowWhenItCloses() throws Exception {
    var h = harness(TWO_PER_10S, 1, null);
    h.setProcessingTime(T0 + 500);
    List<String> alice = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      alice.add(send(h, "alice", T0 + 100 * i, TimestampType.LOG_APPEND_TIME));
    }
    String bob = send(h, "bob", T0 + 50, TimestampType.LOG_APPEND_TIME);
    assertThat(h.extractOutputValues()).isEmpty(); // held until the window closes
    h.processWatermark(T0 + 10_999);
    assertThat(h.extractOutputValues()).isEmpty();
    h.processWatermark(T0 + 11_000); // the window's end plus its max-lag, a tenth of it
    List<String> released = BudgetFunctionTest.released(h);
    assertThat(released).hasSize(3).contains(bob);
    // The last stage before the sink: it stamps the configuration's fingerprint.
    assertThat(h.extractOutputValues())
        .extracting(PerturbedRecord::getFingerprint)
        .containsOnly(FINGERPRINT);
    assertThat(released.stream().filter(alice::contains)).hasSize(2);
    List<JsonNode> letters = BudgetFunctionTest.deadLetters(h);
    assertThat(letters).hasSize(8);
    for (JsonNode letter : letters) {
      assertThat(letter.get("reason").asText()).isEqualTo("contribution-bound");
      assertThat(letter.get("message").asText())
          .isEqualTo(
              "the user sent more than 2 records in the record's PT10S window; 2 chosen at random"
                  + " among them are released");
      assertThat(letter.toString()).doesNotContain("0.123");
    }
    // The window is closed: a late record of it is refused, one of the next window is kept.
    send(h, "alice", T0 + 9_000, TimestampType.LOG_APPEND_TIME);
    send(h, "alice", T0 + 12_000, TimestampType.CREATE_TIME);
    List<JsonNode> late = BudgetFunctionTest.deadLetters(h);
    assertThat(late)
        .extracting(j -> j.get("reason").asText())
        .endsWith("contribution-window-closed", "untrusted-time");
    assertThat(late.get(late.size() - 2).get("message").asText())
        .isEqualTo(
            "the record's contribution window closed PT1S (its max-lag) after its end; its chosen"
                + " records have left");
    assertThat(late.get(late.size() - 1).get("message").asText())
        .startsWith("the record's time cannot place it in a contribution window");
  }

  /**
   * Each of a window's n records is released with probability c / n, whatever its place: 4,000
   * windows of one user with 5 records each, c = 1; each place's count lies in its binomial
   * Clopper-Pearson interval at 1e-4, on both sides.
   */
  @Test
  void everyRecordOfAWindowIsEquallyLikelyToLeave() throws Exception {
    ContributionBound one =
        ContributionBound.of(1, Duration.ofSeconds(10), BudgetClock.INGESTION_TIME, null);
    var h = harness(one, 7, null);
    int windows = 4_000;
    int[] byPlace = new int[5];
    for (int w = 0; w < windows; w++) {
      long start = T0 + w * 10_000L;
      h.setProcessingTime(start);
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        ids.add(send(h, "carol", start, TimestampType.CREATE_TIME));
      }
      h.setProcessingTime(start + 10_000);
      List<String> released = BudgetFunctionTest.released(h);
      String last = released.get(released.size() - 1);
      byPlace[ids.indexOf(last)]++;
      assertThat(released).hasSize(w + 1);
    }
    for (int count : byPlace) {
      assertThat(ClopperPearson.lower(count, windows, 1e-4)).isLessThanOrEqualTo(0.2);
      assertThat(ClopperPearson.upper(count, windows, 1e-4)).isGreaterThanOrEqualTo(0.2);
    }
  }

  @Test
  void aRestoreNeverLetsMoreThanCOfAWindowsRecordsOut() throws Exception {
    var first = harness(TWO_PER_10S, 3, null);
    first.setProcessingTime(T0 + 1_000);
    for (int i = 0; i < 3; i++) {
      send(first, "dave", T0 + i, TimestampType.LOG_APPEND_TIME);
    }
    OperatorSubtaskState snapshot = first.snapshot(1, T0 + 1_000);
    var restored = harness(TWO_PER_10S, 4, snapshot);
    restored.setProcessingTime(T0 + 2_000);
    for (int i = 0; i < 3; i++) {
      send(restored, "dave", T0 + 10 + i, TimestampType.LOG_APPEND_TIME);
    }
    restored.processWatermark(T0 + 11_000);
    assertThat(BudgetFunctionTest.released(restored)).hasSize(2);
    // The first harness's records after its snapshot never left: it released nothing.
    assertThat(first.extractOutputValues()).isEmpty();
  }

  /**
   * On log-append-time the watermark closes windows, not the job's clock: a backlog read an hour
   * late (after a restore or an outage) is placed in its windows and released as event time passes.
   */
  @Test
  void aBacklogReadLateIsBoundedInItsOwnWindowsNotRefused() throws Exception {
    var h = harness(TWO_PER_10S, 5, null);
    h.setProcessingTime(T0 + 3_600_000);
    h.processWatermark(T0);
    for (int w = 0; w < 3; w++) {
      for (int i = 0; i < 4; i++) {
        send(h, "erin", T0 + w * 10_000L + i, TimestampType.LOG_APPEND_TIME);
      }
      h.processWatermark(T0 + w * 10_000L + 5_000);
    }
    h.processWatermark(T0 + 31_000);
    assertThat(BudgetFunctionTest.released(h)).hasSize(6);
    assertThat(BudgetFunctionTest.deadLetters(h))
        .extracting(j -> j.get("reason").asText())
        .containsOnly("contribution-bound")
        .hasSize(6);
  }

  /** A raw source without watermarks would hold every record forever: the job fails instead. */
  @Test
  void withoutWatermarksOnLogAppendTimeTheJobFailsWithOneLine() throws Exception {
    var h = harness(TWO_PER_10S, 6, null);
    h.setProcessingTime(T0 + 500);
    send(h, "fay", T0, TimestampType.LOG_APPEND_TIME);
    long deadline = T0 + 500 + 1_000 + ContributionFunction.NO_WATERMARK_AFTER;
    h.setProcessingTime(deadline - 1);
    assertThatThrownBy(() -> h.setProcessingTime(deadline))
        .hasMessage(ContributionFunction.NO_WATERMARK)
        .hasMessageNotContaining("\n");

    // With a watermark come in time, the same check passes.
    var fine = harness(TWO_PER_10S, 6, null);
    fine.setProcessingTime(T0 + 500);
    send(fine, "fay", T0, TimestampType.LOG_APPEND_TIME);
    fine.processWatermark(T0 + 100);
    fine.setProcessingTime(deadline);
    fine.processWatermark(T0 + 11_000);
    assertThat(BudgetFunctionTest.released(fine)).hasSize(1);
  }

  /**
   * As the last stage it counts what it releases; each refusal is counted under its reason; a
   * released window leaves no state behind.
   */
  @Test
  void metricsCountWhatLeavesAndWhatIsRefusedAndAClosedWindowLeavesNoState() throws Exception {
    io.ogpm.flink.CapturedMetrics metrics = new io.ogpm.flink.CapturedMetrics();
    try (var env = metrics.environment;
        var h =
            new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(
                    new ContributionFunction(TWO_PER_10S, FINGERPRINT, new SplittableRandom(8))),
                PerturbedRecord::getUser,
                Types.STRING,
                env)) {
      h.open();
      h.setProcessingTime(T0 + 500);
      h.processWatermark(T0);
      for (int i = 0; i < 5; i++) {
        send(h, "gil", T0 + i, TimestampType.LOG_APPEND_TIME);
      }
      send(h, "hal", T0 + 5, TimestampType.CREATE_TIME);
      assertThat(h.numKeyedStateEntries()).isPositive();
      h.processWatermark(T0 + 11_000);
      send(h, "gil", T0 + 6, TimestampType.LOG_APPEND_TIME); // its window has closed
      assertThat(BudgetFunctionTest.released(h)).hasSize(2);
      assertThat(
              ((org.apache.flink.metrics.Counter) metrics.operator.get("recordsPerturbed"))
                  .getCount())
          .isEqualTo(2);
      assertThat(metrics.count("reason", "contribution-bound", "recordsDeadLettered")).isEqualTo(3);
      assertThat(metrics.count("reason", "untrusted-time", "recordsDeadLettered")).isEqualTo(1);
      assertThat(metrics.count("reason", "contribution-window-closed", "recordsDeadLettered"))
          .isEqualTo(1);
      assertThat(h.numKeyedStateEntries()).as("the released window forgotten").isZero();
    }
  }
}
