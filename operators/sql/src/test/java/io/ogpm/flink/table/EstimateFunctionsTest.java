package io.ogpm.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.estimate.DistributionQuery;
import io.ogpm.estimate.FieldAccumulator;
import io.ogpm.estimate.FieldEstimator;
import io.ogpm.estimate.Interval;
import io.ogpm.flink.WindowDistribution;
import io.ogpm.flink.WindowEstimate;
import io.ogpm.flink.aggregate.WindowEstimates;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * LDP_MEAN, LDP_CIRCULAR_MEAN, LDP_HISTOGRAM and LDP_QUANTILE called directly give, bit for bit,
 * the DataStream aggregation's window estimate of the same values ({@link WindowEstimate} from its
 * {@link FieldEstimator}), however the values are split over merged accumulators or retracted; what
 * they leave out is counted under its reason.
 */
class EstimateFunctionsTest {
  static final Mechanism LINE =
      MechanismCatalog.of(
          MechanismSpec.builder().domain(Domain.classical(-2, 2)).epsilon(1).build());
  static final Mechanism CIRCLE =
      MechanismCatalog.of(
          MechanismSpec.builder().domain(Domain.circular(-Math.PI, Math.PI)).epsilon(2).build());
  static final Mechanism SW =
      MechanismCatalog.of(
          MechanismSpec.builder()
              .type(MechanismType.SW)
              .domain(Domain.classical(0, 10))
              .epsilon(0.5)
              .build());

  /** n perturbed values of inputs drawn from the left third of the domain. */
  static double[] perturbed(Mechanism m, int n, long seed) {
    AesCtrSource bits = AesCtrSource.seeded(seed);
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      y[i] = m.perturb(m.domain().lo() + m.domain().width() * bits.nextUniform() / 3, bits);
    }
    return y;
  }

  /** The DataStream aggregation's estimate of a window holding these values. */
  static WindowEstimate dataStream(Mechanism m, int bins, double[] values, boolean em) {
    FieldEstimator estimator = FieldEstimator.of(m, bins);
    FieldAccumulator acc = estimator.newAccumulator("x");
    for (double y : values) {
      acc.add(y, estimator.binning());
    }
    return WindowEstimates.of(
        0, 1, "x", null, bins, estimator.estimate(acc, em && estimator.canReconstruct()), em);
  }

  private static <F extends EstimateFunction> F opened(F f, TestMetrics metrics) {
    f.open(metrics);
    return f;
  }

  private static Row mean(double[] values) {
    LdpMean f = opened(new LdpMean(), new TestMetrics());
    LdpAccumulator acc = f.createAccumulator();
    for (double y : values) {
      f.accumulate(acc, y, -2.0, 2.0, 1.0);
    }
    return f.getValue(acc);
  }

  @Test
  void ldpMeanIsTheDataStreamsRawEstimate() {
    for (int n : new int[] {3, 40, 5_000}) {
      double[] values = perturbed(LINE, n, n);
      WindowEstimate w = dataStream(LINE, 50, values, false);
      Row r = mean(values);
      assertThat(r.getArity()).isEqualTo(7);
      assertThat(r.getField(0)).isEqualTo((long) n);
      assertThat((Double) r.getField(1)).isEqualTo(w.getMean());
      assertThat((Double) r.getField(2)).isEqualTo(w.getMeanLower());
      assertThat((Double) r.getField(3)).isEqualTo(w.getMeanUpper());
      assertThat((Double) r.getField(4)).isEqualTo(w.getRawMean());
      assertThat((Double) r.getField(5)).isEqualTo(w.getUnbiasedMean());
      assertThat(r.getField(6)).isEqualTo(w.getMeanIntervalMethod().code());
    }
  }

  @Test
  @Tag("slow") // about 1 s; no mutant that faster tests leave
  void ldpMeanWithAnotherMechanismAndNoAffineMeanGivesNullsNotNan() {
    Mechanism tLaplace =
        MechanismCatalog.of(
            MechanismSpec.builder()
                .type(MechanismType.T_LAPLACE)
                .domain(Domain.classical(-2, 2))
                .epsilon(1)
                .build());
    double[] values = perturbed(tLaplace, 500, 3);
    LdpMean f = opened(new LdpMean(), new TestMetrics());
    LdpAccumulator acc = f.createAccumulator();
    for (double y : values) {
      f.accumulate(acc, y, -2.0, 2.0, 1.0, "t-laplace", "l1");
    }
    WindowEstimate w = dataStream(tLaplace, 50, values, false);
    Row r = f.getValue(acc);
    assertThat(Double.isNaN(w.getUnbiasedMean())).isTrue();
    assertThat(r.getField(5)).isNull();
    assertThat((Double) r.getField(1)).isEqualTo(w.getMean());
    assertThat(r.getField(2)).isEqualTo(Double.isNaN(w.getMeanLower()) ? null : w.getMeanLower());
  }

  @Test
  void ldpCircularMeanIsTheDataStreamsRawEstimate() {
    double[] values = perturbed(CIRCLE, 3_000, 5);
    WindowEstimate w = dataStream(CIRCLE, 50, values, false);
    LdpCircularMean f = opened(new LdpCircularMean(), new TestMetrics());
    LdpAccumulator acc = f.createAccumulator();
    for (double y : values) {
      f.accumulate(acc, y, -Math.PI, Math.PI, 2.0, "ogpm");
    }
    Row r = f.getValue(acc);
    assertThat(r.getField(0)).isEqualTo(3_000L);
    assertThat((Double) r.getField(1)).isEqualTo(w.getCircularMean());
    assertThat((Double) r.getField(2)).isEqualTo(w.getCircularMeanLower());
    assertThat((Double) r.getField(3)).isEqualTo(w.getCircularMeanUpper());
    assertThat((Double) r.getField(4)).isEqualTo(w.getResultantLength());
    assertThat((Double) r.getField(5)).isEqualTo(w.getResultantLengthLower());
    assertThat((Double) r.getField(6)).isEqualTo(w.getResultantLengthUpper());
  }

  @Test
  void ldpHistogramIsTheDataStreamsEmEstimate() {
    for (Mechanism m : new Mechanism[] {LINE, SW}) {
      double[] values = perturbed(m, 2_000, 6);
      WindowEstimate w = dataStream(m, 20, values, true);
      LdpHistogram f = opened(new LdpHistogram(), new TestMetrics());
      LdpAccumulator acc = f.createAccumulator();
      for (double y : values) {
        f.accumulate(
            acc,
            y,
            m.domain().lo(),
            m.domain().hi(),
            m.epsilon(),
            "classical",
            m.spec().type().id(),
            20);
      }
      Row r = f.getValue(acc);
      assertThat(r.getField(0)).isEqualTo(2_000L);
      assertThat(r.getField(1)).isEqualTo(w.getMethod().code()).isEqualTo("em");
      assertThat(unboxed(r.getField(2))).containsExactly(w.getHistogram());
      assertThat(unboxed(r.getField(3))).containsExactly(w.getRawHistogram());
      assertThat(unboxed(r.getField(4))).containsExactly(w.getReconstructedHistogram());
      assertThat(r.getField(5)).isEqualTo(w.getEmIterations());
      assertThat(r.getArity()).isEqualTo(9);
      assertThat(unboxed(r.getField(6))).containsExactly(w.getDistribution().getCdfPoints());
      assertThat(unboxed(r.getField(7))).containsExactly(w.getDistribution().getCdfLower());
      assertThat(unboxed(r.getField(8))).containsExactly(w.getDistribution().getCdfUpper());
    }
    // Without a piecewise output distribution there is no reconstruction: the raw histogram.
    Mechanism laplace =
        MechanismCatalog.of(
            MechanismSpec.builder()
                .type(MechanismType.T_LAPLACE)
                .domain(Domain.classical(-2, 2))
                .epsilon(1)
                .build());
    double[] values = perturbed(laplace, 300, 7);
    WindowEstimate w = dataStream(laplace, 50, values, true);
    LdpHistogram f = opened(new LdpHistogram(), new TestMetrics());
    LdpAccumulator acc = f.createAccumulator();
    for (double y : values) {
      f.accumulate(acc, y, -2.0, 2.0, 1.0, "classical", "t-laplace");
    }
    Row r = f.getValue(acc);
    assertThat(r.getField(1)).isEqualTo("raw").isEqualTo(w.getMethod().code());
    assertThat(unboxed(r.getField(2))).containsExactly(w.getRawHistogram());
    assertThat(r.getField(4)).isNull();
    assertThat(r.getField(5)).isEqualTo(0);
    // Nor a cumulative band.
    assertThat(w.getDistribution()).isNull();
    assertThat(r.getField(6)).isNull();
    assertThat(r.getField(7)).isNull();
    assertThat(r.getField(8)).isNull();
  }

  /** LDP_QUANTILE's row for these values at p, with LDP_HISTOGRAM's arguments and 20 bins. */
  private static Row quantile(Mechanism m, double p, double[] values) {
    LdpQuantile f = new LdpQuantile();
    f.open(new TestMetrics());
    LdpQuantileAccumulator acc = f.createAccumulator();
    for (double y : values) {
      f.accumulate(
          acc,
          y,
          p,
          m.domain().lo(),
          m.domain().hi(),
          m.epsilon(),
          m.domain().isCircular() ? "circular" : "classical",
          m.spec().type().id(),
          20);
    }
    return f.getValue(acc);
  }

  @Test
  void ldpQuantileIsTheDataStreamsEmQuantile() {
    for (Mechanism m : new Mechanism[] {LINE, SW, CIRCLE}) {
      double[] values = perturbed(m, 2_000, 15);
      // The aggregation's default quantiles, as the stats topic carries them.
      WindowDistribution d = dataStream(m, 20, values, true).getDistribution();
      double[] probabilities = d.getQuantileProbabilities();
      assertThat(probabilities).containsExactly(0.1, 0.5, 0.9);
      for (int k = 0; k < probabilities.length; k++) {
        Row r = quantile(m, probabilities[k], values);
        assertThat(r.getArity()).isEqualTo(4);
        assertThat(r.getField(0)).isEqualTo(2_000L);
        assertThat((Double) r.getField(1)).isEqualTo(d.getQuantileEstimates()[k]);
        assertThat((Double) r.getField(2)).isEqualTo(d.getQuantileLower()[k]);
        assertThat((Double) r.getField(3)).isEqualTo(d.getQuantileUpper()[k]);
        assertThat((Double) r.getField(1))
            .isBetween((Double) r.getField(2), (Double) r.getField(3));
      }
      // Any other p: the aggregation asked for it.
      FieldEstimator estimator =
          FieldEstimator.of(m, 20, DistributionQuery.of(new double[] {0.25}, null));
      FieldAccumulator acc = estimator.newAccumulator();
      for (double y : values) {
        acc.add(y, estimator.binning());
      }
      Interval expected =
          estimator.estimate(acc, true).distribution().quantiles().get(0).interval();
      Row r = quantile(m, 0.25, values);
      assertThat(r)
          .isEqualTo(Row.of(2_000L, expected.estimate(), expected.lower(), expected.upper()));
    }
  }

  @Test
  void ldpQuantileWithoutACumulativeBandGivesTheCountAndNulls() {
    Mechanism laplace =
        MechanismCatalog.of(
            MechanismSpec.builder()
                .type(MechanismType.T_LAPLACE)
                .domain(Domain.classical(-2, 2))
                .epsilon(1)
                .build());
    double[] values = perturbed(laplace, 300, 16);
    LdpQuantile f = new LdpQuantile();
    f.open(new TestMetrics());
    LdpQuantileAccumulator acc = f.createAccumulator();
    for (double y : values) {
      f.accumulate(acc, y, 0.5, -2.0, 2.0, 1.0, "classical", "t-laplace");
    }
    assertThat(f.getValue(acc)).isEqualTo(Row.of(300L, null, null, null));
  }

  @Test
  void ldpQuantileMergesAndRetractsAsTheHistogramAndItsDefaultsAreTheHistograms() {
    double[] values = perturbed(LINE, 3_000, 17);
    LdpQuantile f = new LdpQuantile();
    f.open(new TestMetrics());
    LdpQuantileAccumulator all = f.createAccumulator();
    LdpQuantileAccumulator longCall = f.createAccumulator();
    List<LdpQuantileAccumulator> parts = new ArrayList<>();
    for (int p = 0; p < 4; p++) {
      parts.add(f.createAccumulator());
    }
    AesCtrSource split = AesCtrSource.seeded(18);
    for (double y : values) {
      f.accumulate(all, y, 0.9, -2.0, 2.0, 1.0);
      f.accumulate(longCall, y, 0.9, -2.0, 2.0, 1.0, "classical", "ogpm", 50, "l1");
      f.accumulate(parts.get((int) split.nextBounded(3)), y, 0.9, -2.0, 2.0, 1.0);
    }
    assertThat(f.getValue(longCall)).isEqualTo(f.getValue(all));
    assertThat(all.values.bins).isEqualTo(50);
    assertThat(all.probability).isEqualTo(0.9);
    // Part 3 is empty, as a pane without records is.
    LdpQuantileAccumulator merged = f.createAccumulator();
    f.merge(merged, List.of(parts.get(3), parts.get(2)));
    f.merge(merged, List.of(parts.get(0), parts.get(1)));
    assertThat(merged.probability).isEqualTo(0.9);
    assertThat(f.getValue(merged)).isEqualTo(f.getValue(all));

    LdpQuantileAccumulator left = f.createAccumulator();
    for (int i = 1_000; i < values.length; i++) {
      f.accumulate(left, values[i], 0.9, -2.0, 2.0, 1.0);
    }
    for (int i = 0; i < 1_000; i++) {
      switch (i % 5) {
        case 0 -> f.retract(all, values[i], 0.9, -2.0, 2.0, 1.0);
        case 1 -> f.retract(all, values[i], 0.9, -2.0, 2.0, 1.0, "classical");
        case 2 -> f.retract(all, values[i], 0.9, -2.0, 2.0, 1.0, "classical", "ogpm");
        case 3 -> f.retract(all, values[i], 0.9, -2.0, 2.0, 1.0, "classical", "ogpm", 50);
        default -> f.retract(all, values[i], 0.9, -2.0, 2.0, 1.0, "classical", "ogpm", 50, "l1");
      }
    }
    assertThat(f.getValue(all)).isNotNull().isEqualTo(f.getValue(left));
    assertThat(f.getValue(all).getField(0)).isEqualTo(2_000L);
  }

  @Test
  void ldpQuantileLeavesOutValuesOfABadOrAnotherProbability() {
    TestMetrics metrics = new TestMetrics();
    LdpQuantile f = new LdpQuantile();
    f.open(metrics);
    LdpQuantileAccumulator acc = f.createAccumulator();
    assertThat(f.getValue(acc)).isNull();
    f.accumulate(acc, null, 0.5, -2.0, 2.0, 1.0);
    for (Double p : new Double[] {null, 0.0, 1.0, 1.5, -0.5, Double.NaN}) {
      f.accumulate(acc, 0.5, p, -2.0, 2.0, 1.0);
    }
    assertThat(metrics.count("valuesSkipped", "invalid-argument")).isEqualTo(6);
    assertThat(acc.probability).isNull();
    assertThat(acc.values.bound()).isFalse();
    assertThat(f.getValue(acc)).isNull();
    // Bad arguments bind nothing; a value the mechanism cannot output binds the group as the
    // histogram's, with its p.
    f.accumulate(acc, 0.5, 0.5, -2.0, 2.0, 0.0);
    assertThat(acc.probability).isNull();
    f.accumulate(acc, 7.0, 0.5, -2.0, 2.0, 1.0);
    assertThat(metrics.count("valuesSkipped", "not-a-perturbed-value")).isEqualTo(1);
    assertThat(acc.probability).isEqualTo(0.5);
    assertThat(f.getValue(acc)).isNull();
    f.accumulate(acc, 0.5, 0.5, -2.0, 2.0, 1.0);
    f.accumulate(acc, 0.25, 0.9, -2.0, 2.0, 1.0);
    f.retract(acc, 0.5, 0.9, -2.0, 2.0, 1.0);
    f.accumulate(acc, 0.25, 0.5, -2.0, 2.0, 1.5);
    assertThat(metrics.count("valuesSkipped", "other-mechanism")).isEqualTo(3);
    assertThat(metrics.count("valuesAggregated")).isEqualTo(1);
    assertThat(f.getValue(acc).getField(0)).isEqualTo(1L);

    LdpQuantileAccumulator other = f.createAccumulator();
    f.accumulate(other, 0.5, 0.9, -2.0, 2.0, 1.0);
    f.accumulate(other, 0.75, 0.9, -2.0, 2.0, 1.0);
    f.merge(acc, List.of(other, f.createAccumulator()));
    assertThat(metrics.count("valuesSkipped", "other-mechanism")).isEqualTo(5);
    assertThat(f.getValue(acc).getField(0)).isEqualTo(1L);
    LdpQuantileAccumulator empty = f.createAccumulator();
    f.merge(empty, List.of(other));
    assertThat(empty.probability).isEqualTo(0.9);
    assertThat(f.getValue(empty).getField(0)).isEqualTo(2L);
  }

  @Test
  void theDefaultsAreTheDataStreamAggregationsAndThePapers() {
    double[] values = perturbed(LINE, 500, 8);
    LdpHistogram f = opened(new LdpHistogram(), new TestMetrics());
    LdpAccumulator shortCall = f.createAccumulator();
    LdpAccumulator longCall = f.createAccumulator();
    for (double y : values) {
      f.accumulate(shortCall, y, -2.0, 2.0, 1.0);
      f.accumulate(longCall, y, -2.0, 2.0, 1.0, "classical", "ogpm", 50, "l1");
    }
    assertThat(f.getValue(shortCall)).isEqualTo(f.getValue(longCall));
    assertThat(shortCall.bins).isEqualTo(50);
    LdpMean g = opened(new LdpMean(), new TestMetrics());
    LdpAccumulator a = g.createAccumulator();
    LdpAccumulator b = g.createAccumulator();
    LdpAccumulator c = g.createAccumulator();
    for (double y : values) {
      g.accumulate(a, y, -2.0, 2.0, 1.0);
      g.accumulate(b, y, -2.0, 2.0, 1.0, "ogpm");
      g.accumulate(c, y, -2.0, 2.0, 1.0, "ogpm", "l1");
    }
    assertThat(g.getValue(a)).isEqualTo(g.getValue(b)).isEqualTo(g.getValue(c));
    assertThat(a.domain).isEqualTo("classical");
    assertThat(a.bins).isEqualTo(50);
  }

  @Test
  void anySplitIntoMergedAccumulatorsGivesTheSameRow() {
    double[] values = perturbed(LINE, 3_000, 9);
    for (EstimateFunction f : new EstimateFunction[] {new LdpMean(), new LdpHistogram()}) {
      opened(f, new TestMetrics());
      LdpAccumulator all = f.createAccumulator();
      List<LdpAccumulator> parts = new ArrayList<>();
      for (int p = 0; p < 4; p++) {
        parts.add(f.createAccumulator());
      }
      AesCtrSource split = AesCtrSource.seeded(10);
      for (double y : values) {
        accumulate(f, all, y);
        accumulate(f, parts.get((int) split.nextBounded(3)), y);
      }
      // Part 3 is empty, as a pane without records is.
      LdpAccumulator merged = f.createAccumulator();
      merge(f, merged, List.of(parts.get(3), parts.get(2)));
      merge(f, merged, List.of(parts.get(0), parts.get(1)));
      assertThat(value(f, merged)).isEqualTo(value(f, all));
    }
  }

  @Test
  void retractingValuesGivesTheEstimateOfTheValuesLeft() {
    double[] values = perturbed(CIRCLE, 2_000, 11);
    LdpCircularMean f = opened(new LdpCircularMean(), new TestMetrics());
    LdpAccumulator churned = f.createAccumulator();
    LdpAccumulator left = f.createAccumulator();
    for (int i = 0; i < values.length; i++) {
      f.accumulate(churned, values[i], -Math.PI, Math.PI, 2.0);
      if (i >= 700) {
        f.accumulate(left, values[i], -Math.PI, Math.PI, 2.0);
      }
    }
    for (int i = 699; i >= 0; i--) {
      f.retract(churned, values[i], -Math.PI, Math.PI, 2.0);
    }
    assertThat(f.getValue(churned)).isNotNull().isEqualTo(f.getValue(left));
    assertThat(f.getValue(churned).getField(0)).isEqualTo(1_300L);
    LdpAccumulator merged = f.createAccumulator();
    f.merge(merged, List.of(left));
    assertThat(f.getValue(merged)).isEqualTo(f.getValue(left));
    for (int i = 700; i < values.length; i++) {
      f.retract(churned, values[i], -Math.PI, Math.PI, 2.0, "ogpm", "l1");
    }
    assertThat(f.getValue(churned)).isNull();
  }

  @Test
  void everyHistogramOverloadRetractsWhatItsTwinAdded() {
    double[] values = perturbed(LINE, 300, 13);
    LdpHistogram f = opened(new LdpHistogram(), new TestMetrics());
    LdpAccumulator acc = f.createAccumulator();
    LdpAccumulator kept = f.createAccumulator();
    for (int i = 0; i < values.length; i++) {
      double y = values[i];
      f.accumulate(kept, y, -2.0, 2.0, 1.0);
      switch (i % 5) {
        case 0 -> f.accumulate(acc, y, -2.0, 2.0, 1.0);
        case 1 -> f.accumulate(acc, y, -2.0, 2.0, 1.0, "classical");
        case 2 -> f.accumulate(acc, y, -2.0, 2.0, 1.0, "classical", "ogpm");
        case 3 -> f.accumulate(acc, y, -2.0, 2.0, 1.0, "classical", "ogpm", 50);
        default -> f.accumulate(acc, y, -2.0, 2.0, 1.0, "classical", "ogpm", 50, "l1");
      }
      // A value added twice, then retracted by the overload of the same arity.
      switch (i % 5) {
        case 0 -> {
          f.accumulate(acc, y, -2.0, 2.0, 1.0);
          f.retract(acc, y, -2.0, 2.0, 1.0);
        }
        case 1 -> {
          f.accumulate(acc, y, -2.0, 2.0, 1.0);
          f.retract(acc, y, -2.0, 2.0, 1.0, "classical");
        }
        case 2 -> {
          f.accumulate(acc, y, -2.0, 2.0, 1.0);
          f.retract(acc, y, -2.0, 2.0, 1.0, "classical", "ogpm");
        }
        case 3 -> {
          f.accumulate(acc, y, -2.0, 2.0, 1.0);
          f.retract(acc, y, -2.0, 2.0, 1.0, "classical", "ogpm", 50);
        }
        default -> {
          f.accumulate(acc, y, -2.0, 2.0, 1.0);
          f.retract(acc, y, -2.0, 2.0, 1.0, "classical", "ogpm", 50, "l1");
        }
      }
    }
    assertThat(f.getValue(acc)).isEqualTo(f.getValue(kept));
    LdpMean g = opened(new LdpMean(), new TestMetrics());
    LdpAccumulator a = g.createAccumulator();
    g.accumulate(a, 0.5, -2.0, 2.0, 1.0, "ogpm");
    g.accumulate(a, 0.75, -2.0, 2.0, 1.0, "ogpm");
    g.retract(a, 0.75, -2.0, 2.0, 1.0, "ogpm");
    assertThat(g.getValue(a).getField(0)).isEqualTo(1L);
    assertThat(g.getValue(a).getField(4)).isEqualTo(0.5);
  }

  @Test
  void theBinsArePartOfTheArgumentsAndBounded() {
    TestMetrics metrics = new TestMetrics();
    LdpHistogram f = opened(new LdpHistogram(), metrics);
    LdpAccumulator ten = f.createAccumulator();
    LdpAccumulator twenty = f.createAccumulator();
    for (double y : perturbed(LINE, 100, 14)) {
      f.accumulate(ten, y, -2.0, 2.0, 1.0, "classical", "ogpm", 10);
      f.accumulate(twenty, y, -2.0, 2.0, 1.0, "classical", "ogpm", 20);
    }
    assertThat(ten.bins).isEqualTo(10);
    assertThat(twenty.bins).isEqualTo(20);
    assertThat((Double[]) f.getValue(ten).getField(3)).hasSize(10);
    assertThat((Double[]) f.getValue(twenty).getField(3)).hasSize(20);
    f.accumulate(ten, 0.5, -2.0, 2.0, 1.0, "classical", "ogpm", 20);
    assertThat(metrics.count("valuesSkipped", "other-mechanism")).isEqualTo(1);
    for (int bins : new int[] {0, -1, 10_001}) {
      f.accumulate(f.createAccumulator(), 0.5, -2.0, 2.0, 1.0, "classical", "ogpm", bins);
    }
    f.accumulate(f.createAccumulator(), 0.5, -2.0, 2.0, 1.0, "classical", "ogpm", null);
    assertThat(metrics.count("valuesSkipped", "invalid-argument")).isEqualTo(4);
    LdpAccumulator one = f.createAccumulator();
    f.accumulate(one, 0.5, -2.0, 2.0, 1.0, "classical", "ogpm", 1);
    assertThat((Double[]) f.getValue(one).getField(3)).hasSize(1);
  }

  @Test
  void theEndsOfTheOutputDomainAreItsLowerEndOnly() {
    TestMetrics metrics = new TestMetrics();
    LdpMean f = opened(new LdpMean(), metrics);
    LdpAccumulator acc = f.createAccumulator();
    f.accumulate(acc, LINE.outputLo(), -2.0, 2.0, 1.0);
    f.accumulate(acc, LINE.outputHi(), -2.0, 2.0, 1.0);
    f.accumulate(acc, Math.nextDown(LINE.outputHi()), -2.0, 2.0, 1.0);
    assertThat(metrics.count("valuesAggregated")).isEqualTo(2);
    assertThat(metrics.count("valuesSkipped", "not-a-perturbed-value")).isEqualTo(1);
  }

  @Test
  void valuesLeftOutAreCountedUnderTheirReason() {
    TestMetrics metrics = new TestMetrics();
    LdpMean f = opened(new LdpMean(), metrics);
    LdpAccumulator acc = f.createAccumulator();
    assertThat(f.getValue(acc)).isNull();
    f.accumulate(acc, null, -2.0, 2.0, 1.0);
    f.accumulate(acc, 0.5, -2.0, 2.0, 0.0);
    assertThat(acc.bound()).isFalse();
    f.accumulate(acc, 0.5, -2.0, 2.0, 1.0);
    f.accumulate(acc, 0.25, -2.0, 2.0, 1.5);
    f.accumulate(acc, 0.25, -2.0, 2.0, 1.0, "pm");
    f.accumulate(acc, Double.NaN, -2.0, 2.0, 1.0);
    f.accumulate(acc, Double.NEGATIVE_INFINITY, -2.0, 2.0, 1.0);
    f.accumulate(acc, 2.0, -2.0, 2.0, 1.0); // ogpm's outputs lie in [-2, 2)
    f.accumulate(acc, -2.0000001, -2.0, 2.0, 1.0);
    // A retraction of a value the accumulator cannot hold (with LDP_MEAN's one bin: none at all).
    f.retract(f.createAccumulator(), -1.999, -2.0, 2.0, 1.0);
    f.retract(acc, 0.5, -2.0, 2.0, 1.0, "ogpm", null);
    assertThat(metrics.count("valuesAggregated")).isEqualTo(1);
    assertThat(metrics.count("valuesSkipped", "invalid-argument")).isEqualTo(2);
    assertThat(metrics.count("valuesSkipped", "other-mechanism")).isEqualTo(2);
    assertThat(metrics.count("valuesSkipped", "not-a-perturbed-value")).isEqualTo(4);
    assertThat(metrics.count("valuesSkipped", "absent-value")).isEqualTo(1);
    assertThat(metrics.count("valuesSkipped", "null-value")).isZero();
    assertThat(f.getValue(acc).getField(0)).isEqualTo(1L);
    assertThat(f.getValue(acc).getField(4)).isEqualTo(0.5);

    LdpAccumulator other = f.createAccumulator();
    f.accumulate(other, 0.5, -2.0, 2.0, 3.0);
    f.accumulate(other, 0.75, -2.0, 2.0, 3.0);
    f.merge(acc, List.of(other, f.createAccumulator()));
    assertThat(metrics.count("valuesSkipped", "other-mechanism")).isEqualTo(4);
    assertThat(f.getValue(acc).getField(0)).isEqualTo(1L);
    LdpAccumulator empty = f.createAccumulator();
    f.merge(empty, List.of(other));
    assertThat(empty.eps).isEqualTo(3.0);
    assertThat(f.getValue(empty).getField(0)).isEqualTo(2L);
    f.retract(acc, 0.5, -2.0, 2.0, 1.0);
    assertThat(metrics.count("valuesAggregated")).isEqualTo(2);
    assertThat(f.getValue(acc)).isNull();
  }

  @Test
  void anAccumulatorBoundToArgumentsThatNoLongerCompileGivesNull() {
    LdpMean f = opened(new LdpMean(), new TestMetrics());
    LdpAccumulator acc = f.createAccumulator();
    f.accumulate(acc, 0.5, -2.0, 2.0, 1.0);
    acc.eps = -1.0; // as a restored accumulator of another build could be
    assertThat(f.getValue(acc)).isNull();
  }

  static double[] unboxed(Object array) {
    return Arrays.stream((Double[]) array).mapToDouble(Double::doubleValue).toArray();
  }

  private static void accumulate(EstimateFunction f, LdpAccumulator acc, double y) {
    if (f instanceof LdpMean m) {
      m.accumulate(acc, y, -2.0, 2.0, 1.0);
    } else {
      ((LdpHistogram) f).accumulate(acc, y, -2.0, 2.0, 1.0);
    }
  }

  private static void merge(EstimateFunction f, LdpAccumulator acc, List<LdpAccumulator> others) {
    if (f instanceof LdpMean m) {
      m.merge(acc, others);
    } else {
      ((LdpHistogram) f).merge(acc, others);
    }
  }

  private static Row value(EstimateFunction f, LdpAccumulator acc) {
    return f instanceof LdpMean m ? m.getValue(acc) : ((LdpHistogram) f).getValue(acc);
  }
}
