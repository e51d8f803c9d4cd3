package io.ogpm.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;

/**
 * A YAML mapping read strictly: unknown keys and values of the wrong type are errors whose message
 * names the mapping ({@code field 'roll'}, {@code budget}) and the key. A missing key and a key
 * with an empty (null) value are the same.
 */
final class YamlMapping {
  private final String context;
  private final JsonNode node;

  private YamlMapping(String context, JsonNode node) {
    this.context = context;
    this.node = node;
  }

  /**
   * The mapping in {@code node}.
   *
   * @param context how messages name the mapping, or null for the top level
   * @param what how messages name the mapping when it is not one
   */
  static YamlMapping of(String context, String what, JsonNode node) {
    if (!node.isObject()) {
      throw new ConfigException(what + " must be a mapping, got " + describe(node));
    }
    return new YamlMapping(context, node);
  }

  /** Rejects every key not in {@code known}, listing the known ones. */
  YamlMapping allowOnly(List<String> known) {
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!known.contains(key)) {
        throw new ConfigException(
            "unknown key "
                + ConfigException.quote(key)
                + (context == null ? "" : " in " + context)
                + " (known keys: "
                + String.join(", ", known)
                + ")");
      }
    }
    return this;
  }

  /** {@code key: what}: the name of a key for messages. */
  String at(String key) {
    return context == null ? key : context + ": " + key;
  }

  /** The value of {@code key}, or null if it is missing or empty. */
  JsonNode get(String key) {
    JsonNode v = node.get(key);
    return v == null || v.isNull() ? null : v;
  }

  /** A string value, or null if missing. */
  String string(String key) {
    JsonNode v = get(key);
    if (v == null) {
      return null;
    }
    if (!v.isTextual()) {
      throw new ConfigException(at(key) + " must be a string, got " + describe(v));
    }
    return v.textValue();
  }

  /**
   * A string value parsed by {@code parse} (which throws IllegalArgumentException), or a default.
   */
  <T> T parsed(String key, Function<String, T> parse, T otherwise) {
    String s = string(key);
    if (s == null) {
      return otherwise;
    }
    try {
      return parse.apply(s);
    } catch (IllegalArgumentException e) {
      throw context == null
          ? new ConfigException(e.getMessage(), e)
          : ConfigException.at(context, e);
    }
  }

  /** A required number. Non-finite values are returned as is, for the callers' checks to name. */
  double number(String key) {
    JsonNode v = get(key);
    if (v == null) {
      throw new ConfigException(at(key) + " is required");
    }
    if (!v.isNumber()) {
      throw new ConfigException(at(key) + " must be a number, got " + describe(v));
    }
    return v.doubleValue();
  }

  /** An optional integer. */
  int integer(String key, int otherwise) {
    JsonNode v = get(key);
    if (v == null) {
      return otherwise;
    }
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      throw new ConfigException(at(key) + " must be an integer, got " + describe(v));
    }
    return v.intValue();
  }

  /** An optional list, empty if missing. */
  List<JsonNode> list(String key) {
    JsonNode v = get(key);
    if (v == null) {
      return List.of();
    }
    if (!v.isArray()) {
      throw new ConfigException(at(key) + " must be a list, got " + describe(v));
    }
    List<JsonNode> items = new ArrayList<>();
    v.elements().forEachRemaining(items::add);
    return items;
  }

  /** An optional list of numbers, empty if missing. Non-finite ones are left to the callers. */
  double[] numbers(String key) {
    List<JsonNode> items = list(key);
    double[] out = new double[items.size()];
    for (int i = 0; i < items.size(); i++) {
      JsonNode v = items.get(i);
      if (!v.isNumber()) {
        throw new ConfigException(
            at(key) + " #" + (i + 1) + " must be a number, got " + describe(v));
      }
      out[i] = v.doubleValue();
    }
    return out;
  }

  /** An optional list of strings, empty if missing. */
  List<String> strings(String key) {
    List<String> out = new ArrayList<>();
    List<JsonNode> items = list(key);
    for (int i = 0; i < items.size(); i++) {
      JsonNode v = items.get(i);
      if (!v.isTextual()) {
        throw new ConfigException(
            at(key) + " #" + (i + 1) + " must be a string, got " + describe(v));
      }
      out.add(v.textValue());
    }
    return out;
  }

  /** A value for messages: strings quoted, numbers as written, other kinds by name. */
  static String describe(JsonNode v) {
    if (v == null || v.isNull() || v.isMissingNode()) {
      return "nothing";
    }
    if (v.isTextual()) {
      return ConfigException.quote(v.textValue());
    }
    if (v.isNumber() || v.isBoolean()) {
      return v.asText();
    }
    return v.isArray() ? "a list" : v.isObject() ? "a mapping" : v.getNodeType().toString();
  }
}
