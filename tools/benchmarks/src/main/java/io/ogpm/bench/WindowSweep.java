package io.ogpm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ogpm.config.FieldConfig;
import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.estimate.Reconstruction;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomnessMode;
import io.ogpm.record.Outcome;
import io.ogpm.record.RecordPerturber;
import io.ogpm.record.Source;
import java.io.IOException;
import java.time.Duration;
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

  /**
   * Records per second by window size: after {@code warmUp} (windows of up to 10,000 records), each
   * size over consecutive windows for at least {@code measure} (at least one window).
   */
  static ObjectNode run(
      PrivacyConfig config, int[] windowSizes, Duration warmUp, Duration measure) {
    List<Mechanism> mechanisms = new ArrayList<>();
    List<FieldEstimator> estimators = new ArrayList<>();
    for (FieldConfig f : config.fields()) {
      Mechanism m = MechanismCatalog.of(f.spec());
      mechanisms.add(m);
      estimators.add(FieldEstimator.of(m, BINS));
    }
    // At least 100 windows of 1,000 different records: EMS's cost depends on the counts.
    int max = DISTINCT_RECORDS;
    for (int n : windowSizes) {
      max = Math.max(max, n);
    }
    // Perturbed values of inputs spread over each domain (a third at one hump, the rest at
    // another).
    AesCtrSource bits = AesCtrSource.seeded(3);
    double[][] values = new double[mechanisms.size()][max];
    for (int f = 0; f < mechanisms.size(); f++) {
      Mechanism m = mechanisms.get(f);
      for (int i = 0; i < max; i++) {
        double u = bits.nextUniform() < 1.0 / 3 ? 0.25 : 0.7;
        values[f][i] = m.perturb(m.domain().lo() + m.domain().width() * u, bits);
      }
    }
    // Warm-up, then each size for at least the measuring time (3 s by default), over consecutive
    // windows of different records: how many EMS steps a window takes depends on its counts, so
    // one window timed once would give a rate that varies several times over with the draw of its
    // records (and with whether the JIT has settled).
    repeat(estimators, values, Math.min(max, 10_000), warmUp.toNanos());
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    for (int n : windowSizes) {
      out.put(Integer.toString(n), Math.round(repeat(estimators, values, n, measure.toNanos())));
    }
    return out;
  }

  /** Groups of {@link #sampleWindows}, as in {@code bench pipeline}'s aggregation. */
  static final int SAMPLE_GROUPS = 100;

  /** Records per window of {@link #sampleWindows}: 1,000 per group and field. */
  static final int SAMPLE_WINDOW = 100_000;

  /**
   * The emissions of {@code bench pipeline}'s 6-field, 100-group aggregation, without Flink and
   * Kafka: the sample's records cycled, record i in group i mod 100, each perturbed afresh by the
   * operator's code, windows of 100,000 records; every group's field emitted (raw histogram, means
   * with intervals, EMS) window after window for at least {@code measure}, the additions and
   * emissions timed, the perturbation not. Its EMS steps per emission are the sample's, not the two
   * humps' of {@link #run}, and they decide the aggregation's rate; how many of the first window's
   * reconstructions stopped by settling (deviance above the target) rather than at the target, and
   * their steps, say why.
   */
  static ObjectNode sampleWindows(PrivacyConfig config, List<byte[]> records, Duration measure) {
    List<FieldEstimator> estimators = new ArrayList<>();
    for (FieldConfig f : config.fields()) {
      estimators.add(FieldEstimator.of(MechanismCatalog.of(f.spec()), BINS));
    }
    RecordPerturber perturber = new RecordPerturber(config, RandomnessMode.secure());
    Source source = Source.kafka("ogpm.raw", 0, 0);
    ObjectMapper json = new ObjectMapper();
    double[][] values = new double[estimators.size()][SAMPLE_WINDOW];
    long nanos = 0;
    long cpuNanos = 0;
    long emissions = 0;
    long iterations = 0;
    long windows = 0;
    List<List<FieldAccumulator>> firstWindow = new ArrayList<>();
    do {
      for (int i = 0; i < SAMPLE_WINDOW; i++) {
        byte[] raw = records.get((int) ((windows * SAMPLE_WINDOW + i) % records.size()));
        JsonNode out = read(json, ((Outcome.Perturbed) perturber.perturb(raw, source)).value());
        for (int f = 0; f < estimators.size(); f++) {
          JsonNode v = out;
          for (String step : config.fields().get(f).path()) {
            v = v.path(step);
          }
          values[f][i] = v.doubleValue();
        }
      }
      long start = System.nanoTime();
      long cpuStart = ThreadAllocation.cpuNanos();
      for (int f = 0; f < estimators.size(); f++) {
        FieldEstimator e = estimators.get(f);
        List<FieldAccumulator> groups = new ArrayList<>();
        for (int g = 0; g < SAMPLE_GROUPS; g++) {
          groups.add(e.newAccumulator("g" + g));
        }
        // Records are numbered from 0 in every window: 100,000 is a multiple of 100.
        for (int i = 0; i < SAMPLE_WINDOW; i++) {
          groups.get(i % SAMPLE_GROUPS).add(values[f][i], e.binning());
        }
        for (FieldAccumulator acc : groups) {
          iterations += e.estimate(acc, true).iterations();
          emissions++;
        }
        if (windows == 0) {
          firstWindow.add(groups);
        }
      }
      nanos += System.nanoTime() - start;
      cpuNanos =
          cpuStart < 0 || cpuNanos < 0 ? -1 : cpuNanos + ThreadAllocation.cpuNanos() - cpuStart;
      windows++;
    } while (nanos < measure.toNanos());
    // How the first window's reconstructions stopped (untimed): by the target, or by settling above
    // it.
    long settled = 0;
    long settledIterations = 0;
    long firstIterations = 0;
    for (int f = 0; f < estimators.size(); f++) {
      for (FieldAccumulator acc : firstWindow.get(f)) {
        Reconstruction.Result r =
            Reconstruction.em(acc.getHistogram(), estimators.get(f).transition());
        firstIterations += r.iterations();
        if (r.deviance() > r.targetDeviance()) {
          settled++;
          settledIterations += r.iterations();
        }
      }
    }
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("recordsPerWindow", SAMPLE_WINDOW);
    out.put("groups", SAMPLE_GROUPS);
    out.put("windows", windows);
    out.put("recordsPerSecond", Math.round(windows * SAMPLE_WINDOW * 1e9 / nanos));
    out.put("emsIterationsPerEmission", Math.round((double) iterations / emissions));
    out.put("microsecondsPerEmission", Math.round(nanos / 1e3 / emissions));
    // The measuring thread's own CPU time: what a core of its own would take, whatever the load.
    out.put(
        "cpuMicrosecondsPerEmission", cpuNanos < 0 ? -1 : Math.round(cpuNanos / 1e3 / emissions));
    out.put("firstWindowEmissionsStoppedBySettling", settled);
    out.put("firstWindowIterationsOfThose", settledIterations);
    out.put("firstWindowIterations", firstIterations);
    return out;
  }

  private static JsonNode read(ObjectMapper json, byte[] record) {
    try {
      return json.readTree(record);
    } catch (IOException e) {
      throw new IllegalStateException("the operator wrote a record that is not JSON", e);
    }
  }

  /** Perturbed records drawn per field, at least. */
  static final int DISTINCT_RECORDS = 100_000;

  /**
   * Records per second over consecutive windows of n records (wrapping around the drawn records),
   * repeated for at least {@code nanos}.
   */
  private static double repeat(
      List<FieldEstimator> estimators, double[][] values, int n, long nanos) {
    long total = 0;
    long windows = 0;
    int from = 0;
    do {
      if (from + n > values[0].length) {
        from = 0;
      }
      total += window(estimators, values, from, n);
      from += n;
      windows++;
    } while (total < nanos);
    return windows * n * 1e9 / total;
  }

  /** Nanoseconds to add records from..from+n-1 to fresh accumulators and emit their estimates. */
  private static long window(List<FieldEstimator> estimators, double[][] values, int from, int n) {
    long start = System.nanoTime();
    List<FieldAccumulator> accs = new ArrayList<>();
    for (int f = 0; f < estimators.size(); f++) {
      FieldEstimator e = estimators.get(f);
      FieldAccumulator acc = e.newAccumulator("f" + f);
      for (int i = from; i < from + n; i++) {
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
