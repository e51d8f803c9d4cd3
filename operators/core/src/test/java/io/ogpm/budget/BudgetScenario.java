package io.ogpm.budget;

import io.ogpm.config.BudgetClock;
import io.ogpm.config.BudgetConfig;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A random run of a per-user budget, the same for a fixed seed: a budget, and the records its users
 * send, each read at a time of the task's clock, with restores between them. What a budget must do
 * with it is {@link BudgetModel}'s to say; {@link BudgetModelCheck} runs both.
 *
 * <p>The clock mostly moves forwards in small steps, and sometimes jumps: periods ahead, or back
 * (NTP stepping a task manager's clock), by up to three periods. A restore starts the budget again
 * from its saved state on a clock that may be behind the latest one read before it, by less than a
 * period: the tolerance the budget's calendar promises ({@link BudgetPeriods#forgetAt}). Records
 * carry Kafka timestamps from before the oldest open period to beyond the next one, and a few
 * absurd ones; their timestamp types are the broker's ({@code LogAppendTime}) or the producer's
 * ({@code CreateTime}, {@code NoTimestampType}, none). The budget is a small multiple of the cost,
 * written in decimal, so that sums of costs meet it only up to rounding.
 *
 * @param seed the seed it was drawn from, to name it in a failure
 * @param budget the budget under test
 * @param cost the cost the budget is a multiple of; every record's when drawn with {@code oneCost}
 * @param events offers and restores, in order
 */
public record BudgetScenario(long seed, BudgetConfig budget, double cost, List<Event> events) {
  /** Midnight UTC: the clock starts within the period that follows. */
  static final long START = Instant.parse("2026-03-01T00:00:00Z").toEpochMilli();

  static final double[] COSTS = {0.1, 0.2, 0.3, 0.7, 1.0, 2.5};
  static final String[] TYPES = {
    BudgetClock.LOG_APPEND_TIME_VALUE, "CreateTime", "NoTimestampType", null
  };

  /** An event of a run. */
  public sealed interface Event {}

  /**
   * A record reaches the budget.
   *
   * @param clock the task's clock when it does (epoch ms); the budget's may be later
   * @param time its Kafka timestamp (epoch ms)
   * @param timestampType the name of its Kafka timestamp type, or null
   */
  public record Offer(String user, long clock, long time, String timestampType, double cost)
      implements Event {}

  /** The budget restores from a snapshot of its state taken now, on a task whose clock restarts. */
  public record Restore() implements Event {}

  /**
   * The run of a seed.
   *
   * @param oneCost every record costs the same (the SQL function's cost is a literal of its call);
   *     else costs vary from record to record
   */
  public static BudgetScenario generate(long seed, boolean oneCost) {
    return generate(seed, oneCost, false);
  }

  /**
   * The run of a seed, its budget paced in half the runs when {@code paced}: in slices of the
   * period over as many as the budget holds costs (at least one cost a slice).
   */
  public static BudgetScenario generate(long seed, boolean oneCost, boolean paced) {
    SplittableRandom rnd = new SplittableRandom(seed);
    Duration period = rnd.nextBoolean() ? Duration.ofHours(1) : Duration.ofDays(1);
    long len = period.toMillis();
    boolean logAppend = rnd.nextInt(3) > 0;
    Duration[] lags = {
      null, Duration.ZERO, period.dividedBy(3), period.multipliedBy(5).dividedBy(2)
    };
    Duration maxLag = logAppend ? lags[rnd.nextInt(lags.length)] : null;
    double cost = COSTS[rnd.nextInt(COSTS.length)];
    int multiple = new int[] {1, 2, 3, 5}[rnd.nextInt(4)];
    double epsilon =
        new BigDecimal(Double.toString(cost)).multiply(BigDecimal.valueOf(multiple)).doubleValue();
    BudgetConfig budget =
        BudgetConfig.of(
            epsilon,
            period,
            logAppend ? BudgetClock.LOG_APPEND_TIME : BudgetClock.INGESTION_TIME,
            maxLag);
    if (paced && rnd.nextBoolean()) {
      budget = budget.withPacing(period.dividedBy(1 + rnd.nextInt(multiple)));
    }
    long lag = budget.maxLag().toMillis();
    int users = 1 + rnd.nextInt(4);
    List<Event> events = new ArrayList<>();
    long clock = START + rnd.nextLong(len);
    long latest = clock;
    int n = 400 + rnd.nextInt(400);
    for (int i = 0; i < n; i++) {
      double move = rnd.nextDouble();
      if (move < 0.02) {
        events.add(new Restore());
        clock = latest - len + 1 + rnd.nextLong(len + len / 4);
      } else if (move < 0.72) {
        clock += rnd.nextLong(len / 8 + 1);
      } else if (move < 0.80) {
        clock += len + rnd.nextLong(3 * len);
      } else if (move < 0.95) {
        clock -= rnd.nextLong(3 * len + 1);
      }
      latest = Math.max(latest, clock);
      long time;
      if (rnd.nextInt(40) == 0) {
        time = rnd.nextBoolean() ? 0 : clock + 1000 * len;
      } else {
        time = clock - 3 * len - lag + rnd.nextLong(6 * len + lag);
      }
      String type = TYPES[rnd.nextInt(8) < 5 ? 0 : 1 + rnd.nextInt(3)];
      double c = oneCost ? cost : COSTS[rnd.nextInt(COSTS.length)];
      events.add(new Offer("user-" + rnd.nextInt(users), clock, time, type, c));
    }
    return new BudgetScenario(seed, budget, cost, List.copyOf(events));
  }
}
