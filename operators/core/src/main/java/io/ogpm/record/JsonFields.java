package io.ogpm.record;

import com.fasterxml.jackson.databind.JsonNode;
import io.ogpm.annotation.Internal;
import java.util.List;

/** Reads a value at a dotted path ({@code attitude.roll}) of a JSON object. */
@Internal
public final class JsonFields {
  private JsonFields() {}

  /** The node at a path of object keys, or null when a step is missing or not an object. */
  public static JsonNode at(JsonNode root, List<String> path) {
    JsonNode node = root;
    for (String step : path) {
      if (node == null || !node.isObject()) {
        return null;
      }
      node = node.get(step);
    }
    return node;
  }
}
