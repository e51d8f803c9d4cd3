package io.ogpm.flink.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.budget.BudgetModelCheck;
import io.ogpm.budget.BudgetOutcome;
import io.ogpm.budget.BudgetScenario;
import io.ogpm.budget.BudgetScenario.Offer;
import io.ogpm.budget.BudgetUnderTest;
import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.DeadLetterRecord;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.perturb.DeadLetters;
import io.ogpm.record.ReasonCode;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The DataStream budget ({@link BudgetFunction}) in Flink's keyed operator test harness against the
 * budget's model ({@code io.ogpm.budget.BudgetModel}), over the core's random scenarios: users,
 * costs, Kafka timestamps of every type, a task clock that jumps forwards and back, and restores
 * from a snapshot of the operator's keyed state and timers into a new operator, whose clock starts
 * again. Each record is released or dead-lettered as the model says, the dead letter with the
 * model's time. The SQL budget runs the same scenarios ({@code LdpBudgetModelTest}).
 */
class PerUserBudgetModelTest {
  /** The operator in a harness; a restore moves it into a new harness. */
  static final class Harnessed implements BudgetUnderTest, AutoCloseable {
    private final BudgetConfig budget;
    private KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord>
        harness;
    private long clock;
    private long offset;

    Harnessed(BudgetConfig budget) throws Exception {
      this.budget = budget;
      this.harness = open(null);
    }

    private KeyedOneInputStreamOperatorTestHarness<String, PerturbedRecord, PerturbedRecord> open(
        OperatorSubtaskState restore) throws Exception {
      var h =
          new KeyedOneInputStreamOperatorTestHarness<>(
              new KeyedProcessOperator<>(new BudgetFunction(budget, "v1:model")),
              PerturbedRecord::getUser,
              Types.STRING);
      if (restore != null) {
        h.initializeState(restore);
      }
      h.open();
      return h;
    }

    @Override
    public BudgetOutcome offer(Offer o) throws Exception {
      clock = o.clock();
      harness.setProcessingTime(clock);
      PerturbedRecord r =
          new PerturbedRecord(
                  ("r" + offset).getBytes(StandardCharsets.UTF_8),
                  "{}".getBytes(StandardCharsets.UTF_8),
                  o.cost(),
                  o.user(),
                  o.time(),
                  o.timestampType() == null ? null : TimestampType.forName(o.timestampType()))
              .from("raw", 0, offset++);
      harness.processElement(r, o.time());
      Object released = harness.getOutput().poll();
      var deadLetters = harness.getSideOutput(DeadLetters.TAG);
      StreamRecord<DeadLetterRecord> dead = deadLetters == null ? null : deadLetters.poll();
      assertThat(released == null)
          .as("released or dead-lettered, not both")
          .isNotEqualTo(dead == null);
      if (released != null) {
        return BudgetOutcome.released(null);
      }
      return BudgetOutcome.refused(
          reason(dead.getValue().getReason()), dead.getValue().getTimestamp());
    }

    private static ReasonCode reason(String code) {
      for (ReasonCode c : ReasonCode.values()) {
        if (c.code().equals(code)) {
          return c;
        }
      }
      throw new AssertionError("no reason code " + code);
    }

    @Override
    public void restore() throws Exception {
      OperatorSubtaskState snapshot = harness.snapshot(offset, clock);
      harness.close();
      harness = open(snapshot);
    }

    @Override
    public void close() throws Exception {
      harness.close();
    }
  }

  @Test
  @Tag("slow") // 30 scenarios in the harness, no mutant that faster tests leave: left out of PIT
  void everyRecordGetsWhatTheModelSays() throws Exception {
    Map<String, Integer> total = new TreeMap<>();
    for (long seed = 1; seed <= 30; seed++) {
      BudgetScenario scenario = BudgetScenario.generate(seed, seed % 2 == 0, true);
      try (Harnessed budget = new Harnessed(scenario.budget())) {
        BudgetModelCheck.add(total, BudgetModelCheck.run(scenario, budget));
      }
    }
    assertThat(total)
        .containsKeys(
            "released", "untrusted-time", "budget-period-closed", "budget-exhausted", "restore");
  }
}
