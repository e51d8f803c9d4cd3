package io.ogpm.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.polar.PolarShares;
import io.ogpm.mechanism.polar.PolarSplit;
import java.util.List;

/**
 * A polar field of the configuration: a (radius, angle) pair read from two input fields under one
 * epsilon (paper "An Extension: 2D Polar Coordinates"):
 *
 * <pre>
 * - domain: polar
 *   radius: {name: target.distance, max: 50}       # min defaults to 0
 *   angle: {name: target.bearing, min: 0, max: 360}
 *   epsilon: 3
 *   objective: l2                                   # optional, l1 (default) | l2
 *   out-of-range: clamp                             # optional, for both
 * </pre>
 *
 * It becomes two ordinary fields, the radius (classical OGPM on [min, max)) and the angle (circular
 * OGPM on the circle [min, max)), with eps split as {@link PolarSplit} finds least for the total
 * worst-case error under the objective's loss, {@code |dr|^k + d(angle)^k} with the angle in
 * radians. The two shares add up to at most eps in double arithmetic, so a record's cost, the sum
 * of its fields' epsilons, is at most the pair's eps (sequential composition). The radius and the
 * angle may each have {@code exceedances}, as an ordinary field may ({@code angle: {name: ..., min:
 * 0, max: 360, exceedances: [90, 270]}}).
 */
final class PolarFields {
  static final List<String> KEYS =
      List.of("domain", "radius", "angle", "epsilon", "objective", "out-of-range");
  static final List<String> PART_KEYS = List.of("name", "min", "max", "exceedances");

  private PolarFields() {}

  /** Whether a field item is a polar pair. */
  static boolean isPolar(JsonNode node) {
    JsonNode domain = node.get("domain");
    return node.isObject()
        && domain != null
        && domain.isTextual()
        && domain.textValue().equals("polar");
  }

  /** The radius and angle fields of a polar item. */
  static List<FieldConfig> read(int number, JsonNode node, int gridBits) {
    String context = "field #" + number + " (polar)";
    YamlMapping m = YamlMapping.of(context, "field #" + number, node).allowOnly(KEYS);
    Part radius = part(m, "radius", context, 0.0);
    Part angle = part(m, "angle", context, null);
    double epsilon = m.number("epsilon");
    Objective objective = m.parsed("objective", Objective::parse, Objective.L1);
    OutOfRange outOfRange = m.parsed("out-of-range", OutOfRange::parse, OutOfRange.REJECT);
    PolarSplit problem;
    try {
      Checks.ordered("radius: min", radius.min, "radius: max", radius.max);
      Checks.ordered("angle: min", angle.min, "angle: max", angle.max);
      problem = PolarSplit.of(epsilon, radius.max - radius.min, objective.metric(), objective);
    } catch (IllegalArgumentException e) {
      throw ConfigException.at(context, e);
    }
    PolarShares shares;
    try {
      shares = PolarShares.of(problem);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(
          context + ": " + e.getMessage() + "; raise epsilon or configure two fields");
    }
    double epsRadius = shares.epsRadius();
    double epsAngle = shares.epsAngle();
    return List.of(
        field(
            radius,
            Domain.classical(radius.min, radius.max),
            epsRadius,
            objective,
            outOfRange,
            gridBits),
        field(
            angle,
            Domain.circular(angle.min, angle.max),
            epsAngle,
            objective,
            outOfRange,
            gridBits));
  }

  /** One of the pair's fields, with the thresholds of its exceedances (possibly none). */
  private record Part(String name, double min, double max, double[] exceedances) {}

  private static Part part(YamlMapping m, String key, String context, Double defaultMin) {
    JsonNode node = m.get(key);
    if (node == null) {
      throw new ConfigException(context + ": " + key + " is required");
    }
    YamlMapping p =
        YamlMapping.of(context + ": " + key, context + ": " + key, node).allowOnly(PART_KEYS);
    String name = p.string("name");
    FieldNames.path(context + ": " + key + ": name", name);
    double min = defaultMin != null && p.get("min") == null ? defaultMin : p.number("min");
    return new Part(name, min, p.number("max"), p.numbers("exceedances"));
  }

  private static FieldConfig field(
      Part part,
      Domain domain,
      double epsilon,
      Objective objective,
      OutOfRange outOfRange,
      int gridBits) {
    MechanismSpec spec;
    try {
      spec =
          MechanismSpec.builder()
              .domain(domain)
              .epsilon(epsilon)
              .objective(objective)
              .gridBits(gridBits)
              .build();
    } catch (IllegalArgumentException e) {
      throw ConfigException.at("field " + ConfigException.quote(part.name), e);
    }
    FieldConfig field = FieldConfig.of(part.name, spec, outOfRange);
    return part.exceedances.length == 0 ? field : field.withExceedances(part.exceedances);
  }
}
