package io.ogpm.jobs.topics;

import java.util.Objects;

/**
 * One way a deployment's Kafka differs from what the jobs need: the subject (a topic or a broker),
 * what was found against what is needed, and why it matters. {@link #line()} is what {@code ogpm
 * topics --check} prints.
 */
public record Deviation(String subject, String found, String why) {
  public Deviation {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(found, "found");
    Objects.requireNonNull(why, "why");
  }

  /** {@code subject: found: why}, on one line. */
  public String line() {
    return subject + ": " + found + ": " + why;
  }

  /** "1 partition", "3 partitions": how a deviation counts. */
  static String plural(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
