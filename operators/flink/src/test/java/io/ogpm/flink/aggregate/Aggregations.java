package io.ogpm.flink.aggregate;

import io.ogpm.config.PrivacyConfig;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.flink.PerturbedValues;
import io.ogpm.flink.WindowEstimate;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

/**
 * What the aggregation's tests share: a configuration, perturbed values, the two stages in
 * harnesses.
 */
public final class Aggregations {
  public static final PrivacyConfig CONFIG =
      PrivacyConfig.parse(
          """
      passthrough: [activity]
      fields:
        - {name: x, min: 0, max: 1, epsilon: 1}
        - {name: att.roll, domain: circular, min: -3.141592653589793, max: 3.141592653589793, epsilon: 2}
      """);
  static final int BINS = 8;
  static final Mechanism[] MECHANISMS = {
    MechanismCatalog.of(CONFIG.fields().get(0).spec()),
    MechanismCatalog.of(CONFIG.fields().get(1).spec())
  };
  static final FieldEstimator[] ESTIMATORS = {
    FieldEstimator.of(MECHANISMS[0], BINS), FieldEstimator.of(MECHANISMS[1], BINS)
  };

  private Aggregations() {}

  /** A perturbed value of field i: a random input perturbed. */
  static double value(int field, AesCtrSource bits) {
    Mechanism m = MECHANISMS[field];
    return m.perturb(m.domain().lo() + m.domain().width() * bits.nextUniform(), bits);
  }

  /** A record with both fields' values. */
  static PerturbedValues record(String group, long time, AesCtrSource bits) {
    return new PerturbedValues(new double[] {value(0, bits), value(1, bits)}, group, time);
  }

  static OneInputStreamOperatorTestHarness<PerturbedValues, PartialAggregate> stage1(
      Windowing w, MockEnvironment env) throws Exception {
    PreAggregateOperator op = new PreAggregateOperator(CONFIG, BINS, w);
    var h =
        env == null
            ? new OneInputStreamOperatorTestHarness<>(op)
            : new OneInputStreamOperatorTestHarness<>(op, env);
    h.open();
    return h;
  }

  static KeyedOneInputStreamOperatorTestHarness<String, PartialAggregate, WindowEstimate> stage2(
      Windowing w, boolean reconstruct, MockEnvironment env) throws Exception {
    WindowEstimateOperator op = new WindowEstimateOperator(CONFIG, BINS, w, reconstruct);
    var h =
        env == null
            ? new KeyedOneInputStreamOperatorTestHarness<>(op, new FieldAndGroup(), Types.STRING)
            : new KeyedOneInputStreamOperatorTestHarness<>(
                op, new FieldAndGroup(), Types.STRING, env);
    h.open();
    return h;
  }

  /** Moves what stage 1 has output (partials, watermarks) into stage 2, in order, and clears it. */
  static void forward(
      OneInputStreamOperatorTestHarness<PerturbedValues, PartialAggregate> from,
      OneInputStreamOperatorTestHarness<PartialAggregate, WindowEstimate> to)
      throws Exception {
    forward(from, to, true);
  }

  /**
   * Moves stage 1's partials into stage 2 and clears its output; the test sets stage 2's
   * watermarks.
   */
  static void forwardPartials(
      OneInputStreamOperatorTestHarness<PerturbedValues, PartialAggregate> from,
      OneInputStreamOperatorTestHarness<PartialAggregate, WindowEstimate> to)
      throws Exception {
    forward(from, to, false);
  }

  private static void forward(
      OneInputStreamOperatorTestHarness<PerturbedValues, PartialAggregate> from,
      OneInputStreamOperatorTestHarness<PartialAggregate, WindowEstimate> to,
      boolean watermarks)
      throws Exception {
    List<Object> out = new ArrayList<>(from.getOutput());
    from.getOutput().clear();
    for (Object o : out) {
      if (o instanceof StreamRecord<?> r) {
        @SuppressWarnings("unchecked")
        StreamRecord<PartialAggregate> p = (StreamRecord<PartialAggregate>) r;
        to.processElement(p);
      } else if (watermarks && o instanceof org.apache.flink.streaming.api.watermark.Watermark w) {
        to.processWatermark(w);
      }
    }
  }

  /** The estimate of a window from one accumulator of all its values of a field. */
  static WindowEstimate expected(
      long start, long end, int field, String group, List<Double> values, boolean reconstruct) {
    FieldEstimator e = ESTIMATORS[field];
    FieldAccumulator acc = e.newAccumulator(CONFIG.fields().get(field).name());
    for (double v : values) {
      acc.add(v, e.binning());
    }
    return WindowEstimates.of(
        start,
        end,
        CONFIG.fields().get(field).name(),
        group,
        BINS,
        e.estimate(acc, reconstruct && e.canReconstruct()),
        reconstruct);
  }
}
