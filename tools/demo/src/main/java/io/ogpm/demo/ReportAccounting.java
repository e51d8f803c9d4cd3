package io.ogpm.demo;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the report opens with: records in, perturbed, dead-lettered by reason, and per field the
 * values the window statistics count against those they should (the difference: late or lost).
 * {@code perturbed} is null where it was not read (the live demo does not re-read its topics).
 */
record ReportAccounting(
    long recordsIn,
    Long perturbed,
    Map<String, Long> deadByReason,
    Map<String, Long> expectedPerField,
    Map<String, Long> countedPerField) {

  ReportAccounting {
    deadByReason = Map.copyOf(new TreeMap<>(deadByReason));
    expectedPerField = Map.copyOf(expectedPerField);
    countedPerField = Map.copyOf(countedPerField);
  }

  long deadLettered() {
    return deadByReason.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Records in that are neither perturbed nor dead-lettered (negative: too many). */
  long unaccounted() {
    return perturbed == null ? 0 : recordsIn - perturbed - deadLettered();
  }

  /** Values of a field that should be in window statistics and are not (late or lost). */
  long missing(String field) {
    return expectedPerField.getOrDefault(field, 0L) - countedPerField.getOrDefault(field, 0L);
  }

  /**
   * From per-window counts, keys {@code window|group|field} ({@link GroundTruth#key}): the expected
   * ones (the truth) and those the statistics report.
   */
  static ReportAccounting of(
      long recordsIn,
      Long perturbed,
      Map<String, Long> deadByReason,
      Map<String, Long> expected,
      Map<String, Long> counted) {
    return new ReportAccounting(
        recordsIn, perturbed, deadByReason, perField(expected), perField(counted));
  }

  private static Map<String, Long> perField(Map<String, Long> byKey) {
    Map<String, Long> out = new TreeMap<>();
    byKey.forEach((key, n) -> out.merge(key.split("\\|", 3)[2], n, Long::sum));
    return out;
  }
}
