package io.ogpm.record;

/**
 * Thrown where a record leaves plain JSON ({@link PlainJsonScanner}): Jackson's strict reader reads
 * it instead. One shared instance without a stack trace or message of the input: thrown per record,
 * it costs no allocation and carries no raw value.
 */
final class NotPlainJson extends RuntimeException {
  private static final long serialVersionUID = 1L;

  static final NotPlainJson INSTANCE = new NotPlainJson();

  private NotPlainJson() {
    super("not plain JSON", null, false, false);
  }
}
