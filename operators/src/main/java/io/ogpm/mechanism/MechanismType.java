package io.ogpm.mechanism;

/** The mechanisms this library offers, by the names used on the command line and in configuration. */
public enum MechanismType {
  /** Optimal GPM (Theorem 3 classical, Theorem 4 circular), per objective. */
  OGPM("ogpm", true, true),
  /** Optimal unbiased GPM (Theorem 5), enlarged output domain, classical only. */
  OGPM_U("ogpm-u", true, false);

  private final String id;
  private final boolean classical;
  private final boolean circular;

  MechanismType(String id, boolean classical, boolean circular) {
    this.id = id;
    this.classical = classical;
    this.circular = circular;
  }

  /** The name on the command line and in configuration files. */
  public String id() {
    return id;
  }

  /** Whether the mechanism can be used on a classical domain. */
  public boolean supportsClassical() {
    return classical;
  }

  /** Whether the mechanism can be used on a circular domain. */
  public boolean supportsCircular() {
    return circular;
  }

  /** Parses a mechanism name. */
  public static MechanismType parse(String id) {
    for (MechanismType t : values()) {
      if (t.id.equals(id)) {
        return t;
      }
    }
    StringBuilder known = new StringBuilder();
    for (MechanismType t : values()) {
      known.append(known.length() == 0 ? "" : ", ").append(t.id);
    }
    throw new IllegalArgumentException("mechanism must be one of " + known + ", got '" + id + "'");
  }
}
