package io.ogpm.flink;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Reads an event time from a JSON value: epoch milliseconds, or an ISO-8601 instant string. */
final class EventTimes {
  private EventTimes() {}

  /** The time in epoch milliseconds, or {@code fallback} when absent or unreadable. */
  static long of(JsonNode node, long fallback) {
    if (node == null) {
      return fallback;
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return node.asLong();
    }
    if (node.isNumber() && Double.isFinite(node.asDouble())) {
      return (long) node.asDouble();
    }
    if (node.isTextual()) {
      try {
        return Instant.parse(node.asText()).toEpochMilli();
      } catch (DateTimeParseException e) {
        return fallback;
      }
    }
    return fallback;
  }
}
