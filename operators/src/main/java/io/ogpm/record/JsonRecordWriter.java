package io.ogpm.record;

import java.util.Arrays;

/**
 * Writes a perturbed record's output JSON straight into bytes, following the {@link JsonShape}:
 * the perturbed values at their paths and the passthrough values the reader captured; nothing
 * else. No tree is built: the keys were serialised once when the shape was compiled, perturbed
 * values are written as the JSON generator writes a double ({@link Double#toString}, through the
 * faster {@link DoubleText}), and
 * passthrough values are copied from the reader's buffer. Not thread-safe: one per perturber.
 */
final class JsonRecordWriter {
  private final JsonShape shape;
  private final ByteSink out = new ByteSink();

  JsonRecordWriter(JsonShape shape) {
    this.shape = shape;
  }

  /** The output record of perturbed {@code values} and the passthrough values {@code reader} holds. */
  byte[] write(RecordValues values, JsonRecordReader reader) {
    out.reset();
    object(shape.root, values, reader);
    return out.toByteArray();
  }

  /** An object's members in the order of the smallest rank present below each (see JsonShape). */
  private void object(JsonShape.Node node, RecordValues values, JsonRecordReader reader) {
    out.write('{');
    boolean[] written = node.written;
    Arrays.fill(written, false);
    boolean first = true;
    for (int k = 0; k < node.ranks.length; k++) {
      int rank = node.ranks[k];
      int c = node.rankChild[k];
      if (written[c] || rank >= shape.fields && !reader.present(rank - shape.fields)) {
        continue;
      }
      written[c] = true;
      if (!first) {
        out.write(',');
      }
      first = false;
      JsonShape.Node child = node.children[c];
      out.write(child.key);
      if (child.field >= 0) {
        out.writeDouble(values.output(child.field));
      } else if (child.passthrough >= 0 && reader.captured(child.passthrough)) {
        reader.writeCaptured(child.passthrough, out);
      } else {
        object(child, values, reader);
      }
    }
    out.write('}');
  }
}
