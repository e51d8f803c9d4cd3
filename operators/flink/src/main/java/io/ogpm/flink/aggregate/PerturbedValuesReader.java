package io.ogpm.flink.aggregate;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.ogpm.config.FieldConfig;
import io.ogpm.estimate.FieldBinning;
import io.ogpm.flink.PerturbedValues;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * Reads a perturbed record's JSON in one streaming pass: the configured fields' values, the group
 * and the event time, found through a tree of the paths compiled once (no name lookups but one hash
 * per key of the record on the way to a wanted value, no tree of the record); everything else is
 * skipped token by token.
 *
 * <p>Rules: a value is usable when it is a JSON number within its mechanism's output domain {@code
 * [outputLo, outputHi)}, which a perturbed value always is (and within the field's reach, {@link
 * FieldBinning#reachOf}); a group is the text of a scalar (a string's content, a number or boolean
 * as written by Jackson), the compact JSON of an object or array, and null when absent or JSON
 * null; the event time is read by {@link EventTimes} and falls back to the record's timestamp. A
 * value that is absent counts as lacking, unless the configuration samples its fields: a record
 * then reports some of them, and the others are absent by design ({@code FieldSampling}). The
 * record must be one UTF-8 JSON object: records that are not, or whose JSON is malformed (syntax,
 * duplicate keys, trailing data, NaN, nesting deeper than {@value #MAX_NESTING}), give nothing.
 *
 * <p>Not thread-safe; one per subtask.
 */
@Internal
public final class PerturbedValuesReader {
  static final int MAX_NESTING = 64;

  // The fast double parser (FastDoubleParser, bundled in jackson-core) is correctly rounded, so
  // it reads the same doubles as Double.parseDouble, whose big-integer path it avoids for the 16-17
  // significant digits of perturbed values, every value the aggregation reads.
  private static final JsonMapper MAPPER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                  .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
                  .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                  .streamReadConstraints(
                      StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING).build())
                  .build())
          .build();

  private final int fields;
  private final ValueRanges ranges;

  /**
   * Whether records report some of their fields only (field sampling): an absent value is then no
   * lack.
   */
  private final boolean sampled;

  private final PathNode root = new PathNode();
  private final int group;
  private final int time;

  /**
   * One step of the compiled paths: what ends here (field indices, group, time) and what goes on.
   */
  private static final class PathNode {
    final Map<String, PathNode> children = new HashMap<>();
    int[] targets = new int[0];

    PathNode child(String name) {
      return children.isEmpty() ? null : children.get(name);
    }
  }

  /**
   * The outcome of one record: its values (null for a record that is no JSON object), and how many
   * values it lacked (present but unusable, or absent where every field is reported).
   */
  public record Reading(PerturbedValues values, int skipped, boolean malformed) {}

  public PerturbedValuesReader(AggregationFields spec) {
    List<FieldConfig> list = spec.config().fields();
    this.fields = list.size();
    this.ranges = new ValueRanges(spec.config());
    this.sampled = spec.config().samplesFields();
    for (int i = 0; i < fields; i++) {
      add(list.get(i).path(), i);
    }
    this.group = spec.groupField() == null ? -1 : fields;
    this.time = spec.timeField() == null ? -1 : fields + 1;
    if (group >= 0) {
      add(AggregationFields.split(spec.groupField()), group);
    }
    if (time >= 0) {
      add(AggregationFields.split(spec.timeField()), time);
    }
  }

  private void add(List<String> path, int target) {
    PathNode node = root;
    for (String step : path) {
      node = node.children.computeIfAbsent(step, s -> new PathNode());
    }
    node.targets = Arrays.copyOf(node.targets, node.targets.length + 1);
    node.targets[node.targets.length - 1] = target;
  }

  /**
   * Reads one record; {@code fallbackTime} is its time when the time field is absent or unreadable.
   */
  public Reading read(byte[] json, long fallbackTime) {
    if (json == null || json.length == 0 || !looksLikeUtf8(json)) {
      return new Reading(null, 0, true);
    }
    State state = new State(fields, fallbackTime);
    try (JsonParser p = MAPPER.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return new Reading(null, 0, true);
      }
      readObject(p, root, state);
      if (p.nextToken() != null) {
        return new Reading(null, 0, true);
      }
    } catch (IOException | RuntimeException e) {
      return new Reading(null, 0, true);
    }
    int lacking = 0;
    for (double v : state.values) {
      if (Double.isNaN(v)) {
        lacking++;
      }
    }
    PerturbedValues values =
        lacking == fields ? null : new PerturbedValues(state.values, state.group, state.time);
    return new Reading(values, sampled ? state.unusable : lacking, false);
  }

  /** What one record has given so far. */
  private static final class State {
    final double[] values;
    String group;
    long time;

    /** Values present but not usable: not numbers, or outside their output domain. */
    int unusable;

    State(int fields, long fallbackTime) {
      values = new double[fields];
      Arrays.fill(values, Double.NaN);
      time = fallbackTime;
    }
  }

  /** Reads the members of the object whose START_OBJECT was just read, down to its END_OBJECT. */
  private void readObject(JsonParser p, PathNode node, State state) throws IOException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      PathNode child = node.child(p.currentName());
      JsonToken token = p.nextToken();
      if (child == null) {
        p.skipChildren();
      } else if (child.targets.length == 0) {
        if (token == JsonToken.START_OBJECT) {
          readObject(p, child, state);
        } else {
          p.skipChildren();
        }
      } else if (child.targets.length == 1 && child.children.isEmpty()) {
        readTarget(p, token, child.targets[0], state);
      } else {
        // A value wanted whole that also holds other wanted values (a group object with the time
        // inside it): read it as a tree, once.
        resolve(p.readValueAsTree(), child, state);
      }
    }
  }

  private void readTarget(JsonParser p, JsonToken token, int target, State state)
      throws IOException {
    if (target < fields) {
      if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
        state.values[target] = ranges.usable(target, p.getDoubleValue());
      } else {
        p.skipChildren();
        state.values[target] = Double.NaN;
      }
      state.unusable += Double.isNaN(state.values[target]) ? 1 : 0;
    } else if (target == group && token == JsonToken.VALUE_STRING) {
      state.group = p.getText();
    } else {
      JsonNode node = p.readValueAsTree();
      set(target, node, state);
    }
  }

  private void resolve(JsonNode node, PathNode at, State state) {
    for (int target : at.targets) {
      set(target, node, state);
    }
    for (Map.Entry<String, PathNode> child : at.children.entrySet()) {
      resolve(
          node != null && node.isObject() ? node.get(child.getKey()) : null,
          child.getValue(),
          state);
    }
  }

  private void set(int target, JsonNode node, State state) {
    if (target < fields) {
      state.values[target] =
          node != null && node.isNumber() ? ranges.usable(target, node.asDouble()) : Double.NaN;
      state.unusable += node != null && Double.isNaN(state.values[target]) ? 1 : 0;
    } else if (target == group) {
      state.group =
          node == null || node.isNull()
              ? null
              : node.isValueNode() ? node.asText() : node.toString();
    } else {
      state.time = EventTimes.of(node, state.time);
    }
  }

  /**
   * False for the byte patterns by which the JSON reader would detect UTF-16 or UTF-32 (a NUL in
   * the first four bytes, or a UTF-16/32 byte-order mark): records are UTF-8, as the perturbation
   * requires of its input.
   */
  static boolean looksLikeUtf8(byte[] input) {
    if (input[0] == (byte) 0xFE || input[0] == (byte) 0xFF) {
      return false;
    }
    for (int i = 0; i < Math.min(4, input.length); i++) {
      if (input[i] == 0) {
        return false;
      }
    }
    return true;
  }
}
