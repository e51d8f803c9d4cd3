package io.ogpm.testkit;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * The metrics of the jobs run on an {@link LdpTestEnvironment}'s MiniCluster, summed over subtasks:
 * for instance {@code metrics.counter("recordsPerturbed")} or {@code
 * metrics.counter("recordsDeadLettered", "reason", "out-of-range")}. Values are kept after a job
 * ends, so a test reads the final counts of a bounded job.
 *
 * <p>Several jobs on one cluster add up; {@link #ofJob(String)} keeps one job's metrics.
 */
public final class CapturedMetrics {
  /** Reporter name in the Flink configuration. */
  static final String REPORTER = "ogpm-testkit";

  static final String ID = "capture-id";

  private static final Map<String, List<Registered>> BY_CLUSTER = new ConcurrentHashMap<>();

  private final String cluster;
  private final Predicate<Registered> filter;

  private CapturedMetrics(String cluster, Predicate<Registered> filter) {
    this.cluster = cluster;
    this.filter = filter;
  }

  static CapturedMetrics of(String cluster) {
    BY_CLUSTER.putIfAbsent(cluster, new CopyOnWriteArrayList<>());
    return new CapturedMetrics(cluster, r -> true);
  }

  static void forget(String cluster) {
    BY_CLUSTER.remove(cluster);
  }

  /** The metrics of the jobs with this name ({@code env.execute(name)}). */
  public CapturedMetrics ofJob(String jobName) {
    return new CapturedMetrics(
        cluster, filter.and(r -> jobName.equals(r.variables().get("<job_name>"))));
  }

  /** The sum of the counters with this name. */
  public long counter(String name) {
    return counter(name, null, null);
  }

  /**
   * The sum of the counters with this name in groups where {@code group} has {@code value}, e.g.
   * {@code ("recordsDeadLettered", "reason", "malformed-json")}.
   */
  public long counter(String name, String group, String value) {
    long sum = 0;
    for (Registered r : registered()) {
      if (r.name().equals(name) && r.metric() instanceof Counter c && matches(r, group, value)) {
        sum += c.getCount();
      }
    }
    return sum;
  }

  /**
   * The sums of the counters with this name per value of a scope variable, ordered by the value as
   * text: for instance {@code countersBy("recordsPreAggregated", "subtask_index")} gives {@code
   * {0=10000, 1=10000}} for an operator whose two subtasks counted 10,000 records each. Counters
   * without the variable are left out.
   */
  public SortedMap<String, Long> countersBy(String name, String variable) {
    String key = variable.startsWith("<") ? variable : "<" + variable + ">";
    SortedMap<String, Long> sums = new TreeMap<>();
    for (Registered r : registered()) {
      String value = r.variables().get(key);
      if (r.name().equals(name) && r.metric() instanceof Counter c && value != null) {
        sums.merge(value, c.getCount(), Long::sum);
      }
    }
    return sums;
  }

  /** The sum of the numeric gauges with this name (e.g. {@code epsilonSpent}). */
  public double gauge(String name) {
    double sum = 0;
    for (Registered r : registered()) {
      if (r.name().equals(name)
          && r.metric() instanceof Gauge<?> g
          && g.getValue() instanceof Number n) {
        sum += n.doubleValue();
      }
    }
    return sum;
  }

  /** How many metrics of this name were registered (one per subtask and group). */
  public int count(String name) {
    return (int) registered().stream().filter(r -> r.name().equals(name)).count();
  }

  private static boolean matches(Registered r, String group, String value) {
    if (group == null) {
      return true;
    }
    String key = group.startsWith("<") ? group : "<" + group + ">";
    return value.equals(r.variables().get(key));
  }

  private List<Registered> registered() {
    return BY_CLUSTER.getOrDefault(cluster, List.of()).stream().filter(filter).toList();
  }

  /**
   * One registered metric with its name and scope variables ({@code <job_name>}, {@code <reason>}).
   */
  record Registered(String name, Map<String, String> variables, Metric metric) {}

  /**
   * The Flink metric reporter behind {@link CapturedMetrics}; {@link LdpTestEnvironment} configures
   * it on its cluster. Public only because Flink instantiates it by its class name.
   */
  @Internal
  public static final class Reporter implements MetricReporter, MetricReporterFactory {
    private String cluster;

    @Override
    public MetricReporter createMetricReporter(Properties properties) {
      Reporter r = new Reporter();
      r.cluster = properties.getProperty(ID);
      return r;
    }

    @Override
    public void open(MetricConfig config) {
      if (cluster == null) {
        cluster = config.getString(ID, null);
      }
    }

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
      List<Registered> list = cluster == null ? null : BY_CLUSTER.get(cluster);
      if (list != null) {
        list.add(new Registered(name, group.getAllVariables(), metric));
      }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
      // Kept: a test reads the final values after its job ended.
    }
  }
}
