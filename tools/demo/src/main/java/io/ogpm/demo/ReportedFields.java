package io.ogpm.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.record.JsonFields;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Which fields each perturbed record reported, with field sampling: each field's statistics are
 * over the records that reported it, so its truth must be too. A raw record is matched to its
 * perturbed record by id and time (both passthrough fields): the live demo replays the sample in a
 * loop, so an id alone recurs, each time with other fields reported.
 */
final class ReportedFields {
  private final PrivacyConfig config;
  private final List<String> idPath;
  private final List<String> timePath;
  private final long horizonMs;
  private final ObjectMapper json = new ObjectMapper();
  private final Map<String, Set<String>> byRecord = new HashMap<>();

  /** Keys in the order they arrived with their times, to forget those beyond the horizon. */
  private final ArrayDeque<Map.Entry<Long, String>> arrivals = new ArrayDeque<>();

  /** The newest time of any record added so far: the horizon is measured back from it. */
  private long newest = Long.MIN_VALUE;

  /**
   * @param horizonMs how far behind the newest record's time a record is still matched (the live
   *     demo keeps the truth of a horizon); {@link Long#MAX_VALUE} keeps every record
   */
  ReportedFields(PrivacyConfig config, String timeField, long horizonMs) {
    this.config = config;
    this.idPath = List.of(config.idField().orElseThrow().split("\\."));
    this.timePath = List.of(timeField.split("\\."));
    this.horizonMs = horizonMs;
  }

  /** Every perturbed record of a bounded run. */
  static GroundTruth.Reported of(
      List<ConsumerRecord<byte[], byte[]>> perturbed, PrivacyConfig config, String timeField) {
    ReportedFields fields = new ReportedFields(config, timeField, Long.MAX_VALUE);
    fields.addAll(perturbed);
    return fields::test;
  }

  /** Adds perturbed records, and forgets those beyond the horizon behind the newest. */
  void addAll(List<ConsumerRecord<byte[], byte[]>> perturbed) {
    for (var r : perturbed) {
      JsonNode root;
      try {
        root = json.readTree(r.value());
      } catch (IOException e) {
        continue; // Not ours: the accounting of records reports it.
      }
      String key = key(root);
      if (key == null) {
        continue;
      }
      Set<String> names = new HashSet<>();
      for (FieldConfig f : config.fields()) {
        JsonNode v = JsonFields.at(root, f.path());
        if (v != null && v.isNumber()) {
          names.add(f.name());
        }
      }
      byRecord.put(key, names);
      long time = JsonFields.at(root, timePath).asLong();
      arrivals.add(Map.entry(time, key));
      newest = Math.max(newest, time);
    }
    // Measured from the newest of every batch so far: an empty batch (a read between two commits)
    // must not move the horizon, let alone wrap it below the smallest long.
    while (!arrivals.isEmpty()
        && horizonMs != Long.MAX_VALUE
        && arrivals.peek().getKey() < newest - horizonMs) {
      byRecord.remove(arrivals.poll().getValue());
    }
  }

  /** Whether the raw record's perturbed record reported the field. */
  boolean test(JsonNode raw, FieldConfig field) {
    String key = key(raw);
    return key != null && byRecord.getOrDefault(key, Set.of()).contains(field.name());
  }

  private String key(JsonNode record) {
    JsonNode id = JsonFields.at(record, idPath);
    JsonNode time = JsonFields.at(record, timePath);
    if (id == null || time == null || !time.canConvertToLong()) {
      return null;
    }
    return id.asText() + "@" + time.asLong();
  }
}
