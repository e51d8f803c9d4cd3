package io.ogpm.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.budget.BudgetModelCheck;
import io.ogpm.budget.BudgetOutcome;
import io.ogpm.budget.BudgetScenario;
import io.ogpm.budget.BudgetScenario.Offer;
import io.ogpm.budget.BudgetUnderTest;
import io.ogpm.record.ReasonCode;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.table.api.dataview.MapView;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

/**
 * The SQL budget ({@link LdpBudget}, row by row as its {@code eval} decides) against the budget's
 * model ({@code io.ogpm.budget.BudgetModel}), over the core's random scenarios with one cost each
 * (the function's cost is a literal of its call): users, Kafka timestamps of every type in the time
 * columns, a task clock that jumps forwards and back, and restores, after which a new function
 * instance opens on the same state (each user's map of spending by period) and its clock starts
 * again. Each row is released with the model's spending, or refused and counted under the model's
 * reason. The DataStream budget runs the same scenarios ({@code PerUserBudgetModelTest}).
 */
class LdpBudgetModelTest {
  /** The function on a row {@code (user, kafka_timestamp, kafka_timestamp_type)}. */
  static final class Function implements BudgetUnderTest {
    private final BudgetScenario scenario;
    private final TestMetrics metrics = new TestMetrics();
    private final Map<String, MapView<Long, Double>> state = new HashMap<>();
    private LdpBudget function;

    Function(BudgetScenario scenario) {
      this.scenario = scenario;
      restore();
    }

    @Override
    public BudgetOutcome offer(Offer o) throws Exception {
      assertThat(o.cost()).as("one cost per call").isEqualTo(scenario.cost());
      Map<ReasonCode, Long> before = refusals();
      Row out =
          function.decide(
              state.computeIfAbsent(o.user(), u -> new MapView<>()),
              Row.of(o.user(), Instant.ofEpochMilli(o.time()), o.timestampType()),
              o.clock());
      if (out != null) {
        return BudgetOutcome.released((Double) out.getField(0));
      }
      Map<ReasonCode, Long> after = refusals();
      for (ReasonCode r : ReasonCode.values()) {
        if (after.get(r) == before.get(r) + 1) {
          return BudgetOutcome.refused(r, null);
        }
      }
      throw new AssertionError("a row refused and not counted");
    }

    private Map<ReasonCode, Long> refusals() {
      Map<ReasonCode, Long> counts = new HashMap<>();
      for (ReasonCode r : ReasonCode.values()) {
        counts.put(r, metrics.count("recordsRefused", r.code()));
      }
      return counts;
    }

    /** A new function instance on the same state, as a restored task opens it. */
    @Override
    public void restore() {
      function = new LdpBudget();
      function.open(metrics);
      function.bind(scenario.budget(), scenario.cost(), 1, 2, new int[] {0});
    }
  }

  @Test
  void everyRowGetsWhatTheModelSays() throws Exception {
    Map<String, Integer> total = new TreeMap<>();
    for (long seed = 1; seed <= 30; seed++) {
      BudgetScenario scenario = BudgetScenario.generate(seed, true, true);
      BudgetModelCheck.add(total, BudgetModelCheck.run(scenario, new Function(scenario)));
    }
    assertThat(total)
        .containsKeys(
            "released", "untrusted-time", "budget-period-closed", "budget-exhausted", "restore");
  }
}
