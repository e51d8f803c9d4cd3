package io.ogpm.budget;

import io.ogpm.budget.BudgetScenario.Offer;

/** A budget driven by {@link BudgetModelCheck}: the DataStream operator's, the SQL function's... */
public interface BudgetUnderTest {
  /** Offers a record at its clock reading, and says what the record got. */
  BudgetOutcome offer(Offer offer) throws Exception;

  /** Snapshots the budget's state and restores it into a new instance, whose clock starts again. */
  void restore() throws Exception;
}
