package io.ogpm.flink.aggregate;

import io.ogpm.config.ConfigFingerprint;
import io.ogpm.config.PrivacyConfig;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * What the aggregation reads of a perturbed record: the configuration's fields, the group-by and
 * time fields, and the fingerprint that records must carry. Validated here: a group or time field
 * must be a passthrough field, or nested in one, since a perturbed record holds nothing else.
 * Immutable and serializable.
 */
@Internal
public final class AggregationFields implements Serializable {
  private static final long serialVersionUID = 1L;

  private final PrivacyConfig config;
  private final String groupField;
  private final String timeField;
  private final ConfigFingerprint fingerprint;

  private AggregationFields(PrivacyConfig config, String groupField, String timeField) {
    this.config = config;
    this.groupField = groupField;
    this.timeField = timeField;
    this.fingerprint = ConfigFingerprint.of(config);
  }

  /**
   * Validated fields.
   *
   * @throws NullPointerException if config is null
   * @throws IllegalArgumentException naming the option ({@code groupBy}, {@code timeField}) and the
   *     value when it is not a passthrough field
   */
  public static AggregationFields checked(
      PrivacyConfig config, String groupField, String timeField) {
    Objects.requireNonNull(config, "config: a privacy configuration is required");
    checkPassedThrough(config, "groupBy", groupField);
    checkPassedThrough(config, "timeField", timeField);
    return new AggregationFields(config, groupField, timeField);
  }

  private static void checkPassedThrough(PrivacyConfig config, String option, String name) {
    if (name == null) {
      return;
    }
    List<String> path = split(name);
    for (String part : path) {
      if (part.isEmpty()) {
        throw new IllegalArgumentException(
            option + ": '" + name + "' is not a dotted name with non-empty parts");
      }
    }
    for (String passed : config.passthrough()) {
      List<String> p = split(passed);
      if (path.size() >= p.size() && path.subList(0, p.size()).equals(p)) {
        return;
      }
    }
    throw new IllegalArgumentException(
        option
            + ": '"
            + name
            + "' is not a passthrough field of the configuration"
            + " (nor nested in one), and perturbed records carry no other; passthrough: "
            + config.passthrough());
  }

  /** The parts of a dotted name. */
  public static List<String> split(String dotted) {
    return List.of(dotted.split("\\.", -1));
  }

  public PrivacyConfig config() {
    return config;
  }

  /** The dotted group-by field, or null for one global group. */
  public String groupField() {
    return groupField;
  }

  /** The dotted time field, or null for the Kafka (or stream) timestamp. */
  public String timeField() {
    return timeField;
  }

  public ConfigFingerprint fingerprint() {
    return fingerprint;
  }

  public int size() {
    return config.fields().size();
  }
}
