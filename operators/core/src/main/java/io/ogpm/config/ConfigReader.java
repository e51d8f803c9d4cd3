package io.ogpm.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ogpm.estimate.OptimizeFor;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.OutputGrid;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the YAML tree of a configuration file into a {@link PrivacyConfig}: reads keys and types
 * here, and leaves the rules to the value classes and {@link MechanismSpec}.
 */
final class ConfigReader {
  static final List<String> TOP_KEYS =
      List.of(
          "id-field",
          "user-field",
          "passthrough",
          "fields",
          "grid-bits",
          "budget",
          "contribution",
          "sampling",
          "mechanism",
          "optimize-for",
          "records-per-window");
  static final List<String> FIELD_KEYS =
      List.of(
          "name",
          "domain",
          "min",
          "max",
          "epsilon",
          "mechanism",
          "optimize-for",
          "objective",
          "optimize-at",
          "out-of-range",
          "exceedances");
  static final List<String> BUDGET_KEYS =
      List.of("epsilon", "period", "clock", "max-lag", "pacing");
  static final List<String> SAMPLING_KEYS = List.of("fields-per-record");
  static final List<String> CONTRIBUTION_KEYS = List.of("records", "window", "clock", "max-lag");

  private ConfigReader() {}

  static PrivacyConfig read(String yaml) {
    JsonNode root = YamlDocument.parse(yaml);
    YamlMapping top = YamlMapping.of(null, "config", root).allowOnly(TOP_KEYS);
    String idField = top.string("id-field");
    String userField = top.string("user-field");
    List<String> passthrough = top.strings("passthrough");
    int gridBits = PrivacyConfig.checkGridBits(top.integer("grid-bits", OutputGrid.DEFAULT_BITS));
    Defaults defaults = defaults(top);
    List<FieldConfig> fields = new ArrayList<>();
    // Each field's reporting unit for sampling: a field, or a polar pair's two fields together.
    List<Integer> units = new ArrayList<>();
    List<JsonNode> items = top.list("fields");
    for (int i = 0; i < items.size(); i++) {
      List<FieldConfig> item =
          PolarFields.isPolar(items.get(i))
              ? PolarFields.read(i + 1, items.get(i), gridBits)
              : List.of(field(i + 1, items.get(i), gridBits, defaults));
      fields.addAll(item);
      for (int k = 0; k < item.size(); k++) {
        units.add(i);
      }
    }
    JsonNode budgetNode = top.get("budget");
    BudgetConfig budget = budgetNode == null ? null : budget(budgetNode);
    JsonNode samplingNode = top.get("sampling");
    FieldSampling.Request sampling = samplingNode == null ? null : sampling(samplingNode);
    PrivacyConfig config =
        PrivacyConfig.of(
            idField,
            userField,
            passthrough,
            fields,
            gridBits,
            budget,
            sampling,
            units.stream().mapToInt(Integer::intValue).toArray());
    JsonNode contribution = top.get("contribution");
    return contribution == null ? config : config.withContribution(contribution(contribution));
  }

  /** {@code contribution: {records: c, window: 10s, clock: ..., max-lag: ...}}. */
  private static ContributionBound contribution(JsonNode node) {
    YamlMapping m =
        YamlMapping.of("contribution", "contribution", node).allowOnly(CONTRIBUTION_KEYS);
    String window = m.string("window");
    if (window == null) {
      throw new ConfigException("contribution: window is required");
    }
    String maxLag = m.string("max-lag");
    return ContributionBound.of(
        m.integer("records", 1),
        ContributionBound.parseDuration("window", window),
        m.parsed("clock", BudgetClock::parse, BudgetClock.LOG_APPEND_TIME),
        maxLag == null ? null : ContributionBound.parseDuration("max-lag", maxLag));
  }

  /** {@code sampling: {fields-per-record: K}}, K a whole number or {@code auto}. */
  private static FieldSampling.Request sampling(JsonNode node) {
    YamlMapping m = YamlMapping.of("sampling", "sampling", node).allowOnly(SAMPLING_KEYS);
    JsonNode k = m.get("fields-per-record");
    if (k == null) {
      throw new ConfigException(
          "sampling: fields-per-record is required (a whole number of fields, or auto)");
    }
    if (k.isTextual() && k.textValue().equals("auto")) {
      return FieldSampling.Request.AUTO;
    }
    if (k.isIntegralNumber() && k.canConvertToInt()) {
      return FieldSampling.Request.of(k.intValue());
    }
    throw new ConfigException(
        "sampling: fields-per-record must be a whole number of fields or auto, got "
            + YamlMapping.describe(k));
  }

  /**
   * The configuration-wide defaults of the fields' {@code mechanism} (a type or {@code auto}) and
   * {@code optimize-for}, and the records per window {@code auto} plans for.
   */
  private record Defaults(String mechanism, OptimizeFor optimizeFor, long recordsPerWindow) {}

  private static Defaults defaults(YamlMapping top) {
    String mechanism = top.parsed("mechanism", ConfigReader::mechanism, MechanismType.OGPM.id());
    OptimizeFor optimizeFor =
        top.parsed("optimize-for", OptimizeFor::parse, OptimizeFor.AGGREGATION);
    JsonNode records = top.get("records-per-window");
    long recordsPerWindow = MechanismChoice.DEFAULT_RECORDS_PER_WINDOW;
    if (records != null) {
      if (!records.isIntegralNumber() || !records.canConvertToLong() || records.longValue() < 1) {
        throw new ConfigException(
            "records-per-window must be a whole number of at least 1, got "
                + YamlMapping.describe(records));
      }
      recordsPerWindow = records.longValue();
    }
    return new Defaults(mechanism, optimizeFor, recordsPerWindow);
  }

  /** A mechanism's id or {@code auto}. */
  private static String mechanism(String id) {
    MechanismType.parseOrAuto(id);
    return id;
  }

  private static FieldConfig field(int number, JsonNode node, int gridBits, Defaults defaults) {
    String context = fieldContext(number, node);
    YamlMapping m = YamlMapping.of(context, "field #" + number, node).allowOnly(FIELD_KEYS);
    String name = m.string("name");
    FieldNames.path("field #" + number + ": name", name);
    Domain.Kind kind = m.parsed("domain", Domain.Kind::parse, Domain.Kind.CLASSICAL);
    double min = m.number("min");
    double max = m.number("max");
    double epsilon = m.number("epsilon");
    String mechanism = m.parsed("mechanism", ConfigReader::mechanism, defaults.mechanism());
    boolean auto = mechanism.equals(MechanismType.AUTO);
    if (!auto && m.get("optimize-for") != null) {
      throw new ConfigException(
          context + ": optimize-for applies to mechanism: auto only, not to " + mechanism);
    }
    OptimizeFor optimizeFor = m.parsed("optimize-for", OptimizeFor::parse, defaults.optimizeFor());
    // auto: a placeholder type until the configuration is resolved at each field's epsilon.
    MechanismType type =
        auto ? MechanismType.autoPlaceholder(epsilon) : MechanismType.parse(mechanism);
    Objective objective = m.parsed("objective", Objective::parse, Objective.L1);
    double optimizeAt = m.get("optimize-at") == null ? Double.NaN : m.number("optimize-at");
    OutOfRange outOfRange = m.parsed("out-of-range", OutOfRange::parse, OutOfRange.REJECT);
    double[] exceedances = m.numbers("exceedances");
    MechanismSpec spec;
    try {
      Checks.ordered("min", min, "max", max);
      spec =
          MechanismSpec.builder()
              .type(type)
              .domain(Domain.of(kind, min, max))
              .epsilon(epsilon)
              .objective(objective)
              .optimizeAt(optimizeAt)
              .gridBits(gridBits)
              .build();
      if (m.get("optimize-for") != null) {
        // A field's own question must be one auto weighs on its domain; the configuration-wide
        // default applies to the linear fields (a circle weighs single values).
        optimizeFor.requireWeighableOn(spec.domain());
      }
    } catch (IllegalArgumentException e) {
      throw ConfigException.at(context, e);
    }
    FieldConfig field =
        auto
            ? FieldConfig.auto(
                name,
                spec,
                outOfRange,
                MechanismChoice.of(optimizeFor, defaults.recordsPerWindow(), null))
            : FieldConfig.of(name, spec, outOfRange);
    return exceedances.length == 0 ? field : field.withExceedances(exceedances);
  }

  /** {@code field 'name'} if the item has a usable name, else {@code field #number}. */
  private static String fieldContext(int number, JsonNode node) {
    JsonNode name = node.get("name");
    if (name != null && name.isTextual()) {
      try {
        FieldNames.path("name", name.textValue());
        return "field " + ConfigException.quote(name.textValue());
      } catch (ConfigException e) {
        // not a usable name: reported when the name is read
      }
    }
    return "field #" + number;
  }

  private static BudgetConfig budget(JsonNode node) {
    YamlMapping m = YamlMapping.of("budget", "budget", node).allowOnly(BUDGET_KEYS);
    double epsilon = m.number("epsilon");
    String period = m.string("period");
    if (period == null) {
      throw new ConfigException("budget: period is required");
    }
    BudgetClock clock = m.parsed("clock", BudgetClock::parse, BudgetClock.LOG_APPEND_TIME);
    String maxLag = m.string("max-lag");
    BudgetConfig budget =
        BudgetConfig.of(
            epsilon,
            BudgetConfig.parsePeriod(period),
            clock,
            maxLag == null ? null : BudgetConfig.parseDuration("max-lag", maxLag));
    String pacing = m.string("pacing");
    return pacing == null
        ? budget
        : budget.withPacing(BudgetConfig.parseDuration("pacing", pacing));
  }
}
