package io.ogpm.jobs;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A Flink metric reporter for tests: keeps every metric registered on the MiniCluster, with its
 * name and variables, so a test can read the final values after the job ends.
 */
public final class CapturingReporter implements MetricReporter, MetricReporterFactory {
  /** One registered metric. */
  public record Registered(String name, Map<String, String> variables, Metric metric) {}

  public static final List<Registered> METRICS = new CopyOnWriteArrayList<>();

  /** A mark before a job starts: {@link #since} then gives only that job's and later metrics. */
  public static int mark() {
    return METRICS.size();
  }

  /** The metrics registered since {@code mark} (every test in the JVM shares the list). */
  public static List<Registered> since(int mark) {
    return METRICS.subList(mark, METRICS.size());
  }

  @Override
  public MetricReporter createMetricReporter(Properties properties) {
    return new CapturingReporter();
  }

  @Override
  public void open(MetricConfig config) {}

  @Override
  public void close() {}

  @Override
  public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
    METRICS.add(new Registered(name, group.getAllVariables(), metric));
  }

  @Override
  public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {}
}
