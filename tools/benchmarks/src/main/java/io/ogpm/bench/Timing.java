package io.ogpm.bench;

/**
 * One run of a pipeline, per record: records per second as its comparison measures them ({@code
 * rate}: over the output's broker append times for a perturbation, over the job's net run time for
 * an aggregation) and over the job's net run time ({@code netRate}), the process's CPU microseconds
 * while the job ran, the job's own threads' ({@link JobThreadCpu}; -1: not measured by this JVM),
 * and the JIT compilers' milliseconds meanwhile (-1: not measured by this JVM).
 */
record Timing(double rate, double netRate, double cpuMicros, double jobCpuMicros, long jitMillis) {}
