package io.ogpm.record;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The bytes of one JSON text between its values (slots), kept back to back: the structure that the
 * next text of the same shape shares (keys, brackets, separators, whitespace), never a value. The
 * scanner {@link #follows compares} an input against the kept gaps of the last record it read in
 * full; the writer {@link #write copies} them around a new record's values. Gap s lies before slot
 * s; gap {@link #slots()} is the one after the last slot. Not thread-safe.
 */
final class SlotGaps {
  /** Eight bytes of an array as one long, at any index. */
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private byte[] bytes;

  /** Gap s is bytes [bound[s], bound[s + 1]); bound[0] is 0. */
  private final int[] bound;

  private int slots = -1;

  /**
   * Room for {@code capacity} bytes at first (grown as needed) and at most {@code maxSlots} slots.
   */
  SlotGaps(int capacity, int maxSlots) {
    bytes = new byte[capacity];
    bound = new int[maxSlots + 2];
  }

  /** Whether gaps are kept (none before the first {@link #keep}). */
  boolean isKept() {
    return slots >= 0;
  }

  /** How many slots the kept text has: one gap more. */
  int slots() {
    return slots;
  }

  /**
   * Keeps the bytes of {@code text} outside its {@code slots} slots, slot s being {@code
   * [slotStart[s], slotEnd[s])}, in order and not overlapping.
   */
  void keep(byte[] text, int slots, int[] slotStart, int[] slotEnd) {
    int length = text.length;
    if (bytes.length < length) {
      bytes = new byte[Math.max(length, 2 * bytes.length)];
    }
    int to = 0;
    int from = 0;
    for (int s = 0; s <= slots; s++) {
      int end = s < slots ? slotStart[s] : length;
      System.arraycopy(text, from, bytes, to, end - from);
      to += end - from;
      bound[s + 1] = to;
      from = s < slots ? slotEnd[s] : end;
    }
    this.slots = slots;
  }

  /**
   * Whether {@code in} holds gap {@code s} at {@code at}.
   *
   * @return the position after the gap in {@code in}, or -1 when it does not hold it there
   */
  int follows(int s, byte[] in, int at) {
    // 8 bytes at a time, the last 8 overlapping the ones before: gaps are a few to a few dozen
    // bytes, where a call to Arrays.equals costs more than the comparison.
    byte[] gaps = bytes;
    int from = bound[s];
    int to = bound[s + 1];
    int n = to - from;
    if (n > in.length - at) {
      return -1;
    }
    if (n >= Long.BYTES) {
      for (int i = 0; i < n - Long.BYTES; i += Long.BYTES) {
        if ((long) LONGS.get(in, at + i) != (long) LONGS.get(gaps, from + i)) {
          return -1;
        }
      }
      if ((long) LONGS.get(in, at + n - Long.BYTES) != (long) LONGS.get(gaps, to - Long.BYTES)) {
        return -1;
      }
    } else {
      for (int i = 0; i < n; i++) {
        if (in[at + i] != gaps[from + i]) {
          return -1;
        }
      }
    }
    return at + n;
  }

  /** Appends gap {@code s} to {@code out}. */
  void write(int s, ByteSink out) {
    out.write(bytes, bound[s], bound[s + 1] - bound[s]);
  }

  /** The kept structure as text, each slot marked {@code <>} (tests: it holds no value). */
  String text() {
    StringBuilder text = new StringBuilder();
    for (int s = 0; s <= slots; s++) {
      text.append(
          new String(bytes, bound[s], bound[s + 1] - bound[s], StandardCharsets.ISO_8859_1));
      text.append(s < slots ? "<>" : "");
    }
    return text.toString();
  }
}
