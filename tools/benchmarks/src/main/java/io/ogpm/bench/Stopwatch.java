package io.ogpm.bench;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Runs a batch of work over and over on the calling thread: first for a warm-up (so the JIT has
 * compiled it), then for a measured time, and gives operations per second. A batch returns how many
 * operations it did. Timing only; nothing here asserts a time.
 */
final class Stopwatch {
  private Stopwatch() {}

  /**
   * What was measured: operations, elapsed nanoseconds, the thread's CPU nanoseconds (-1: unknown)
   * and the bytes it allocated meanwhile (-1: unknown).
   */
  record Run(long operations, long nanos, long cpuNanos, long allocatedBytes) {
    double perSecond() {
      return operations * 1e9 / nanos;
    }

    /**
     * Operations per second of the thread's own CPU time: what one core of its own would do. On a
     * shared machine the elapsed time also counts the time other processes held the core.
     */
    double perCpuSecond() {
      return cpuNanos <= 0 ? -1 : operations * 1e9 / cpuNanos;
    }

    double allocatedPerOperation() {
      return allocatedBytes < 0 ? -1 : (double) allocatedBytes / operations;
    }
  }

  static Run run(Duration warmUp, Duration measure, LongSupplier batch) {
    long end = System.nanoTime() + warmUp.toNanos();
    while (System.nanoTime() - end < 0) {
      batch.getAsLong();
    }
    long allocatedBefore = ThreadAllocation.bytes();
    long cpuBefore = ThreadAllocation.cpuNanos();
    long start = System.nanoTime();
    end = start + measure.toNanos();
    long ops = 0;
    long now;
    do {
      ops += batch.getAsLong();
      now = System.nanoTime();
    } while (now - end < 0);
    long cpuAfter = ThreadAllocation.cpuNanos();
    long allocatedAfter = ThreadAllocation.bytes();
    return new Run(
        ops,
        now - start,
        cpuBefore < 0 ? -1 : cpuAfter - cpuBefore,
        allocatedBefore < 0 ? -1 : allocatedAfter - allocatedBefore);
  }
}
