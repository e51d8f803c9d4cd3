package io.ogpm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.streaming.api.graph.StreamEdge;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;

/**
 * Asserts that a job graph serializes every stream with Flink's own serializers: each node's input,
 * output and key serializers and each side output's, walked down to their nested field serializers,
 * none of them Kryo. Shared with the jobs' tests (test-jar).
 */
public final class FlinkTypes {
  private FlinkTypes() {}

  /**
   * @return a line per serializer checked ({@code node: class})
   */
  public static List<String> assertNoKryo(StreamGraph graph) {
    List<String> checked = new ArrayList<>();
    for (StreamNode node : graph.getStreamNodes()) {
      String name = node.getOperatorName();
      for (TypeSerializer<?> s : node.getTypeSerializersIn()) {
        walk(name + " in", s, checked, new IdentityHashMap<>());
      }
      walk(name + " out", node.getTypeSerializerOut(), checked, new IdentityHashMap<>());
      walk(name + " key", node.getStateKeySerializer(), checked, new IdentityHashMap<>());
      for (StreamEdge edge : node.getOutEdges()) {
        if (edge.getOutputTag() != null) {
          TypeInformation<?> type = edge.getOutputTag().getTypeInfo();
          walk(
              name + " side output " + edge.getOutputTag().getId(),
              type.createSerializer(new ExecutionConfig().getSerializerConfig()),
              checked,
              new IdentityHashMap<>());
        }
      }
    }
    return checked;
  }

  /** The serializer and every serializer it holds, by reflection over its fields. */
  private static void walk(
      String where, Object serializer, List<String> checked, Map<Object, Boolean> seen) {
    if (serializer == null || seen.put(serializer, true) != null) {
      return;
    }
    assertThat(serializer.getClass().getName()).as(where).doesNotContainIgnoringCase("kryo");
    checked.add(where + ": " + serializer.getClass().getSimpleName());
    for (Class<?> c = serializer.getClass();
        c != null && c != Object.class;
        c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers())) {
          continue;
        }
        Object value;
        try {
          f.setAccessible(true);
          value = f.get(serializer);
        } catch (ReflectiveOperationException | RuntimeException e) {
          continue;
        }
        if (value instanceof TypeSerializer<?>) {
          walk(where + "." + f.getName(), value, checked, seen);
        } else if (value instanceof TypeSerializer<?>[] array) {
          for (int i = 0; i < array.length; i++) {
            walk(where + "." + f.getName() + "[" + i + "]", array[i], checked, seen);
          }
        }
      }
    }
  }
}
