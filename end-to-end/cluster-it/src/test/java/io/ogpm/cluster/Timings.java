package io.ogpm.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * How long each step of a test took, with notes; printed when the test class ends (the report's
 * timings).
 */
final class Timings {
  private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
  private final long start = System.nanoTime();

  /**
   * Runs {@code work} and records how long it took under {@code step}, whether it succeeds or not.
   */
  <T> T time(String step, ThrowingSupplier<T> work) {
    long t0 = System.nanoTime();
    try {
      return work.get();
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(step + ": " + e, e);
    } finally {
      lines.add(String.format("%6.1f s  %s", (System.nanoTime() - t0) / 1e9, step));
    }
  }

  void note(String line) {
    lines.add("          " + line);
  }

  @Override
  public String toString() {
    return "StandaloneClusterIT timings:\n"
        + String.join("\n", lines)
        + String.format(
            "%n%6.1f s  in all (from the class's start)", (System.nanoTime() - start) / 1e9);
  }

  @FunctionalInterface
  interface ThrowingSupplier<T> {
    T get() throws Exception;
  }
}
