package io.ogpm.flink;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.DateTimeException;
import java.time.Instant;

/** Reads an event time from a JSON value: epoch milliseconds, or an ISO-8601 instant string. */
final class EventTimes {
  private EventTimes() {}

  /**
   * The time in epoch milliseconds (a fractional number: the millisecond it falls in, toward zero),
   * or {@code fallback} when absent or unreadable, which includes a number or an instant outside
   * the range of epoch milliseconds in a long: clamped, it would stand for the end of time (Flink's
   * final watermark) instead of for the record's time.
   */
  static long of(JsonNode node, long fallback) {
    if (node == null) {
      return fallback;
    }
    if (node.isNumber() && node.canConvertToLong()) {
      return node.asLong();
    }
    if (node.isTextual()) {
      try {
        return Instant.parse(node.asText()).toEpochMilli();
      } catch (DateTimeException | ArithmeticException e) {
        return fallback;
      }
    }
    return fallback;
  }
}
