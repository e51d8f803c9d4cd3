package io.ogpm.flink.kafka;

import java.util.Objects;

/** Validation of the Kafka helpers' options, with messages that name the option. */
final class Checks {
  private Checks() {}

  /** A required name (topic, group id, prefix): not null, not blank. */
  static String name(String option, String value) {
    Objects.requireNonNull(value, option + ": required");
    if (value.isBlank()) {
      throw new IllegalArgumentException(option + ": must not be blank, got '" + value + "'");
    }
    return value;
  }
}
