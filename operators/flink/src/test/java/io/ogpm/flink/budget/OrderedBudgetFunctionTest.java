package io.ogpm.flink.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.config.BudgetConfig;
import io.ogpm.flink.PerturbedRecord;
import io.ogpm.flink.order.Placed;
import io.ogpm.flink.perturb.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * The budget that feeds the order stage: the same decisions as {@link BudgetFunction}, but every
 * outcome leaves on the main output at its record's place, a refusal as its dead letter and never
 * with its perturbed value.
 */
class OrderedBudgetFunctionTest {
  static final long NOON = Instant.parse("2026-03-01T12:00:00Z").toEpochMilli();

  @Test
  void emitsEachOutcomeAtItsRecordsPlaceAndRefusalsWithoutTheirValue() throws Exception {
    try (var h =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new KeyedProcessOperator<>(
                new OrderedBudgetFunction(
                    BudgetConfig.of(2, Duration.ofDays(1)), BudgetFunctionTest.FINGERPRINT)),
            PerturbedRecord::getUser,
            Types.STRING)) {
      h.open();
      h.setProcessingTime(NOON);
      for (long sequence = 0; sequence < 3; sequence++) {
        PerturbedRecord r =
            new PerturbedRecord(
                    ("r" + sequence).getBytes(StandardCharsets.UTF_8),
                    "{\"x\":0.5}".getBytes(StandardCharsets.UTF_8),
                    1.0,
                    "u",
                    NOON,
                    TimestampType.LOG_APPEND_TIME)
                .from("raw", 4, 100 + sequence);
        r.setSequence(sequence);
        h.processElement(r, NOON);
      }
      List<Placed> out = h.extractOutputValues();
      assertThat(out).extracting(Placed::getTopic).containsOnly("raw");
      assertThat(out).extracting(Placed::getPartition).containsOnly(4);
      assertThat(out).extracting(Placed::getSequence).containsExactly(0L, 1L, 2L);
      assertThat(out.get(0).getRecord().getFingerprint()).isEqualTo(BudgetFunctionTest.FINGERPRINT);
      assertThat(out.get(1).getDeadLetter()).isNull();
      Placed refused = out.get(2);
      assertThat(refused.getRecord()).as("a refused record's perturbed value").isNull();
      assertThat(refused.getDeadLetter().getReason()).isEqualTo("budget-exhausted");
      assertThat(new String(refused.getDeadLetter().getValue(), StandardCharsets.UTF_8))
          .contains("\"offset\":102")
          .doesNotContain("0.5");
      assertThat(h.getSideOutput(DeadLetters.TAG)).as("nothing beside the main output").isNull();
    }
  }
}
