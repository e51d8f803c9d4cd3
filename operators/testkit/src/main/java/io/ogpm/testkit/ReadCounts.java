package io.ogpm.testkit;

import java.util.List;
import java.util.Map;

/**
 * Records read while waiting, shown by their numbers in a timeout message: values are not for logs.
 */
final class ReadCounts {
  private ReadCounts() {}

  record OfTopic(List<KafkaRecord> records) {
    @Override
    public String toString() {
      return records.size() + " records";
    }
  }

  record OfTopics(Map<String, List<KafkaRecord>> records) {
    int total() {
      return records.values().stream().mapToInt(List::size).sum();
    }

    @Override
    public String toString() {
      StringBuilder s = new StringBuilder();
      records.forEach(
          (t, r) ->
              s.append(s.length() == 0 ? "" : ", ").append(r.size()).append(" in ").append(t));
      return s.toString();
    }
  }
}
