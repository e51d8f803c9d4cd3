package io.ogpm.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The CPU time of one job's own threads while it runs: its Flink task threads, its Kafka sources'
 * fetcher threads and its Kafka sinks' producer threads, not the broker's, the garbage collector's
 * or the JIT compiler's. Those three serve every job alike and their share varies from run to run,
 * which makes the process's CPU time per record a noisy measure of one pipeline; what a job adds to
 * a Flink cluster is its own threads' time.
 *
 * <p>A task's threads end with the job, and the JVM cannot tell the CPU time of a thread that has
 * ended, so a daemon reads every matching thread's time every {@value #POLL_MILLIS} ms and keeps
 * the last reading: of each thread, at most its last {@value #POLL_MILLIS} ms before it ended are
 * missed, which is small against a timed job's run.
 */
final class JobThreadCpu implements AutoCloseable {
  static final long POLL_MILLIS = 20;

  /**
   * Flink's task threads ({@code <operator chain> (1/2)#0}), the Kafka source's fetchers and the
   * producers of the benchmark's sinks, whose transactional ids and client ids start {@code
   * bench-}.
   */
  private static final Pattern JOB_THREAD =
      Pattern.compile(
          ".* \\(\\d+/\\d+\\)#\\d+|Source Data Fetcher for .*|kafka-producer-network-thread \\| producer-bench-.*");

  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

  /**
   * Thread id to its CPU time when first seen: a thread of an earlier job still ending is not
   * counted twice.
   */
  private final Map<Long, Long> first = new HashMap<>();

  private final Map<Long, Long> last = new HashMap<>();

  /** Thread id to whether it is one of a job's threads: each thread's name is looked up once. */
  private final Map<Long, Boolean> jobThread = new HashMap<>();

  private final Thread poller;
  private volatile boolean running = true;

  private JobThreadCpu() {
    poll(true);
    poller = new Thread(this::run, "bench job thread CPU");
    poller.setDaemon(true);
    poller.start();
  }

  /** Starts reading; null where the JVM cannot measure a thread's CPU time. */
  static JobThreadCpu start() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    return mx.isThreadCpuTimeSupported() && mx.isThreadCpuTimeEnabled() ? new JobThreadCpu() : null;
  }

  private void run() {
    while (running) {
      synchronized (this) {
        poll(false);
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * Reads every matching thread; {@code before}: the threads alive before the job count from now.
   */
  private void poll(boolean before) {
    for (long id : threads.getAllThreadIds()) {
      Boolean job = jobThread.get(id);
      if (job == null) {
        ThreadInfo info = threads.getThreadInfo(id);
        job = info != null && JOB_THREAD.matcher(info.getThreadName()).matches();
        jobThread.put(id, job);
      }
      if (job) {
        long cpu = threads.getThreadCpuTime(id);
        if (cpu >= 0) {
          // A thread first seen while the job runs started with it: all of its time is the job's.
          first.putIfAbsent(id, before ? cpu : 0L);
          last.put(id, cpu);
        }
      }
    }
  }

  /** Stops reading; the job's threads' CPU time since {@link #start()}, in nanoseconds. */
  @Override
  public synchronized void close() {
    poll(false);
    running = false;
    poller.interrupt();
  }

  synchronized long nanos() {
    long sum = 0;
    for (Map.Entry<Long, Long> e : last.entrySet()) {
      sum += e.getValue() - first.get(e.getKey());
    }
    return sum;
  }
}
