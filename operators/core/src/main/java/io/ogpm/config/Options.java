package io.ogpm.config;

import io.ogpm.annotation.Internal;
import java.util.Objects;

/**
 * The check of a named option that must hold a name (a topic, a consumer group, a transactional id
 * or uid prefix), shared by the builders of the Flink library, the jobs and the command line, so
 * that each says the same thing: {@code <option>: required} for a missing one, {@code <option>:
 * must not be blank, got '<value>'} for a blank one, the option named as its caller names it
 * ({@code groupId}, {@code --raw-topic}).
 */
@Internal
public final class Options {
  private Options() {}

  /**
   * The value, if it is not blank.
   *
   * @throws NullPointerException {@code <option>: required}, if it is null
   * @throws IllegalArgumentException {@code <option>: must not be blank, got '<value>'}, if it is
   *     empty or white space only
   */
  public static String notBlank(String option, String value) {
    Objects.requireNonNull(value, () -> option + ": required");
    if (value.isBlank()) {
      throw new IllegalArgumentException(option + ": must not be blank, got '" + value + "'");
    }
    return value;
  }
}
