package io.ogpm.flink;

/** What a user has spent in the current budget period. A Flink POJO, kept in keyed state. */
public class BudgetState {
  private long period;
  private double spent;

  public BudgetState() {}

  public BudgetState(long period, double spent) {
    this.period = period;
    this.spent = spent;
  }

  public long getPeriod() {
    return period;
  }

  public void setPeriod(long period) {
    this.period = period;
  }

  public double getSpent() {
    return spent;
  }

  public void setSpent(double spent) {
    this.spent = spent;
  }
}
