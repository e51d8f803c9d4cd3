package io.ogpm.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.budget.BudgetScenario.Offer;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The budget's rule alone, with the spending in a map and a {@link TaskClock} that a restore starts
 * again, against {@link BudgetModel} ({@link BudgetModelCheck}). The budgets that apply it run the
 * same scenarios in their own modules: {@code PerUserBudgetModelTest} (DataStream) and {@code
 * LdpBudgetModelTest} (SQL).
 */
class BudgetRuleModelTest {
  /** The rule on a map of spending: what both budgets hold in their state. */
  static final class RuleAlone implements BudgetUnderTest {
    private final BudgetRule rule;
    private final Map<String, Map<Long, Double>> spent = new HashMap<>();
    private TaskClock clock = new TaskClock();

    RuleAlone(BudgetScenario scenario) {
      this.rule = new BudgetRule(scenario.budget());
    }

    @Override
    public BudgetOutcome offer(Offer o) throws Exception {
      Map<Long, Double> user = spent.computeIfAbsent(o.user(), u -> new HashMap<>());
      BudgetDecision d =
          rule.decide(
              clock.now(o.clock()),
              o.time(),
              o.timestampType(),
              period -> user.getOrDefault(period, 0.0),
              o.cost());
      if (d instanceof BudgetDecision.Released r) {
        user.put(r.period(), r.spent());
        return BudgetOutcome.released(r.spent());
      }
      BudgetDecision.Refused f = (BudgetDecision.Refused) d;
      return BudgetOutcome.refused(f.reason(), f.time());
    }

    @Override
    public void restore() {
      clock = new TaskClock();
    }
  }

  @Test
  void everyRecordGetsWhatTheModelSays() throws Exception {
    Map<String, Integer> total = new TreeMap<>();
    for (long seed = 1; seed <= 60; seed++) {
      BudgetScenario scenario = BudgetScenario.generate(seed, seed % 2 == 0, true);
      BudgetModelCheck.add(total, BudgetModelCheck.run(scenario, new RuleAlone(scenario)));
    }
    assertThat(total)
        .containsKeys(
            "released", "untrusted-time", "budget-period-closed", "budget-exhausted", "restore");
  }
}
