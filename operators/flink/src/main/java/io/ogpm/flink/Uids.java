package io.ogpm.flink;

/**
 * The uid rule of the library's builders ({@link LdpPerturbation}, {@link LdpAggregation}): an
 * operator's uid is its role alone ({@code perturb}, {@code window-estimates}) without a prefix,
 * and {@code <prefix>-<role>} with one. A prefix must not be blank nor start or end with a space;
 * null means none. Uids are what a savepoint's state is matched by, so this rule never changes.
 */
final class Uids {
  private Uids() {}

  /**
   * Checks a prefix.
   *
   * @throws IllegalArgumentException naming {@code uidPrefix} and the value if it is blank or
   *     starts or ends with a space
   */
  static void checkPrefix(String prefix) {
    if (prefix != null && (prefix.isBlank() || !prefix.strip().equals(prefix))) {
      throw new IllegalArgumentException(
          "uidPrefix: must not be blank nor start or end with a space, got '" + prefix + "'");
    }
  }

  /** The uid of a role under a prefix (null: none). */
  static String uid(String prefix, String role) {
    return prefix == null ? role : prefix + "-" + role;
  }
}
