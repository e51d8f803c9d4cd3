package io.ogpm.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.testkit.KafkaRecord;
import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts by window, group and field ({@code "2026-01-01T00:00:10Z downstairs attitude.roll"}):
 * those the perturbed records make, and those the aggregate job's statistics report.
 */
final class WindowCounts {
  private static final ObjectMapper JSON = new ObjectMapper();

  private WindowCounts() {}

  /**
   * Perturbed records per window of their {@code ts}, {@code activity} and field they report (all
   * of them, or with field sampling some): what the stats must count.
   */
  static Map<String, Long> ofPerturbed(
      List<KafkaRecord> perturbed, long window, List<String> fields) throws IOException {
    Map<String, Long> out = new HashMap<>();
    for (KafkaRecord r : perturbed) {
      JsonNode record = JSON.readTree(r.value());
      long start = Math.floorDiv(record.get("ts").asLong(), window) * window;
      for (String field : fields) {
        // With field sampling a record reports some of its fields: count those it holds.
        if (!record.at("/" + field.replace('.', '/')).isNumber()) {
          continue;
        }
        out.merge(
            Instant.ofEpochMilli(start) + " " + record.get("activity").asText() + " " + field,
            1L,
            Long::sum);
      }
    }
    return out;
  }

  /**
   * How far, in event time ({@code ts}), a record of the perturbed topic lies behind the latest one
   * before it in its partition (read_committed order), at most over all partitions: what the
   * aggregation's out-of-orderness has to cover, or its allowed lateness to repair.
   */
  static long largestStepBack(List<KafkaRecord> perturbed) throws IOException {
    Map<Integer, Long> latest = new HashMap<>();
    long largest = 0;
    for (KafkaRecord r :
        perturbed.stream()
            .sorted(
                java.util.Comparator.comparingInt(KafkaRecord::partition)
                    .thenComparingLong(KafkaRecord::offset))
            .toList()) {
      long ts = JSON.readTree(r.value()).get("ts").asLong();
      long before = latest.getOrDefault(r.partition(), Long.MIN_VALUE);
      if (before != Long.MIN_VALUE) {
        largest = Math.max(largest, before - ts);
      }
      latest.put(r.partition(), Math.max(before, ts));
    }
    return largest;
  }

  /** The count of the last statistics record of each window, group and field. */
  static Map<String, Long> ofStats(List<KafkaRecord> stats) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (KafkaRecord r : stats) {
      try {
        JsonNode s = JSON.readTree(r.value());
        out.put(
            s.get("windowStart").asText()
                + " "
                + s.get("group").asText()
                + " "
                + s.get("field").asText(),
            s.get("count").asLong());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return out;
  }

  /**
   * How many windows, groups and fields have more than one statistics record: updated by late
   * records.
   */
  static long updatedLate(List<KafkaRecord> stats) {
    Map<String, Long> records = new HashMap<>();
    for (KafkaRecord r : stats) {
      try {
        JsonNode s = JSON.readTree(r.value());
        records.merge(
            s.get("windowStart").asText()
                + " "
                + s.get("group").asText()
                + " "
                + s.get("field").asText(),
            1L,
            Long::sum);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return records.values().stream().filter(n -> n > 1).count();
  }
}
