package io.ogpm.flink.table;

/**
 * Why a SQL function gave NULL for a value (scalar functions) or left a value out of its estimate
 * (aggregate functions): the {@code reason} of the functions' metrics.
 */
enum Reason {
  /** The value is NULL (NULL in, NULL out; aggregates skip NULLs as SQL's own do, uncounted). */
  NULL_VALUE("null-value"),
  /** The value is NaN or infinite. */
  NOT_A_NUMBER("not-a-number"),
  /** The value lies outside the classical domain [lo, hi]. */
  OUT_OF_RANGE("out-of-range"),
  /** A keyed call's record id is NULL: keyed randomness needs one. */
  NULL_RECORD_ID("null-record-id"),
  /**
   * The call's arguments define no mechanism (NULL, eps &lt;= 0, lo &gt;= hi, unknown names...).
   */
  INVALID_ARGUMENT("invalid-argument"),
  /** A value no perturbation with the call's mechanism can output (beyond its output domain). */
  NOT_A_PERTURBED_VALUE("not-a-perturbed-value"),
  /** A value whose arguments differ from those of the values already in its group or window. */
  OTHER_MECHANISM("other-mechanism"),
  /** A retraction of a value that its group or window does not hold (an inconsistent changelog). */
  ABSENT_VALUE("absent-value");

  private final String code;

  Reason(String code) {
    this.code = code;
  }

  /** The stable code: the value of the metric's {@code reason} group. */
  String code() {
    return code;
  }
}
