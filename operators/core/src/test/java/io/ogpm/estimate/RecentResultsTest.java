package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The cache keeps the most recently used results, computes each kept one once, and no more. */
class RecentResultsTest {
  /** A function that records every argument it is applied to. */
  private static final class Counting implements Function<String, String> {
    final List<String> calls = new ArrayList<>();

    @Override
    public String apply(String key) {
      calls.add(key);
      return "result of " + key;
    }
  }

  @Test
  void aCapacityBelowOneIsRefusedNamingIt() {
    assertThatThrownBy(() -> new RecentResults<String, String>(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("capacity must be at least 1, got 0");
    assertThatThrownBy(() -> new RecentResults<String, String>(-3))
        .hasMessage("capacity must be at least 1, got -3");
  }

  @Test
  void aKeptResultIsReturnedWithoutComputingItAgain() {
    RecentResults<String, String> cache = new RecentResults<>(1);
    Counting f = new Counting();
    assertThat(cache.get("a", f)).isEqualTo("result of a");
    assertThat(cache.get("a", f)).isEqualTo("result of a");
    assertThat(f.calls).containsExactly("a");
  }

  @Test
  void upToTheCapacityEveryResultIsKept() {
    RecentResults<String, String> cache = new RecentResults<>(3);
    Counting f = new Counting();
    for (String key : List.of("a", "b", "c", "a", "b", "c")) {
      assertThat(cache.get(key, f)).isEqualTo("result of " + key);
    }
    assertThat(f.calls).containsExactly("a", "b", "c");
  }

  @Test
  void beyondTheCapacityTheLeastRecentlyUsedResultIsDropped() {
    RecentResults<String, String> cache = new RecentResults<>(2);
    Counting f = new Counting();
    cache.get("a", f);
    cache.get("b", f);
    // Using a makes b the least recently used: c pushes b out, not a.
    cache.get("a", f);
    cache.get("c", f);
    cache.get("a", f);
    cache.get("c", f);
    assertThat(f.calls).containsExactly("a", "b", "c");
    assertThat(cache.get("b", f)).isEqualTo("result of b");
    assertThat(f.calls).containsExactly("a", "b", "c", "b");
  }
}
