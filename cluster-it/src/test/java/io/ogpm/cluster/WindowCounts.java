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
 * Counts by window, group and field ({@code "2026-01-01T00:00:10Z downstairs attitude.roll"}): those
 * the perturbed records make, and those the aggregate job's statistics report.
 */
final class WindowCounts {
  private static final ObjectMapper JSON = new ObjectMapper();

  private WindowCounts() {}

  /** Perturbed records per window of their {@code ts}, {@code activity} and field: what the stats must count. */
  static Map<String, Long> ofPerturbed(List<KafkaRecord> perturbed, long window, List<String> fields) throws IOException {
    Map<String, Long> out = new HashMap<>();
    for (KafkaRecord r : perturbed) {
      JsonNode record = JSON.readTree(r.value());
      long start = Math.floorDiv(record.get("ts").asLong(), window) * window;
      for (String field : fields) {
        out.merge(Instant.ofEpochMilli(start) + " " + record.get("activity").asText() + " " + field, 1L, Long::sum);
      }
    }
    return out;
  }

  /** The count of the last statistics record of each window, group and field. */
  static Map<String, Long> ofStats(List<KafkaRecord> stats) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (KafkaRecord r : stats) {
      try {
        JsonNode s = JSON.readTree(r.value());
        out.put(s.get("windowStart").asText() + " " + s.get("group").asText() + " " + s.get("field").asText(), s.get("count").asLong());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return out;
  }
}
