package io.ogpm.bench;

import java.lang.management.ManagementFactory;

/**
 * Bytes allocated so far by the calling thread, and its CPU time ({@code
 * com.sun.management.ThreadMXBean}, HotSpot's per-thread allocation counter; -1 where the JVM has
 * none). The difference over a run, divided by the operations, is what JMH's {@code -prof gc}
 * reports as {@code gc.alloc.rate.norm}.
 */
final class ThreadAllocation {
  private ThreadAllocation() {}

  static long bytes() {
    if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean hotspot
        && hotspot.isThreadAllocatedMemorySupported()
        && hotspot.isThreadAllocatedMemoryEnabled()) {
      return hotspot.getThreadAllocatedBytes(Thread.currentThread().getId());
    }
    return -1;
  }

  /** The calling thread's CPU time so far, in nanoseconds; -1 where the JVM does not measure it. */
  static long cpuNanos() {
    var threads = ManagementFactory.getThreadMXBean();
    return threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled()
        ? threads.getCurrentThreadCpuTime()
        : -1;
  }
}
