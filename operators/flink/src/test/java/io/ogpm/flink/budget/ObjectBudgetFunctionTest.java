package io.ogpm.flink.budget;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.CapturedMetrics;
import io.ogpm.flink.DeadLetterRecord;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.Readings;
import io.ogpm.flink.Readings.Reading;
import io.ogpm.flink.perturb.DeadLetters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The budget of the user's own records in Flink's keyed test harness: (user, record) pairs in,
 * records out, each costing the configuration's epsilon per record, on the ingestion-time clock
 * (the only one such records allow). Budget 5 per day, 2 per record: two records per user and day.
 */
class ObjectBudgetFunctionTest {
  static final long DAY = Duration.ofDays(1).toMillis();
  static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aUsersRecordsAreReleasedWhileTheirDaysBudgetLasts() throws Exception {
    BudgetConfig budget = BudgetConfig.of(5, Duration.ofDays(1), BudgetClock.INGESTION_TIME, null);
    CapturedMetrics metrics = new CapturedMetrics();
    List<Reading> released = new ArrayList<>();
    List<JsonNode> dead = new ArrayList<>();
    try (var h =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new KeyedProcessOperator<>(new ObjectBudgetFunction<Reading>(budget)),
            (Tuple3<String, Double, Reading> t) -> t.f0,
            Types.STRING,
            metrics.environment)) {
      h.open();
      h.setProcessingTime(10 * DAY + 1);
      for (int i = 0; i < 6; i++) {
        h.processElement(Tuple3.of("user-" + (i % 2), 2.0, Readings.reading(i, 0.5, 1.0)), 0);
      }
      h.setProcessingTime(11 * DAY + 1); // the next day: a new budget
      h.processElement(Tuple3.of("user-0", 2.0, Readings.reading(6, 0.5, 1.0)), 0);
      released.addAll(h.extractOutputValues());
      for (StreamRecord<DeadLetterRecord> d : h.getSideOutput(DeadLetters.TAG)) {
        assertThat(d.getValue().getTimestamp()).as("the ingestion time").isEqualTo(10 * DAY + 1);
        dead.add(JSON.readTree(d.getValue().getValue()));
      }
    }
    metrics.environment.close();
    assertThat(released).extracting(r -> r.id).containsExactly("r0", "r1", "r2", "r3", "r6");
    assertThat(dead).hasSize(2);
    for (JsonNode d : dead) {
      assertThat(d.get("reason").asText()).isEqualTo("budget-exhausted");
      assertThat(d.get("message").asText())
          .isEqualTo("the user's privacy budget of 5.0 per PT24H is spent for the record's period");
      assertThat(d.get("source").size()).as("no origin known").isZero();
      assertThat(d.toString()).doesNotContain("user-", "r4", "r5");
    }
    assertThat(((Counter) metrics.operator.get("recordsPerturbed")).getCount()).isEqualTo(5);
    assertThat(((Gauge<?>) metrics.operator.get("epsilonSpent")).getValue()).isEqualTo(10.0);
    assertThat(metrics.count("reason", "budget-exhausted", "recordsDeadLettered")).isEqualTo(2);
  }

  /**
   * Were the log-append-time clock configured anyway, no record would pass: they carry no broker
   * time.
   */
  @Test
  void withoutABrokersTimeNoRecordPassesTheLogAppendClock() throws Exception {
    BudgetConfig budget = BudgetConfig.of(5, Duration.ofDays(1));
    try (var h =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new KeyedProcessOperator<>(new ObjectBudgetFunction<Reading>(budget)),
            (Tuple3<String, Double, Reading> t) -> t.f0,
            Types.STRING)) {
      h.open();
      h.setProcessingTime(10 * DAY);
      h.processElement(Tuple3.of("user-0", 2.0, Readings.reading(0, 0.5, 1.0)), 10 * DAY);
      assertThat(h.extractOutputValues()).isEmpty();
      assertThat(BudgetFunctionTest.reasons(castHarness(h))).containsExactly("untrusted-time");
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord>
      castHarness(Object h) {
    return (KeyedOneInputStreamOperatorTestHarness) h;
  }
}
