package io.ogpm.flink.table;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a function compiled for each distinct tuple of its constant arguments (a mechanism, an
 * estimator), kept so that a row never compiles: the most recently used {@code capacity} tuples,
 * with the tuples that failed to compile and why (so a bad tuple costs one failed compilation, not
 * one per row). A call's arguments are almost always literals, hence one tuple; the bound keeps a
 * query whose arguments vary per row from holding an unbounded cache. Not thread-safe: one per
 * function instance (one per subtask).
 *
 * @param <K> the argument tuple (with equals and hashCode)
 * @param <V> what is compiled from it
 */
final class CompileCache<K, V> {
  private static final Logger LOG = LoggerFactory.getLogger(CompileCache.class);

  /** How many tuples a function keeps compiled. */
  static final int DEFAULT_CAPACITY = 64;

  private final Function<K, V> compiler;
  private final Map<K, Compiled<V>> entries;
  private int compilations;

  CompileCache(int capacity, Function<K, V> compiler) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
    }
    this.compiler = compiler;
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<K, Compiled<V>> eldest) {
            return size() > capacity;
          }
        };
  }

  /** What the tuple compiles to, compiled now if it is not kept. */
  Compiled<V> get(K key) {
    Compiled<V> c = entries.get(key);
    if (c == null) {
      c = compile(key);
      entries.put(key, c);
    }
    return c;
  }

  private Compiled<V> compile(K key) {
    compilations++;
    try {
      return Compiled.of(compiler.apply(key));
    } catch (IllegalArgumentException | IllegalStateException e) {
      // The tuple holds a call's arguments (constants such as lo, hi, eps), never a value.
      LOG.warn(
          "the arguments {} compile to nothing: {}; the function gives NULL for their values",
          key,
          e.getMessage());
      return Compiled.failed(e.getMessage());
    }
  }

  /** How many compilations ran (for tests: one per distinct tuple while it stays cached). */
  int compilations() {
    return compilations;
  }

  /** A compiled value, or the reason its arguments compile to nothing. */
  static final class Compiled<V> {
    private final V value;
    private final String error;

    private Compiled(V value, String error) {
      this.value = value;
      this.error = error;
    }

    static <V> Compiled<V> of(V value) {
      return new Compiled<>(value, null);
    }

    static <V> Compiled<V> failed(String error) {
      return new Compiled<>(null, error);
    }

    /** The value, or null when the arguments are invalid. */
    V value() {
      return value;
    }

    /** Why the arguments are invalid, or null. */
    String error() {
      return error;
    }
  }
}
