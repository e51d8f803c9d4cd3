package io.ogpm.demo;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The demo's check of its own output before it shows any estimate: every replayed record was
 * perturbed or dead-lettered, and every window, group and field of the perturbed records has its
 * statistics, over all of its records. Estimates from partial data would look plausible and be
 * compared with the truth of all records; the demo fails instead, naming what is missing.
 */
public final class Accounting {
  private Accounting() {}

  /** Records in = perturbed + dead-lettered, each dead letter for a distinct input. */
  static void checkRecords(
      int replayed, int perturbed, int deadLettered, Set<String> deadLetterSources) {
    if (perturbed + deadLettered != replayed) {
      throw new MismatchException(
          String.format(
              "%d records replayed into %s but %d perturbed + %d dead-lettered: %d %s",
              replayed,
              DemoTopics.RAW,
              perturbed,
              deadLettered,
              Math.abs(replayed - perturbed - deadLettered),
              replayed > perturbed + deadLettered ? "unaccounted for" : "too many (duplicates)"));
    }
    if (deadLetterSources.size() != deadLettered) {
      throw new MismatchException(
          deadLettered
              - deadLetterSources.size()
              + " dead letters repeat an input already dead-lettered");
    }
  }

  /**
   * Every expected (window, group, field) has statistics over exactly its records, and there are no
   * others. {@code expected} and {@code actual} map keys {@code window|group|field} to counts.
   */
  static void checkWindows(Map<String, Long> expected, Map<String, Long> actual) {
    TreeMap<String, Long> missing = new TreeMap<>();
    TreeMap<String, String> wrong = new TreeMap<>();
    expected.forEach(
        (key, n) -> {
          Long got = actual.get(key);
          if (got == null) {
            missing.put(key, n);
          } else if (!got.equals(n)) {
            wrong.put(key, got + " of " + n + " records");
          }
        });
    if (!missing.isEmpty()) {
      String first = missing.firstKey();
      throw new MismatchException(
          String.format(
              "%d of %d window statistics missing, the first: %s (%d records)",
              missing.size(), expected.size(), describe(first), missing.get(first)));
    }
    if (!wrong.isEmpty()) {
      String first = wrong.firstKey();
      throw new MismatchException(
          String.format(
              "%d of %d window statistics are over the wrong records, the first: %s has %s"
                  + " (late or lost records)",
              wrong.size(), expected.size(), describe(first), wrong.get(first)));
    }
    List<String> extra =
        actual.keySet().stream().filter(k -> !expected.containsKey(k)).sorted().toList();
    if (!extra.isEmpty()) {
      throw new MismatchException(
          extra.size()
              + " window statistics for no replayed record, the first: "
              + describe(extra.get(0)));
    }
  }

  /** {@code window|group|field} as words. */
  private static String describe(String key) {
    String[] p = key.split("\\|", 3);
    return "window "
        + Instant.ofEpochMilli(Long.parseLong(p[0]))
        + ", group "
        + (p[1].isEmpty() ? "(none)" : p[1])
        + ", field "
        + p[2];
  }

  /** The demo's output does not account for its input; the message is one line. */
  public static final class MismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MismatchException(String message) {
      super("demo: " + message);
    }
  }
}
