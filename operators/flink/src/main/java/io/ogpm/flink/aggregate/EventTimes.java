package io.ogpm.flink.aggregate;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.DateTimeException;
import java.time.Instant;

/**
 * Reads an event time from a JSON value: epoch milliseconds, or an ISO-8601 instant string. Times
 * are kept within {@code ±2^62} ms (about 146 million years either side of 1970), so that window
 * arithmetic (a window's start, end and end of lateness) can never overflow a long, and Flink's
 * no-timestamp marker {@code Long.MIN_VALUE} is never a record's time.
 */
final class EventTimes {
  /** Times must lie strictly between {@code -LIMIT} and {@code LIMIT}. */
  static final long LIMIT = 1L << 62;

  private EventTimes() {}

  /**
   * The time in epoch milliseconds (a fractional number: the millisecond it falls in, toward zero),
   * or {@code fallback} when absent or unreadable, which includes a number or an instant outside
   * {@code ±2^62} ms: clamped, it would stand for the end of time (Flink's final watermark) instead
   * of for the record's time.
   */
  static long of(JsonNode node, long fallback) {
    if (node == null) {
      return fallback;
    }
    if (node.isNumber() && node.canConvertToLong()) {
      return inRange(node.asLong()) ? node.asLong() : fallback;
    }
    if (node.isTextual()) {
      try {
        long t = Instant.parse(node.asText()).toEpochMilli();
        return inRange(t) ? t : fallback;
      } catch (DateTimeException | ArithmeticException e) {
        return fallback;
      }
    }
    return fallback;
  }

  /** Whether a time lies strictly within {@code ±2^62} ms. */
  static boolean inRange(long time) {
    return time > -LIMIT && time < LIMIT;
  }
}
