package io.ogpm.record;

import java.util.Arrays;

/**
 * Writes a perturbed record's output JSON straight into bytes, following the {@link JsonShape}: the
 * perturbed values at their paths and the passthrough values the reader captured; nothing else. No
 * tree is built: the keys were serialised once when the shape was compiled, perturbed values are
 * written as the JSON generator writes a double ({@link Double#toString}, through the faster {@link
 * DoubleText}), and passthrough values are copied from the reader's buffer.
 *
 * <p>Which keys, brackets and commas an output has depends only on which passthrough values the
 * record holds (and which of them were captured on their own) and which fields it reports (all, but
 * with field sampling): the values fill fixed places. A field the record does not report is left
 * out, and so is an object that would hold nothing. So the writer keeps the bytes between the
 * values of the last output it walked the shape for, with the holdings they belong to, and writes a
 * record with the same holdings by copying those bytes around its values. Not thread-safe: one per
 * perturber.
 */
final class JsonRecordWriter {
  private final JsonShape shape;
  private final ByteSink out = new ByteSink();

  /**
   * The kept structure: the bytes between the output's values for {@link #present} and {@link
   * #captured} holdings, and per value (slot) what it is: a field's index, or {@code ~j} for
   * passthrough j.
   */
  private final boolean[] present;

  private final boolean[] captured;
  private final boolean[] reported;
  private final SlotGaps gaps;
  private final int[] slotValue;
  private final int[] slotStart;
  private final int[] slotEnd;

  /** The slots of the output being walked. */
  private int slots;

  JsonRecordWriter(JsonShape shape) {
    this.shape = shape;
    present = new boolean[shape.passthroughs];
    captured = new boolean[shape.passthroughs];
    reported = new boolean[shape.fields];
    int values = shape.fields + shape.passthroughs;
    gaps = new SlotGaps(256, values);
    slotValue = new int[values];
    slotStart = new int[values];
    slotEnd = new int[values];
  }

  /**
   * The output record of perturbed {@code values} and the passthrough values {@code reader} holds.
   */
  byte[] write(RecordValues values, JsonRecordReader reader) {
    out.reset();
    if (gaps.isKept() && sameHoldings(values, reader)) {
      fill(values, reader);
      return out.toByteArray();
    }
    slots = 0;
    object(shape.root, values, reader);
    byte[] record = out.toByteArray();
    gaps.keep(record, slots, slotStart, slotEnd);
    for (int j = 0; j < present.length; j++) {
      present[j] = reader.present(j);
      captured[j] = reader.captured(j);
    }
    for (int i = 0; i < reported.length; i++) {
      reported[i] = values.reported(i);
    }
    return record;
  }

  /**
   * Whether the record holds the same passthrough values, and reports the same fields, as the kept
   * structure's.
   */
  private boolean sameHoldings(RecordValues values, JsonRecordReader reader) {
    for (int j = 0; j < present.length; j++) {
      if (reader.present(j) != present[j] || reader.captured(j) != captured[j]) {
        return false;
      }
    }
    for (int i = 0; i < reported.length; i++) {
      if (values.reported(i) != reported[i]) {
        return false;
      }
    }
    return true;
  }

  /** The kept structure's bytes with this record's values in their places. */
  private void fill(RecordValues values, JsonRecordReader reader) {
    int slots = gaps.slots();
    for (int s = 0; s < slots; s++) {
      gaps.write(s, out);
      int value = slotValue[s];
      if (value >= 0) {
        out.writeDouble(values.output(value));
      } else {
        reader.writeCaptured(~value, out);
      }
    }
    gaps.write(slots, out);
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
      if (written[c]
          || (rank < shape.fields
              ? !values.reported(rank)
              : !reader.present(rank - shape.fields))) {
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
        slotStart[slots] = out.size();
        out.writeDouble(values.output(child.field));
        slotValue[slots] = child.field;
        slotEnd[slots++] = out.size();
      } else if (child.passthrough >= 0 && reader.captured(child.passthrough)) {
        slotStart[slots] = out.size();
        reader.writeCaptured(child.passthrough, out);
        slotValue[slots] = ~child.passthrough;
        slotEnd[slots++] = out.size();
      } else {
        object(child, values, reader);
      }
    }
    out.write('}');
  }
}
