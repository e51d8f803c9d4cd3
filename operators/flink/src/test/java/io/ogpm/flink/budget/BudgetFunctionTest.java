package io.ogpm.flink.budget;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.CapturedMetrics;
import io.ogpm.flink.DeadLetterRecord;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.perturb.DeadLetters;
import io.ogpm.mechanism.random.AesCtrSource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The budget operator in Flink's keyed operator test harness (real keyed state, timers, snapshots),
 * against a producer who forges timestamps and an adversary who controls the order in which a
 * user's records arrive (records spread over partitions read at different paces). Budget: 3 per
 * day, 1 per record, so 3 records per user per day.
 */
class BudgetFunctionTest {
  static final long HOUR = 3_600_000L;
  static final long DAY = 24 * HOUR;

  /** Midnight UTC starting day 0 of these tests. */
  static final long DAY_0 = Instant.parse("2026-03-01T00:00:00Z").toEpochMilli();

  static final BudgetConfig LOG_APPEND = BudgetConfig.of(3, Duration.ofDays(1));
  static final BudgetConfig INGESTION =
      BudgetConfig.of(3, Duration.ofDays(1), BudgetClock.INGESTION_TIME, null);
  static final ObjectMapper JSON = new ObjectMapper();
  static final String FINGERPRINT = "v1:0123456789abcdef";

  private final List<AutoCloseable> open = new ArrayList<>();
  private long offset;

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  static long at(int day, double hours) {
    return DAY_0 + day * DAY + (long) (hours * HOUR);
  }

  private KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord> harness(
      BudgetConfig budget, OperatorSubtaskState restore) throws Exception {
    var h =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new KeyedProcessOperator<>(new BudgetFunction(budget, FINGERPRINT)),
            PerturbedRecord::getUser,
            Types.STRING);
    open.add(h);
    if (restore != null) {
      h.initializeState(restore);
    }
    h.open();
    return h;
  }

  /** Sends a record of {@code user} with this Kafka timestamp; returns its id. */
  private String send(
      KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord> h,
      String user,
      long timestamp,
      TimestampType type)
      throws Exception {
    String id = user + "#" + offset;
    PerturbedRecord r =
        new PerturbedRecord(
                id.getBytes(StandardCharsets.UTF_8),
                "{}".getBytes(StandardCharsets.UTF_8),
                1.0,
                user,
                timestamp,
                type)
            .from("raw", 0, offset++);
    h.processElement(r, timestamp);
    return id;
  }

  private String appended(
      KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord> h,
      String user,
      long timestamp)
      throws Exception {
    return send(h, user, timestamp, TimestampType.LOG_APPEND_TIME);
  }

  static List<String> released(
      KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord> h) {
    List<String> ids = new ArrayList<>();
    for (PerturbedRecord r : h.extractOutputValues()) {
      ids.add(new String(r.getKey(), StandardCharsets.UTF_8));
    }
    return ids;
  }

  /** The dead letters' JSON, in order. */
  static List<JsonNode> deadLetters(
      KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord> h)
      throws Exception {
    List<JsonNode> out = new ArrayList<>();
    var side = h.getSideOutput(DeadLetters.TAG);
    if (side != null) {
      for (StreamRecord<DeadLetterRecord> d : side) {
        JsonNode json = JSON.readTree(d.getValue().getValue());
        assertThat(json.get("reason").asText()).isEqualTo(d.getValue().getReason());
        out.add(json);
      }
    }
    return out;
  }

  static List<String> reasons(
      KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord> h)
      throws Exception {
    return deadLetters(h).stream().map(d -> d.get("reason").asText()).toList();
  }

  @Test
  void alternatingPeriodsDoNotResetTheSpending() throws Exception {
    var h = harness(LOG_APPEND, null);
    h.setProcessingTime(at(1, 12));
    // Two partitions of one user, one lagging a day behind: their records interleave.
    for (int i = 0; i < 10; i++) {
      appended(h, "u", at(i % 2, 10 + i));
    }
    assertThat(released(h)).hasSize(6);
    Map<Long, Integer> perDay = new HashMap<>();
    for (PerturbedRecord r : h.extractOutputValues()) {
      perDay.merge(Math.floorDiv(r.getTimestamp() - DAY_0, DAY), 1, Integer::sum);
    }
    assertThat(perDay).containsOnly(Map.entry(0L, 3), Map.entry(1L, 3));
    assertThat(reasons(h)).hasSize(4).containsOnly("budget-exhausted");
  }

  /**
   * The perturb operator leaves the fingerprint to the budget: every released record carries it.
   */
  @Test
  void releasedRecordsCarryTheConfigurationsFingerprint() throws Exception {
    var h = harness(LOG_APPEND, null);
    h.setProcessingTime(at(0, 12));
    for (int i = 0; i < 3; i++) {
      appended(h, "u" + i, at(0, 10));
    }
    assertThat(h.extractOutputValues())
        .hasSize(3)
        .extracting(PerturbedRecord::getFingerprint)
        .containsOnly(FINGERPRINT);
  }

  @ParameterizedTest
  @ValueSource(strings = {"CREATE_TIME", "NO_TIMESTAMP_TYPE"})
  void forgedPastAndFutureTimesAreRefusedOnTheLogAppendClock(TimestampType type) throws Exception {
    var h = harness(LOG_APPEND, null);
    h.setProcessingTime(at(20, 12));
    // Ten records stamped in ten past days, and ten in ten future days: a fresh period each.
    for (int day = 10; day < 20; day++) {
      send(h, "u", at(day, 12), type);
      send(h, "u", at(day + 11, 12), type);
    }
    assertThat(released(h)).isEmpty();
    List<JsonNode> dead = deadLetters(h);
    assertThat(dead).hasSize(20);
    for (JsonNode d : dead) {
      assertThat(d.get("reason").asText()).isEqualTo("untrusted-time");
      assertThat(d.get("message").asText())
          .contains("message.timestamp.type=LogAppendTime", "topic raw")
          .contains(type == TimestampType.CREATE_TIME ? "CreateTime" : "NoTimestampType");
      assertThat(d.get("source").get("topic").asText()).isEqualTo("raw");
    }
    // The same with no timestamp type at all (a record built without one).
    send(h, "u", at(20, 1), null);
    assertThat(released(h)).isEmpty();
    assertThat(deadLetters(h).get(20).get("message").asText()).contains("timestamp is missing");
    // Dead letters of untrusted records never carry the producer's time.
    for (StreamRecord<DeadLetterRecord> d : h.getSideOutput(DeadLetters.TAG)) {
      assertThat(d.getValue().getTimestamp()).isZero();
    }
  }

  @Test
  void brokerTimesFarAheadOfTheJobsClockAreRefused() throws Exception {
    var h = harness(LOG_APPEND, null);
    h.setProcessingTime(at(5, 23.5));
    appended(h, "u", at(6, 23.9)); // the next period: a broker clock a little ahead
    appended(h, "u", at(7, 0.1)); // two periods ahead: no trustworthy clock is that far off
    assertThat(released(h)).hasSize(1);
    assertThat(reasons(h)).containsExactly("untrusted-time");
    assertThat(deadLetters(h).get(0).get("message").asText()).contains("ahead of the job's clock");
  }

  @Test
  void outOfOrderAndLateRecordsAreChargedToTheirOwnPeriod() throws Exception {
    var h = harness(LOG_APPEND, null);
    h.setProcessingTime(at(2, 1));
    List<String> expected = new ArrayList<>();
    // Day 2 spends its budget; day 1's records (a partition a day behind) then arrive, then more of
    // day 2 and of day 1, then day 3 (broker a little ahead).
    expected.add(appended(h, "u", at(2, 0.2)));
    expected.add(appended(h, "u", at(2, 0.3)));
    expected.add(appended(h, "u", at(2, 0.4)));
    expected.add(appended(h, "u", at(1, 20)));
    appended(h, "u", at(2, 0.5));
    expected.add(appended(h, "u", at(1, 21)));
    expected.add(appended(h, "u", at(1, 22)));
    appended(h, "u", at(1, 23));
    appended(h, "u", at(2, 0.6));
    expected.add(appended(h, "u", at(3, 0.1)));
    // Another user's budget is their own.
    expected.add(appended(h, "v", at(1, 23)));
    assertThat(released(h)).containsExactlyElementsOf(expected);
    assertThat(reasons(h))
        .containsExactly("budget-exhausted", "budget-exhausted", "budget-exhausted");
    // Day 1 stays charged until its lag (a day) has passed: late records for it are still refused.
    h.setProcessingTime(at(2, 23.9));
    appended(h, "u", at(1, 23.99));
    assertThat(released(h)).hasSize(expected.size());
    assertThat(reasons(h)).hasSize(4).containsOnly("budget-exhausted");
  }

  @Test
  void recordsOfPeriodsOlderThanTheLagAreRefusedEvenAfterTheirSpendingIsForgotten()
      throws Exception {
    var h = harness(LOG_APPEND, null);
    h.setProcessingTime(at(0, 12));
    for (int i = 0; i < 3; i++) {
      appended(h, "u", at(0, 11));
    }
    assertThat(released(h)).hasSize(3);
    assertThat(h.numKeyedStateEntries()).isOne();
    // Day 0 closes at the end of day 1 (lag one day) and is forgotten a day later.
    h.setProcessingTime(at(2, 0) - 1);
    appended(h, "u", at(0, 23));
    assertThat(reasons(h)).containsExactly("budget-exhausted");
    h.setProcessingTime(at(2, 0));
    appended(h, "u", at(0, 23));
    assertThat(reasons(h)).containsExactly("budget-exhausted", "budget-period-closed");
    assertThat(deadLetters(h).get(1).get("message").asText())
        .isEqualTo(
            "the record's budget period ended more than PT24H (the budget's max-lag) ago, its spending is no"
                + " longer kept");
    h.setProcessingTime(at(3, 0));
    assertThat(h.numKeyedStateEntries()).as("the user's state is gone").isZero();
    assertThat(h.numProcessingTimeTimers()).isZero();
    // With nothing left of day 0, a backlog record of day 0 would see a fresh budget: it is
    // refused.
    for (int i = 0; i < 5; i++) {
      appended(h, "u", at(0, 23.5));
    }
    assertThat(released(h)).hasSize(3);
    assertThat(reasons(h))
        .hasSize(7)
        .endsWith(
            "budget-period-closed",
            "budget-period-closed",
            "budget-period-closed",
            "budget-period-closed",
            "budget-period-closed");
  }

  @Test
  void aClockSteppedBackDoesNotReopenAForgottenPeriod() throws Exception {
    var h = harness(LOG_APPEND, null);
    h.setProcessingTime(at(0, 12));
    for (int i = 0; i < 3; i++) {
      appended(h, "u", at(0, 11));
    }
    h.setProcessingTime(at(3, 0)); // day 0's spending is forgotten
    assertThat(h.numKeyedStateEntries()).isZero();
    h.setProcessingTime(at(1, 12)); // NTP steps the task manager's clock back
    appended(h, "u", at(0, 23));
    assertThat(released(h)).hasSize(3);
    assertThat(reasons(h)).containsExactly("budget-period-closed");
  }

  @Test
  void aRestoreOnATaskManagerWhoseClockIsBehindDoesNotReopenAClosedPeriod() throws Exception {
    var first = harness(LOG_APPEND, null);
    first.setProcessingTime(at(0, 12));
    for (int i = 0; i < 3; i++) {
      appended(first, "u", at(0, 11));
    }
    first.setProcessingTime(at(2, 1)); // day 0 closed an hour ago
    OperatorSubtaskState snapshot = first.snapshot(1, at(2, 1));
    // Restored where the clock is five hours behind: day 0 looks open again, so its spending must
    // still be in the snapshot (it is kept a period past the close).
    var restored = harness(LOG_APPEND, snapshot);
    restored.setProcessingTime(at(1, 20));
    appended(restored, "u", at(0, 23));
    assertThat(released(restored)).isEmpty();
    assertThat(reasons(restored)).containsExactly("budget-exhausted");
  }

  @Test
  void stateIsBoundedByTheOpenPeriods() throws Exception {
    var h = harness(LOG_APPEND, null);
    // Thirty days of a user who reports every hour: never more than lag / period + 3 = 4 periods
    // (timers, one per period) kept.
    int most = 0;
    for (int hour = 0; hour < 30 * 24; hour++) {
      h.setProcessingTime(at(0, hour + 0.5));
      appended(h, "u", at(0, hour));
      most = Math.max(most, h.numProcessingTimeTimers());
    }
    assertThat(most).isBetween(2, 4);
    assertThat(released(h)).hasSize(30 * 3);
  }

  /**
   * At 06:00 of day 1, user {@code u} spends 2 of day 1's budget and, late but within the lag, all
   * 3 of day 0's.
   */
  private void spendDayOnesTwoAndDayZerosThree(
      KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord> h)
      throws Exception {
    h.setProcessingTime(at(1, 6));
    appended(h, "u", at(1, 5));
    appended(h, "u", at(1, 5.5));
    appended(h, "u", at(0, 23)); // day 0, late, within the lag
    appended(h, "u", at(0, 23));
    appended(h, "u", at(0, 23));
  }

  @Test
  void aRestoredSnapshotKeepsTheSpendingAndTheTimers() throws Exception {
    var first = harness(LOG_APPEND, null);
    spendDayOnesTwoAndDayZerosThree(first);
    OperatorSubtaskState snapshot = first.snapshot(1, at(1, 6));
    assertThat(released(first)).hasSize(5);

    var restored = harness(LOG_APPEND, snapshot);
    restored.setProcessingTime(at(1, 7));
    String third = appended(restored, "u", at(1, 6.5));
    appended(restored, "u", at(1, 6.6));
    appended(restored, "u", at(0, 23.5));
    String other = appended(restored, "v", at(1, 6.7));
    assertThat(released(restored)).containsExactly(third, other);
    assertThat(reasons(restored)).containsExactly("budget-exhausted", "budget-exhausted");
    // The restored timers still forget day 0 (at the start of day 2 + a day) and day 1.
    restored.setProcessingTime(at(4, 0));
    assertThat(restored.numKeyedStateEntries()).isZero();
    assertThat(restored.numProcessingTimeTimers()).isZero();
  }

  /**
   * Spending restored from a snapshot is kept through the next snapshot and restore, and the
   * restored timers forget it one period at a time.
   */
  @Test
  void restoredSpendingSurvivesTheNextRestoreAndItsTimersForgetItPeriodByPeriod() throws Exception {
    var first = harness(LOG_APPEND, null);
    spendDayOnesTwoAndDayZerosThree(first);
    appended(first, "v", at(1, 4));
    assertThat(released(first)).hasSize(6);

    var restored = harness(LOG_APPEND, first.snapshot(1, at(1, 6)));
    assertThat(restored.numProcessingTimeTimers()).isEqualTo(3); // u: days 0 and 1; v: day 1
    restored.setProcessingTime(at(1, 7));
    String third = appended(restored, "u", at(1, 6.5));
    assertThat(released(restored)).containsExactly(third);

    var again = harness(LOG_APPEND, restored.snapshot(2, at(1, 7)));
    again.setProcessingTime(at(1, 8));
    appended(again, "u", at(1, 7.5)); // day 1 spent
    appended(again, "u", at(0, 23.5)); // day 0 spent before the first snapshot
    String v2 = appended(again, "v", at(1, 7.6));
    assertThat(released(again)).containsExactly(v2);
    assertThat(reasons(again)).containsExactly("budget-exhausted", "budget-exhausted");
    // One value per user; day 0 is forgotten at the start of day 3, day 1 at the start of day 4.
    assertThat(again.numKeyedStateEntries()).isEqualTo(2);
    again.setProcessingTime(at(3, 0));
    assertThat(again.numKeyedStateEntries()).isEqualTo(2);
    assertThat(again.numProcessingTimeTimers()).isEqualTo(2);
    again.setProcessingTime(at(4, 0));
    assertThat(again.numKeyedStateEntries()).isZero();
    assertThat(again.numProcessingTimeTimers()).isZero();
  }

  @Test
  void ingestionTimeIgnoresTheRecordsTimestamps() throws Exception {
    var h = harness(INGESTION, null);
    h.setProcessingTime(at(5, 10));
    // Ten records stamped by the producer in ten different days, past and future, and no type.
    for (int day = 0; day < 10; day++) {
      send(h, "u", at(day * 3 - 10, 12), day % 3 == 0 ? null : TimestampType.CREATE_TIME);
    }
    assertThat(released(h)).hasSize(3);
    assertThat(reasons(h)).hasSize(7).containsOnly("budget-exhausted");
    for (StreamRecord<DeadLetterRecord> d : h.getSideOutput(DeadLetters.TAG)) {
      assertThat(d.getValue().getTimestamp())
          .as("the ingestion time, not the producer's")
          .isEqualTo(at(5, 10));
    }
    h.setProcessingTime(at(6, 0)); // the next day: a new budget
    for (int i = 0; i < 5; i++) {
      send(h, "u", at(5, 12), TimestampType.CREATE_TIME);
    }
    assertThat(released(h)).hasSize(6);
    h.setProcessingTime(at(8, 0));
    assertThat(h.numKeyedStateEntries()).isZero();
  }

  @Test
  void anExactMultipleOfTheRecordCostIsUsableToTheEnd() throws Exception {
    var h = harness(BudgetConfig.of(0.3, Duration.ofDays(1)), null);
    h.setProcessingTime(at(0, 1));
    for (int i = 0; i < 4; i++) {
      h.processElement(
          new PerturbedRecord(
                  new byte[] {(byte) i},
                  new byte[0],
                  0.1,
                  "u",
                  at(0, 0.5),
                  TimestampType.LOG_APPEND_TIME)
              .from("raw", 0, i),
          0);
    }
    // 0.1 + 0.1 + 0.1 = 0.30000000000000004 in doubles.
    assertThat(h.extractOutputValues()).hasSize(3);
    assertThat(reasons(h)).containsExactly("budget-exhausted");
  }

  /**
   * The documented rule at its edge: a record fits while {@code spent + cost <= budget (1 +
   * 1e-12)}, so a cost of exactly that bound is released and one a double above it is refused.
   */
  @Test
  void aRecordFitsUpToTheBudgetTimesOnePlusTheTolerance() throws Exception {
    var h = harness(BudgetConfig.of(1, Duration.ofDays(1)), null);
    h.setProcessingTime(at(0, 1));
    double bound = 1 * (1 + 1e-12);
    h.processElement(
        new PerturbedRecord(
                new byte[] {1},
                new byte[0],
                Math.nextUp(bound),
                "u",
                at(0, 0.5),
                TimestampType.LOG_APPEND_TIME)
            .from("raw", 0, 1),
        0);
    h.processElement(
        new PerturbedRecord(
                new byte[] {2}, new byte[0], bound, "u", at(0, 0.5), TimestampType.LOG_APPEND_TIME)
            .from("raw", 0, 2),
        0);
    assertThat(h.extractOutputValues()).extracting(r -> r.getKey()[0]).containsExactly((byte) 2);
    assertThat(reasons(h)).containsExactly("budget-exhausted");
  }

  /**
   * An adversary who controls how a user's records are spread over partitions and when each is
   * read: records of three users with log-append times scattered from three days behind to two days
   * ahead of the job's clock, which advances in random steps. Each outcome must be the one of a
   * model that never forgets any spending: the first 3 records of a (user, day) that is open and
   * not too far ahead are released, all others refused for the right reason.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void noOrderOfRecordsLetsAUserExceedTheBudgetInAnyPeriod(long seed) throws Exception {
    var h = harness(LOG_APPEND, null);
    AesCtrSource rnd = AesCtrSource.seeded(seed);
    long now = at(10, 0);
    h.setProcessingTime(now);
    Map<String, Integer> model = new HashMap<>();
    List<String> expectedReleased = new ArrayList<>();
    List<String> expectedReasons = new ArrayList<>();
    for (int step = 0; step < 3_000; step++) {
      if (rnd.nextUniform() < 0.05) {
        now += (long) (rnd.nextUniform() * DAY / 2);
        h.setProcessingTime(now);
      }
      String user = "user-" + rnd.nextBounded(3);
      long time = now + (long) ((rnd.nextUniform() * 5 - 3) * DAY);
      long day = Math.floorDiv(time, DAY);
      long today = Math.floorDiv(now, DAY);
      String id = appended(h, user, time);
      if (day > today + 1) {
        expectedReasons.add("untrusted-time");
      } else if (now >= (day + 2) * DAY) {
        expectedReasons.add("budget-period-closed");
      } else if (model.merge(user + "/" + day, 1, Integer::sum) <= 3) {
        expectedReleased.add(id);
      } else {
        expectedReasons.add("budget-exhausted");
      }
    }
    assertThat(released(h)).containsExactlyElementsOf(expectedReleased);
    assertThat(reasons(h)).containsExactlyElementsOf(expectedReasons);
    assertThat(expectedReleased).hasSizeGreaterThan(100);
    assertThat(expectedReasons)
        .contains("untrusted-time", "budget-period-closed", "budget-exhausted");
  }

  @Test
  void metricsCountReleasedRecordsOnly() throws Exception {
    CapturedMetrics metrics = new CapturedMetrics();
    open.add(metrics.environment);
    var h =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new KeyedProcessOperator<>(new BudgetFunction(LOG_APPEND, FINGERPRINT)),
            PerturbedRecord::getUser,
            Types.STRING,
            metrics.environment);
    open.add(h);
    h.open();
    h.setProcessingTime(at(0, 12));
    for (int i = 0; i < 5; i++) {
      appended(h, "u", at(0, 1));
      send(h, "v", at(0, 1), TimestampType.CREATE_TIME);
    }
    appended(h, "w", at(-2, 1)); // a period closed a day ago
    assertThat(released(h)).hasSize(3);
    assertThat(((Counter) metrics.operator.get("recordsPerturbed")).getCount()).isEqualTo(3);
    assertThat(((Gauge<?>) metrics.operator.get("epsilonSpent")).getValue()).isEqualTo(3.0);
    // Each refusal is counted under its reason, as many as the dead letters.
    assertThat(metrics.count("reason", "budget-exhausted", "recordsDeadLettered")).isEqualTo(2);
    assertThat(metrics.count("reason", "untrusted-time", "recordsDeadLettered")).isEqualTo(5);
    assertThat(metrics.count("reason", "budget-period-closed", "recordsDeadLettered")).isEqualTo(1);
    assertThat(reasons(h)).hasSize(8);
  }
}
