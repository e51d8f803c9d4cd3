package io.ogpm.config;

import io.ogpm.annotation.PublicEvolving;

/**
 * A configuration file that cannot be used. The message is a single line that names the offending
 * field and key, so that a command line tool can print it as is and exit (status 2) without a stack
 * trace. Messages hold names and configuration values only, never data.
 */
@PublicEvolving
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private static final int MAX_QUOTED = 80;

  public ConfigException(String message) {
    super(oneLine(message));
  }

  public ConfigException(String message, Throwable cause) {
    super(oneLine(message), cause);
  }

  /** Prefixes the message of a validation error from the mechanism package with its context. */
  static ConfigException at(String context, IllegalArgumentException e) {
    return new ConfigException(context + ": " + e.getMessage(), e);
  }

  /** A configuration string quoted for a message: one line, at most 80 characters. */
  static String quote(String s) {
    String line = oneLine(s);
    if (line.length() > MAX_QUOTED) {
      line = line.substring(0, MAX_QUOTED) + "...";
    }
    return "'" + line + "'";
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.replaceAll("[\\r\\n\\t\\x00-\\x1f\\x7f]+", " ").strip();
  }
}
