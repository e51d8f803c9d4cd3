package io.ogpm.record;

import io.ogpm.annotation.PublicEvolving;

/** Why a record was dead-lettered: stable codes that dashboards and alerts can rely on. */
@PublicEvolving
public enum ReasonCode {
  /** Not valid JSON (syntax, invalid UTF-8, duplicate keys, trailing data). */
  MALFORMED_JSON("malformed-json"),
  /**
   * Valid JSON up to where it nests deeper than the reader allows ({@code
   * RecordPerturber.MAX_NESTING}).
   */
  TOO_DEEP("too-deep"),
  /** Valid JSON, but not an object. */
  NOT_AN_OBJECT("not-an-object"),
  /** Larger than the configured record size limit. */
  TOO_LARGE("too-large"),
  /** A configured field (or the id or user field) is absent or null. */
  MISSING_FIELD("missing-field"),
  /** A configured field is not a finite JSON number (a string, a boolean, an object, 1e309...). */
  NOT_A_NUMBER("not-a-number"),
  /** A configured field is outside [min, max] and the field rejects out-of-range values. */
  OUT_OF_RANGE("out-of-range"),
  /** The user has spent the privacy budget of the record's period. */
  BUDGET_EXHAUSTED("budget-exhausted"),
  /**
   * The record's budget period has been closed longer than the budget's max-lag: its spending is no
   * longer kept, so it cannot be charged.
   */
  BUDGET_PERIOD_CLOSED("budget-period-closed"),
  /**
   * The record's time cannot place it in a budget period: a producer's CreateTime where the budget
   * needs the broker's LogAppendTime, or a broker time more than a period ahead of the job's clock.
   */
  UNTRUSTED_TIME("untrusted-time"),
  /**
   * The user sent more records in the record's contribution window than the bound releases, and
   * this one was not among those chosen (uniformly at random among the window's records).
   */
  CONTRIBUTION_BOUND("contribution-bound"),
  /**
   * The record's contribution window has closed (more than its max-lag after its end): its chosen
   * records have left, so no record can be added to it.
   */
  CONTRIBUTION_WINDOW_CLOSED("contribution-window-closed");

  private final String code;

  ReasonCode(String code) {
    this.code = code;
  }

  /** The code as it appears in dead letters and metrics. */
  public String code() {
    return code;
  }
}
