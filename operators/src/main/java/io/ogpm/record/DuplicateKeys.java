package io.ogpm.record;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The keys of the objects a reader is inside, to find a duplicate key without Jackson's
 * per-object hash sets (its strict duplicate detection, 15 % of the record path). An object's keys
 * are compared with those before it in a reusable array while it has at most {@value #LINEAR}
 * keys; from then on they go through a hash set kept for that depth, so a record of many keys costs
 * linear time, not quadratic. Nothing is allocated per record once the buffers have grown.
 *
 * <p>Not thread-safe: one per reader.
 */
final class DuplicateKeys {
  /** Keys compared one by one in an object up to this many; a hash set beyond. */
  static final int LINEAR = 16;

  private String[] keys = new String[64];
  /** Each key's hash (cached in the String): most comparisons end here. */
  private int[] hashes = new int[64];
  private int size;
  /**
   * Where each open object's keys start in {@link #keys}; the innermost last. The parser refuses
   * nesting deeper than {@link RecordPerturber#MAX_NESTING} before an object could overflow it.
   */
  private final int[] starts = new int[RecordPerturber.MAX_NESTING + 1];
  private int depth;
  /** The hash set of each depth's object, once it has more than {@link #LINEAR} keys. */
  @SuppressWarnings("unchecked")
  private final Set<String>[] large = new Set[RecordPerturber.MAX_NESTING + 1];
  private final boolean[] isLarge = new boolean[RecordPerturber.MAX_NESTING + 1];

  /** Forgets every object (after a failed record, objects may still be open). */
  void reset() {
    for (int d = 0; d < depth; d++) {
      if (isLarge[d]) {
        large[d].clear();
        isLarge[d] = false;
      }
    }
    size = 0;
    depth = 0;
  }

  /** An object starts. */
  void open() {
    starts[depth++] = size;
  }

  /** The innermost object ends. */
  void close() {
    depth--;
    if (isLarge[depth]) {
      large[depth].clear();
      isLarge[depth] = false;
    }
    size = starts[depth];
  }

  /**
   * A key of the innermost object.
   *
   * @return false when the object already has that key
   */
  boolean add(String key) {
    int d = depth - 1;
    int start = starts[d];
    if (isLarge[d]) {
      return large[d].add(key);
    }
    int hash = key.hashCode();
    for (int i = start; i < size; i++) {
      if (hashes[i] == hash && key.equals(keys[i])) {
        return false;
      }
    }
    if (size - start == LINEAR) {
      if (large[d] == null) {
        large[d] = new HashSet<>();
      }
      large[d].addAll(Arrays.asList(keys).subList(start, size));
      isLarge[d] = true;
      return large[d].add(key);
    }
    if (size == keys.length) {
      keys = Arrays.copyOf(keys, size * 2);
      hashes = Arrays.copyOf(hashes, size * 2);
    }
    hashes[size] = hash;
    keys[size++] = key;
    return true;
  }
}
