package io.ogpm.bench;

import com.sun.management.OperatingSystemMXBean;
import io.ogpm.flink.kafka.KafkaSettings;
import io.ogpm.jobs.JobRunner;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A bounded job run to its end, and what it cost meanwhile: the process's CPU nanoseconds, its own
 * threads' ({@link JobThreadCpu}; -1: not measured by this JVM), and the JIT compilers'
 * milliseconds (-1: not measured by this JVM).
 */
record MeasuredRun(JobExecutionResult result, long cpuNanos, long jobCpuNanos, long jitMillis) {

  /** Runs the job to its end, with its outputs' transactions committed ({@link JobRunner}). */
  static MeasuredRun execute(
      StreamExecutionEnvironment env, String name, KafkaSettings kafka, List<String> outputs) {
    long cpu = processCpuNanos();
    long jit = compilationMillis();
    JobThreadCpu jobThreads = JobThreadCpu.start();
    JobExecutionResult result;
    try {
      result = JobRunner.execute(env, name, true, kafka, outputs);
    } finally {
      if (jobThreads != null) {
        jobThreads.close();
      }
    }
    long jitAfter = compilationMillis();
    return new MeasuredRun(
        result,
        processCpuNanos() - cpu,
        jobThreads == null ? -1 : jobThreads.nanos(),
        jit < 0 || jitAfter < 0 ? -1 : jitAfter - jit);
  }

  /** Per record of {@code records}, the rate over the job's net run time. */
  Timing timing(long records) {
    return timing(records, netRate(records));
  }

  /** Per record of {@code records}, with {@code rate} as the comparison's rate. */
  Timing timing(long records, double rate) {
    return new Timing(
        rate,
        netRate(records),
        cpuNanos / 1e3 / records,
        jobCpuNanos < 0 ? -1 : jobCpuNanos / 1e3 / records,
        jitMillis);
  }

  private double netRate(long records) {
    return records * 1000.0 / result.getNetRuntime();
  }

  /**
   * CPU time of the whole process, every thread: the job's task threads, the broker's, the Kafka
   * clients' and the JIT compiler's. Unlike a rate, it does not depend on what else the machine
   * runs meanwhile.
   */
  private static long processCpuNanos() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /**
   * The JIT compilers' time so far, in milliseconds ({@code CompilationMXBean}: the time spent in
   * compilations, summed over the compiler threads), or -1 where the JVM does not measure it.
   */
  private static long compilationMillis() {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    return jit != null && jit.isCompilationTimeMonitoringSupported()
        ? jit.getTotalCompilationTime()
        : -1;
  }
}
