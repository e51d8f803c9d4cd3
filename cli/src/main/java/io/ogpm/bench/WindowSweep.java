package io.ogpm.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import java.util.ArrayList;
import java.util.List;

/**
 * The aggregation's work per window, one thread, in records per second: a window of n perturbed
 * records of the sample's configuration (6 fields, one group) costs n additions per field to an
 * exact 50-bin accumulator and one emission per field (raw histogram, means with intervals, EMS
 * reconstruction), so its throughput grows with the records per window until the additions
 * dominate. The same operations as the aggregate job's window operator, without Flink and Kafka.
 */
final class WindowSweep {
  static final int BINS = 50;

  private WindowSweep() {}

  static ObjectNode run(PrivacyConfig config, int[] windowSizes) {
    List<Mechanism> mechanisms = new ArrayList<>();
    List<FieldEstimator> estimators = new ArrayList<>();
    for (FieldConfig f : config.fields()) {
      Mechanism m = MechanismCatalog.of(f.spec());
      mechanisms.add(m);
      estimators.add(FieldEstimator.of(m, BINS));
    }
    int max = 0;
    for (int n : windowSizes) {
      max = Math.max(max, n);
    }
    // Perturbed values of inputs spread over each domain (a third at one hump, the rest at another).
    AesCtrSource bits = AesCtrSource.seeded(3);
    double[][] values = new double[mechanisms.size()][max];
    for (int f = 0; f < mechanisms.size(); f++) {
      Mechanism m = mechanisms.get(f);
      for (int i = 0; i < max; i++) {
        double u = bits.nextUniform() < 1.0 / 3 ? 0.25 : 0.7;
        values[f][i] = m.perturb(m.domain().lo() + m.domain().width() * u, bits);
      }
    }
    window(estimators, values, Math.min(max, 10_000)); // warm-up
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    for (int n : windowSizes) {
      long nanos = window(estimators, values, n);
      out.put(Integer.toString(n), Math.round(n * 1e9 / nanos));
    }
    return out;
  }

  /** Nanoseconds to add n records to fresh accumulators and emit their estimates. */
  private static long window(List<FieldEstimator> estimators, double[][] values, int n) {
    long start = System.nanoTime();
    List<FieldAccumulator> accs = new ArrayList<>();
    for (int f = 0; f < estimators.size(); f++) {
      FieldEstimator e = estimators.get(f);
      FieldAccumulator acc = e.newAccumulator("f" + f);
      for (int i = 0; i < n; i++) {
        acc.add(values[f][i], e.binning());
      }
      accs.add(acc);
    }
    for (int f = 0; f < estimators.size(); f++) {
      estimators.get(f).estimate(accs.get(f), true);
    }
    return Math.max(1, System.nanoTime() - start);
  }
}
