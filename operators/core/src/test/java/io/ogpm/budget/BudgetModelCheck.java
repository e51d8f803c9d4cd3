package io.ogpm.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.budget.BudgetScenario.Event;
import io.ogpm.budget.BudgetScenario.Offer;
import java.util.Map;
import java.util.TreeMap;

/**
 * The model-based test of a per-user budget: runs a {@link BudgetScenario} on a budget and on
 * {@link BudgetModel}, and fails at the first record whose outcome differs, naming the seed, the
 * event and both outcomes.
 */
public final class BudgetModelCheck {
  private BudgetModelCheck() {}

  /**
   * Runs the scenario; returns how many records got each outcome ({@link BudgetOutcome#name}) and
   * how many restores it made ({@code restore}), so that a test can show it reached each.
   */
  public static Map<String, Integer> run(BudgetScenario scenario, BudgetUnderTest budget)
      throws Exception {
    BudgetModel model = new BudgetModel(scenario.budget());
    Map<String, Integer> tally = new TreeMap<>();
    int i = 0;
    for (Event e : scenario.events()) {
      if (e instanceof Offer o) {
        BudgetOutcome expected = model.offer(o);
        BudgetOutcome shown = budget.offer(o);
        assertThat(expected.admits(shown))
            .as(
                "seed %d, %s, event %d %s: expected %s, got %s",
                scenario.seed(), scenario.budget(), i, o, expected, shown)
            .isTrue();
        tally.merge(expected.name(), 1, Integer::sum);
      } else {
        model.restore();
        budget.restore();
        tally.merge("restore", 1, Integer::sum);
      }
      i++;
    }
    return tally;
  }

  /** Adds one run's tally to a total. */
  public static void add(Map<String, Integer> total, Map<String, Integer> run) {
    run.forEach((k, v) -> total.merge(k, v, Integer::sum));
  }
}
