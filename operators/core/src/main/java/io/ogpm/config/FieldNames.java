package io.ogpm.config;

import java.util.List;

/** Dotted field names ({@code attitude.roll}) that address values in nested JSON objects. */
final class FieldNames {
  private FieldNames() {}

  /**
   * Validates a dotted name and returns its parts.
   *
   * @param what how a message names the value, e.g. {@code "field #2: name"} or {@code "id-field"}
   */
  static List<String> path(String what, String name) {
    if (name == null) {
      throw new ConfigException(what + " is required");
    }
    List<String> parts = List.of(name.split("\\.", -1));
    for (String part : parts) {
      if (part.isBlank()) {
        throw new ConfigException(
            what
                + " must be a dotted name with non-empty parts"
                + " (like attitude.roll), got "
                + ConfigException.quote(name));
      }
    }
    return parts;
  }

  /** Whether {@code a} and {@code b} are equal or one addresses a value inside the other. */
  static boolean overlap(List<String> a, List<String> b) {
    int n = Math.min(a.size(), b.size());
    return a.subList(0, n).equals(b.subList(0, n));
  }
}
