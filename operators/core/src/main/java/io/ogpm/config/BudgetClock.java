package io.ogpm.config;

import io.ogpm.annotation.PublicEvolving;

/**
 * Which clock assigns a record to a budget period. Never the producer's: a producer that chooses
 * its records' timestamps could spread them over as many periods as it likes and spend a fresh
 * budget in each.
 */
@PublicEvolving
public enum BudgetClock {
  /**
   * The Kafka timestamp of the raw record, accepted only when the broker set it on append (the raw
   * topic has {@value #TOPIC_SETTING}={@value #LOG_APPEND_TIME_VALUE}); a record with a producer's
   * CreateTime is refused ({@code untrusted-time}). The default: a replay after a failure charges
   * every record to the same period as the first time.
   */
  LOG_APPEND_TIME("log-append-time"),
  /**
   * The processing-time clock of the budget operator when it first sees the record; works on any
   * topic. A record replayed after a failure is charged to the period of its replay, which may be a
   * later one than the first time (the aborted first attempt was never released).
   */
  INGESTION_TIME("ingestion-time");

  /** The Kafka topic setting that makes the broker stamp records on append. */
  public static final String TOPIC_SETTING = "message.timestamp.type";

  /** The value of {@link #TOPIC_SETTING} that {@link #LOG_APPEND_TIME} requires. */
  public static final String LOG_APPEND_TIME_VALUE = "LogAppendTime";

  private final String id;

  BudgetClock(String id) {
    this.id = id;
  }

  /** The name used in configuration files. */
  public String id() {
    return id;
  }

  /** Parses {@code log-append-time} or {@code ingestion-time}. */
  public static BudgetClock parse(String id) {
    for (BudgetClock c : values()) {
      if (c.id.equals(id)) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "clock must be log-append-time or ingestion-time, got " + ConfigException.quote(id));
  }
}
