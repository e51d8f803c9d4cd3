package io.ogpm.jobs.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Durations as {@code 500ms}, {@code 10s}, {@code 5m}, {@code 2h}, {@code 1d} or ISO-8601 ({@code
 * PT10S}).
 */
public final class DurationConverter implements ITypeConverter<Duration> {
  private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h|d)");

  @Override
  public Duration convert(String value) {
    Matcher m = SHORT.matcher(value.trim());
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
    }
    try {
      return Duration.parse(value.trim());
    } catch (DateTimeParseException e) {
      throw new TypeConversionException(
          "expected a duration such as 500ms, 10s, 5m, 2h, 1d or PT10S, got '" + value + "'");
    }
  }
}
