package io.ogpm.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One compilation per tuple while it is kept, failures kept with their reason, the least recently
 * used evicted.
 */
class CompileCacheTest {
  @Test
  void compilesATupleOnceAndKeepsItsFailure() {
    List<Integer> compiled = new ArrayList<>();
    CompileCache<Integer, String> cache =
        new CompileCache<>(
            4,
            k -> {
              compiled.add(k);
              if (k < 0) {
                throw new IllegalArgumentException("k must be >= 0, got " + k);
              }
              if (k == 99) {
                throw new IllegalStateException("no certificate");
              }
              return "v" + k;
            });
    for (int round = 0; round < 3; round++) {
      assertThat(cache.get(1).value()).isEqualTo("v1");
      assertThat(cache.get(1).error()).isNull();
      assertThat(cache.get(-1).value()).isNull();
      assertThat(cache.get(-1).error()).isEqualTo("k must be >= 0, got -1");
      assertThat(cache.get(99).error()).isEqualTo("no certificate");
    }
    assertThat(compiled).containsExactly(1, -1, 99);
    assertThat(cache.compilations()).isEqualTo(3);
  }

  @Test
  void keepsTheMostRecentlyUsedTuples() {
    List<Integer> compiled = new ArrayList<>();
    CompileCache<Integer, Integer> cache =
        new CompileCache<>(
            2,
            k -> {
              compiled.add(k);
              return k;
            });
    cache.get(1);
    cache.get(2);
    cache.get(1); // 2 is now the least recently used
    cache.get(3); // evicts 2
    cache.get(1);
    cache.get(2);
    assertThat(compiled).containsExactly(1, 2, 3, 2);
    assertThat(CompileCache.DEFAULT_CAPACITY).isEqualTo(64);
  }

  @Test
  void otherExceptionsAreNotSwallowed() {
    CompileCache<Integer, Integer> cache =
        new CompileCache<>(
            1,
            k -> {
              throw new ArithmeticException("bug");
            });
    assertThatThrownBy(() -> cache.get(1)).isInstanceOf(ArithmeticException.class);
    assertThatThrownBy(() -> new CompileCache<Integer, Integer>(0, k -> k))
        .hasMessage("capacity must be at least 1, got 0");
  }
}
