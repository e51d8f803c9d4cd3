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

  /** What was measured: operations, nanoseconds, and bytes the thread allocated meanwhile (-1: unknown). */
  record Run(long operations, long nanos, long allocatedBytes) {
    double perSecond() {
      return operations * 1e9 / nanos;
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
    long start = System.nanoTime();
    end = start + measure.toNanos();
    long ops = 0;
    long now;
    do {
      ops += batch.getAsLong();
      now = System.nanoTime();
    } while (now - end < 0);
    long allocatedAfter = ThreadAllocation.bytes();
    return new Run(ops, now - start, allocatedBefore < 0 ? -1 : allocatedAfter - allocatedBefore);
  }
}
