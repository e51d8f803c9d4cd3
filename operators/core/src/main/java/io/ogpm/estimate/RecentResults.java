package io.ogpm.estimate;

import io.ogpm.annotation.Internal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The most recent results of a costly pure function, shared by a process: a configuration's fields
 * often share a mechanism, and a process builds the same one more than once (the perturbation, the
 * aggregation, each parallel instance, a restart). Thread safe; a result computed twice at once by
 * two threads is the same value, so the second simply replaces the first.
 *
 * @param <K> the function's argument, a value with equals and hashCode
 * @param <V> its result, immutable
 */
@Internal
public final class RecentResults<K, V> {
  private final Map<K, V> results;

  /** A cache that keeps the {@code capacity} most recently used results. */
  public RecentResults(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
    }
    this.results =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
            return size() > capacity;
          }
        };
  }

  /** The result for this key, computed outside the lock when it is not kept. */
  public V get(K key, Function<K, V> function) {
    synchronized (results) {
      V kept = results.get(key);
      if (kept != null) {
        return kept;
      }
    }
    V value = function.apply(key);
    synchronized (results) {
      results.put(key, value);
    }
    return value;
  }
}
