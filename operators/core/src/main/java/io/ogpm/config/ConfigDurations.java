package io.ogpm.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as a configuration writes them ({@code 1d}, {@code 12h}, {@code 30m}, {@code 10s}, or
 * ISO-8601 {@code P1D}, {@code PT12H}) and the bounds every duration of it keeps: whole
 * milliseconds, at most 36,500 days, so that time arithmetic in epoch milliseconds cannot overflow.
 * Messages name the section and the key.
 */
final class ConfigDurations {
  private static final Pattern SHORT = Pattern.compile("([0-9]{1,12})([dhms])");

  /** Bounds periods and lags so that period arithmetic in epoch milliseconds cannot overflow. */
  static final Duration LONGEST = Duration.ofDays(36_500);

  private ConfigDurations() {}

  /**
   * Parses {@code section: key}'s text; the sign is not checked here.
   *
   * @throws ConfigException naming the section and key if the text is neither form
   */
  static Duration parse(String section, String key, String text) {
    if (text != null) {
      Matcher m = SHORT.matcher(text);
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
          case "d" -> Duration.ofDays(n);
          case "h" -> Duration.ofHours(n);
          case "m" -> Duration.ofMinutes(n);
          default -> Duration.ofSeconds(n);
        };
      }
      try {
        return Duration.parse(text);
      } catch (DateTimeParseException e) {
        // reported below
      }
    }
    throw new ConfigException(
        section
            + ": "
            + key
            + " must be an ISO-8601 duration (P1D, PT12H) or a whole"
            + " number with unit d, h, m or s (1d, 12h, 30m), got "
            + (text == null ? "nothing" : ConfigException.quote(text)));
  }

  /**
   * Refuses a duration longer than 36,500 days or not a whole number of milliseconds.
   *
   * @throws ConfigException naming the section and key
   */
  static void checkMillis(String section, String key, Duration d) {
    if (d.compareTo(LONGEST) > 0) {
      throw new ConfigException(section + ": " + key + " must be at most 36500 days, got " + d);
    }
    if (d.getNano() % 1_000_000 != 0) {
      throw new ConfigException(
          section + ": " + key + " must be a whole number of milliseconds, got " + d);
    }
  }
}
