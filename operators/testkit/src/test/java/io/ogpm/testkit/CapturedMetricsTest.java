package io.ogpm.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The captured metrics as a test reads them, from metrics handed to the reporter as Flink does. */
class CapturedMetricsTest {
  private final String cluster = "test-" + UUID.randomUUID();
  private final CapturedMetrics metrics = CapturedMetrics.of(cluster);
  private final MetricReporter reporter = reporter(cluster);

  private static MetricReporter reporter(String cluster) {
    Properties p = new Properties();
    p.setProperty(CapturedMetrics.ID, cluster);
    return new CapturedMetrics.Reporter().createMetricReporter(p);
  }

  @AfterEach
  void forget() {
    CapturedMetrics.forget(cluster);
  }

  /** A counter with this count registered in a group with these scope variables. */
  private void counter(String name, long count, Map<String, String> variables) {
    SimpleCounter c = new SimpleCounter();
    c.inc(count);
    reporter.notifyOfAddedMetric(c, name, group(variables));
  }

  private static MetricGroup group(Map<String, String> variables) {
    return new UnregisteredMetricsGroup() {
      @Override
      public Map<String, String> getAllVariables() {
        return variables;
      }
    };
  }

  @Test
  void countersBySumPerValueOfAScopeVariable() {
    counter("recordsPreAggregated", 7, Map.of("<job_name>", "a", "<subtask_index>", "0"));
    counter("recordsPreAggregated", 5, Map.of("<job_name>", "a", "<subtask_index>", "1"));
    // A restarted subtask registers its counter again: both attempts add up.
    counter("recordsPreAggregated", 2, Map.of("<job_name>", "a", "<subtask_index>", "1"));
    counter("recordsPreAggregated", 100, Map.of("<job_name>", "b", "<subtask_index>", "0"));
    counter("partialAggregates", 3, Map.of("<job_name>", "a", "<subtask_index>", "0"));
    counter("recordsPreAggregated", 11, Map.of("<job_name>", "a"));

    assertThat(metrics.ofJob("a").countersBy("recordsPreAggregated", "subtask_index"))
        .containsExactly(Map.entry("0", 7L), Map.entry("1", 7L));
    assertThat(metrics.ofJob("a").countersBy("recordsPreAggregated", "<subtask_index>"))
        .isEqualTo(metrics.ofJob("a").countersBy("recordsPreAggregated", "subtask_index"));
    assertThat(metrics.countersBy("recordsPreAggregated", "subtask_index"))
        .containsExactly(Map.entry("0", 107L), Map.entry("1", 7L));
    assertThat(metrics.countersBy("recordsPreAggregated", "job_name"))
        .containsExactly(Map.entry("a", 25L), Map.entry("b", 100L));
    assertThat(metrics.countersBy("absent", "subtask_index")).isEmpty();
    assertThat(metrics.ofJob("a").counter("recordsPreAggregated")).isEqualTo(25);
  }
}
