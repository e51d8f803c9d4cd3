package io.ogpm.flink.perturb;

import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The metrics of released records, registered by the operator whose output reaches the perturbed
 * topic: the budget operator when a budget is configured (records it refuses were never released),
 * else the perturb operator. {@code recordsPerturbed} counts them, the gauge {@code epsilonSpent}
 * sums their privacy costs.
 *
 * <p>Thread safety: the task thread is the only writer; Flink's metric reporters read the gauge
 * from their own thread, so the sum is a volatile double (a read sees a whole, recent value; the
 * read-modify-write in {@link #add} is safe because nothing else writes it).
 */
@Internal
public final class ReleasedRecords {
  private final Counter records;
  private volatile double epsilon;

  private ReleasedRecords(MetricGroup metrics) {
    records = metrics.counter("recordsPerturbed");
    metrics.gauge("epsilonSpent", this::epsilon);
  }

  public static ReleasedRecords register(MetricGroup metrics) {
    return new ReleasedRecords(metrics);
  }

  /** Counts one released record of this privacy cost. Task thread only. */
  public void add(double recordEpsilon) {
    records.inc();
    epsilon += recordEpsilon;
  }

  public double epsilon() {
    return epsilon;
  }
}
