package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * EMS on counts chosen by hand (no sampling): the EM step, the smoothing step's weights, the
 * deviance, the stop at the first iterate whose deviance reaches the target {@code E - sqrt(2 E)},
 * the settling rules, and the schedules ({@link Reconstruction.Schedule}).
 */
class ReconstructionTest {
  private static final Mechanism OGPM =
      MechanismCatalog.of(MechanismSpec.builder().epsilon(2).build());

  /** The counts n T theta would give on average, rounded. */
  private static long[] expectedCounts(TransitionMatrix t, double[] theta, long n) {
    double[] pi = t.apply(theta);
    long[] counts = new long[pi.length];
    for (int j = 0; j < pi.length; j++) {
      counts[j] = Math.round(n * pi[j]);
    }
    return counts;
  }

  @Test
  void noCountsGiveTheUniformDistributionAndWrongCountsAreRefused() {
    TransitionMatrix t = TransitionMatrix.of(OGPM, FieldBinning.of(OGPM, 4));
    Reconstruction.Result r = Reconstruction.em(new long[4], t);
    assertThat(r.frequencies()).containsExactly(0.25, 0.25, 0.25, 0.25);
    assertThat(r.iterations()).isZero();
    assertThat(r.deviance()).isZero();
    assertThat(r.targetDeviance()).isZero();
    assertThatThrownBy(() -> Reconstruction.em(new long[5], t))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected 4 output bins, got 5");
  }

  @Test
  void anEmStepIsLiEtAlsUpdateAndNeedsNoNormalising() {
    // theta'_i = theta_i sum_j T_ji c_j / (n pi_j), pi = T theta: it sums to 1 for any theta,
    // and scaling theta does not change it.
    TransitionMatrix t = TransitionMatrix.of(OGPM, FieldBinning.of(OGPM, 3));
    long[] counts = {5, 0, 11};
    double[] theta = {0.2, 0.5, 0.3};
    double[] pi = t.apply(theta);
    double[] next = Reconstruction.step(counts, 16, t, theta);
    double sum = 0;
    for (int i = 0; i < 3; i++) {
      double s = 0;
      for (int j = 0; j < 3; j++) {
        s += t.get(j, i) * counts[j] / (16 * pi[j]);
      }
      assertThat(next[i]).isCloseTo(theta[i] * s, within(1e-15));
      sum += next[i];
    }
    assertThat(sum).isCloseTo(1, within(1e-15));
    double[] scaled = {0.4, 1.0, 0.6};
    assertThat(Reconstruction.step(counts, 16, t, scaled)).containsExactly(next, within(1e-15));
  }

  @Test
  void smoothingWeightsAreValidatedAndItsEndsAreIdentityAndNeighbourAverage() {
    double[] theta = {0.1, 0.2, 0.3, 0.4};
    assertThat(Reconstruction.smooth(theta, 0, false)).containsExactly(theta);
    assertThat(Reconstruction.smooth(theta, 1, false))
        .containsExactly(new double[] {0.15, 0.2, 0.3, 0.35}, within(1e-15));
    assertThat(Reconstruction.smooth(theta, 1, true))
        .containsExactly(new double[] {0.3, 0.2, 0.3, 0.2}, within(1e-15));
    for (double bad : new double[] {-0.1, 1.5, Double.NaN}) {
      assertThatThrownBy(() -> Reconstruction.smooth(theta, bad, false))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("smoothing weight must be in [0, 1], got " + bad);
    }
  }

  @Test
  void theDevianceIsTwiceTheSumOfCountsTimesLogRatiosWithEmptyBinsAddingNothing() {
    assertThat(Reconstruction.deviance(new long[] {2, 0, 2}, 4, new double[] {0.25, 0.5, 0.25}))
        .isCloseTo(8 * Math.log(2), within(1e-15));
    assertThat(Reconstruction.deviance(new long[] {1, 3}, 4, new double[] {0.25, 0.75}))
        .isCloseTo(0, within(1e-15));
  }

  @Test
  void emsStopsAtTheFirstIterateWhoseDevianceReachesTheTarget() {
    // A smooth truth, counts at their expectation: plain EMS from the uniform distribution,
    // replayed here step by step, must stop at the first iterate with deviance <= E - sqrt(2 E), E
    // the expected deviance at that iterate.
    int k = 10;
    FieldBinning binning = FieldBinning.of(OGPM, k);
    TransitionMatrix t = TransitionMatrix.of(OGPM, binning);
    double[] truth = new double[k];
    for (int i = 0; i < k; i++) {
      truth[i] = (i < 5 ? i + 1 : 10 - i) / 30.0;
    }
    long n = 2_000;
    long[] counts = expectedCounts(t, truth, n);
    long total = Arrays.stream(counts).sum();
    Reconstruction.Result r = Reconstruction.em(counts, t, Reconstruction.Schedule.PLAIN);

    double[] theta = new double[k];
    Arrays.fill(theta, 1.0 / k);
    int stop = -1;
    for (int it = 0; it <= 50 && stop < 0; it++) {
      if (it > 0) {
        theta =
            Reconstruction.smooth(
                Reconstruction.step(counts, total, t, theta), Reconstruction.SMOOTHING, false);
      }
      double[] pi = t.apply(theta);
      double deviance = Reconstruction.deviance(counts, total, pi);
      double expected = Reconstruction.expectedDeviance(t, theta, pi);
      if (deviance <= expected - Math.sqrt(2 * expected)) {
        stop = it;
        assertThat(r.deviance()).isCloseTo(deviance, within(1e-9));
        assertThat(r.targetDeviance()).isCloseTo(expected - Math.sqrt(2 * expected), within(1e-9));
      }
    }
    assertThat(stop).isGreaterThan(1);
    assertThat(r.iterations()).isEqualTo(stop);
    assertThat(r.frequencies()).containsExactly(theta, within(1e-12));
  }

  @Test
  void emsThatSettlesAboveTheTargetButWithinTheMisfitBoundKeepsItsSmoothing() {
    // The same smooth truth with ten times the records: the smoothed fit's bias now shows in the
    // deviance, which settles above the target (so the stop is the settling) but within three
    // standard deviations of E, so the smoothing is not reduced: the result is a fixed point of
    // the smoothed EM step at the full weight.
    int k = 10;
    TransitionMatrix t = TransitionMatrix.of(OGPM, FieldBinning.of(OGPM, k));
    double[] truth = new double[k];
    for (int i = 0; i < k; i++) {
      truth[i] = (i < 5 ? i + 1 : 10 - i) / 30.0;
    }
    long[] counts = expectedCounts(t, truth, 20_000);
    long total = Arrays.stream(counts).sum();
    Reconstruction.Result r = Reconstruction.em(counts, t);
    double[] theta = r.frequencies();
    double[] pi = t.apply(theta);
    double expected = Reconstruction.expectedDeviance(t, theta, pi);
    assertThat(r.deviance())
        .isGreaterThan(r.targetDeviance())
        .isLessThan(expected + 3 * Math.sqrt(2 * expected));
    assertThat(r.iterations()).isLessThan(Reconstruction.MAX_ITERATIONS);
    double[] again =
        Reconstruction.smooth(
            Reconstruction.step(counts, total, t, theta), Reconstruction.SMOOTHING, false);
    assertThat(again).containsExactly(theta, within(1e-6));
  }

  /**
   * The fixed point of the smoothed EM step at weight w, iterated from the uniform distribution.
   */
  private static double[] smoothedFixedPoint(long[] counts, long n, TransitionMatrix t, double w) {
    double[] theta = new double[t.columns()];
    Arrays.fill(theta, 1.0 / theta.length);
    for (int it = 0; it < 20_000; it++) {
      double[] next =
          Reconstruction.smooth(Reconstruction.step(counts, n, t, theta), w, t.circular());
      double change = 0;
      for (int i = 0; i < theta.length; i++) {
        change += Math.abs(next[i] - theta[i]);
      }
      theta = next;
      if (change < 1e-13) {
        break;
      }
    }
    return theta;
  }

  /** {@code |a - b|_1}. */
  private static double l1(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += Math.abs(a[i] - b[i]);
    }
    return s;
  }

  /** The default schedule's settling distance for n records over k bins. */
  private static double settleDistance(int k, long n) {
    return SquaremFit.SETTLE_FRACTION * Math.sqrt(k / (double) n);
  }

  @Test
  void aMisfitHalvesTheSmoothingUntilTheSettledFitIsWithinThreeStandardDeviations() {
    // Every input in one bin, 2,000 records at eps 8 (counts at their expectation): the smoothed
    // fits at weights 0.1, 0.05 and 0.025 settle more than 3 sd above E (the smoothing is bias
    // here); at 0.0125 the fit is within, so EMS stops there, not at a smaller weight or none.
    Mechanism m = MechanismCatalog.of(MechanismSpec.builder().epsilon(8).build());
    int k = 20;
    TransitionMatrix t = TransitionMatrix.of(m, FieldBinning.of(m, k));
    double[] truth = new double[k];
    truth[10] = 1;
    long[] counts = expectedCounts(t, truth, 2_000);
    long total = Arrays.stream(counts).sum();
    double finalWeight = Reconstruction.SMOOTHING / 8;
    // The reference schedule settles where the deviance stops changing (to 1e-9 of itself): a
    // fixed point at the final weight to six digits in every bin.
    double[] former =
        Reconstruction.em(counts, t, Reconstruction.Schedule.PLAIN_FIRST).frequencies();
    assertThat(
            Reconstruction.smooth(
                Reconstruction.step(counts, total, t, former), finalWeight, false))
        .containsExactly(former, within(1e-6));
    // The default settles when SQUAREM puts the fixed point within its settling distance, so one
    // more step at the final weight moves it by less than that; at any other weight the step moves
    // it by far more (about 0.01 at half the weight).
    Reconstruction.Result r = Reconstruction.em(counts, t);
    double[] theta = r.frequencies();
    for (double w : new double[] {finalWeight * 2, finalWeight, finalWeight / 2}) {
      double moved =
          l1(Reconstruction.smooth(Reconstruction.step(counts, total, t, theta), w, false), theta);
      if (w == finalWeight) {
        assertThat(moved).isLessThan(settleDistance(k, total));
      } else {
        assertThat(moved).as("w = %s", w).isGreaterThan(10 * settleDistance(k, total));
      }
    }
    double[] pi = t.apply(theta);
    double expected = Reconstruction.expectedDeviance(t, theta, pi);
    assertThat(r.deviance())
        .isGreaterThan(r.targetDeviance())
        .isLessThanOrEqualTo(expected + 3 * Math.sqrt(2 * expected));
    for (double w : new double[] {0.1, 0.05, 0.025}) {
      double[] fit = smoothedFixedPoint(counts, total, t, w);
      double[] fitPi = t.apply(fit);
      double e = Reconstruction.expectedDeviance(t, fit, fitPi);
      assertThat(Reconstruction.deviance(counts, total, fitPi))
          .as("w = %s", w)
          .isGreaterThan(e + 3 * Math.sqrt(2 * e));
    }
  }

  @Test
  void countsNoDistributionExplainsStopWhenTheUnsmoothedFitSettles() {
    // Every output in one output bin: even the unsmoothed maximum-likelihood fit stays far from
    // the counts (the mechanism spreads every input's outputs), so the smoothing is halved down to
    // none and the iteration stops when that fit settles, well before the iteration limit.
    int k = 10;
    TransitionMatrix t = TransitionMatrix.of(OGPM, FieldBinning.of(OGPM, k));
    long[] counts = new long[k];
    counts[6] = 100_000;
    Reconstruction.Result r = Reconstruction.em(counts, t);
    assertThat(r.iterations()).isLessThan(Reconstruction.MAX_ITERATIONS);
    assertThat(r.deviance()).isGreaterThan(r.targetDeviance() + 3 * Math.sqrt(2 * k));
    assertThat(r.frequencies()[6]).isGreaterThan(0.99);
    // Settled: one more unsmoothed step changes nothing that matters.
    assertThat(Reconstruction.step(counts, 100_000, t, r.frequencies()))
        .containsExactly(r.frequencies(), within(1e-6));
  }

  @Test
  void onACircleTheSmoothingWrapsAtTheSeam() {
    // Every input in the first bin of a circle: the bins on either side of it, the second and the
    // last, are mirror images (the mechanism is rotation invariant), so the reconstruction spreads
    // equally into both; smoothing that reflected at the ends would favour the second.
    Mechanism circle =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(2).domain(Domain.circular(0, 1)).build());
    int k = 10;
    TransitionMatrix t = TransitionMatrix.of(circle, FieldBinning.of(circle, k));
    double[] truth = new double[k];
    truth[0] = 1;
    Reconstruction.Result r = Reconstruction.em(expectedCounts(t, truth, 5_000), t);
    double[] f = r.frequencies();
    assertThat(r.iterations()).isPositive();
    assertThat(f[1]).isPositive().isCloseTo(f[k - 1], within(1e-9));
    assertThat(f[2]).isCloseTo(f[k - 2], within(1e-9));
    assertThat(f[0]).isGreaterThan(f[1]);
  }

  /**
   * Sampled-looking counts of a two-humped truth on 20 bins: n T theta, rounded, plus a fixed
   * wiggle.
   */
  private static long[] twoHumps(TransitionMatrix t, long n) {
    int k = t.columns();
    double[] truth = new double[k];
    for (int i = 0; i < k; i++) {
      truth[i] = Math.exp(-Math.pow((i - 5) / 1.5, 2)) + 2 * Math.exp(-Math.pow((i - 14) / 1.5, 2));
    }
    double sum = Arrays.stream(truth).sum();
    for (int i = 0; i < k; i++) {
      truth[i] /= sum;
    }
    long[] counts = expectedCounts(t, truth, n);
    for (int j = 0; j < counts.length; j++) {
      counts[j] += (long) (Math.sqrt(counts[j]) * Math.sin(7.0 * j));
    }
    return counts;
  }

  /**
   * SQUAREM from the first step (the default schedule), on 1e6 records of a two-humped truth (20
   * bins, eps 1): a fraction of plain EMS's steps, to nearly the same place, a valid distribution.
   */
  @Test
  void squaremReachesPlainEmsResultInFewerSteps() {
    Mechanism ogpm = MechanismCatalog.of(MechanismSpec.builder().epsilon(1).build());
    TransitionMatrix t = TransitionMatrix.of(ogpm, FieldBinning.of(ogpm, 20));
    long[] counts = twoHumps(t, 1_000_000);
    Reconstruction.Result plain =
        Reconstruction.em(
            counts, t, Reconstruction.Schedule.PLAIN.maxIterations(Integer.MAX_VALUE));
    Reconstruction.Result accelerated =
        Reconstruction.em(
            counts, t, Reconstruction.Schedule.DEFAULT.maxIterations(Integer.MAX_VALUE));
    double tv =
        ReconstructionCapTest.totalVariation(plain.frequencies(), accelerated.frequencies());
    assertThat(accelerated.iterations()).isLessThan(plain.iterations() / 3);
    // Plain EMS stops here at its first iterate past the target (34,137 steps), SQUAREM (388) one
    // step past the crossing its bisection finds, on another path to it: 1.7e-3 apart in total
    // variation.
    assertThat(accelerated.deviance()).isLessThanOrEqualTo(accelerated.targetDeviance());
    assertThat(tv).isLessThan(2e-3);
    assertThat(Arrays.stream(accelerated.frequencies()).min().getAsDouble())
        .isGreaterThanOrEqualTo(0.0);
    assertThat(Arrays.stream(accelerated.frequencies()).sum()).isCloseTo(1, within(1e-9));
  }

  @Test
  void theStepLimitHoldsWithAndWithoutAcceleration() {
    Mechanism ogpm = MechanismCatalog.of(MechanismSpec.builder().epsilon(1).build());
    TransitionMatrix t = TransitionMatrix.of(ogpm, FieldBinning.of(ogpm, 20));
    long[] counts = twoHumps(t, 1_000_000);
    for (Reconstruction.Schedule s :
        new Reconstruction.Schedule[] {
          Reconstruction.Schedule.DEFAULT, Reconstruction.Schedule.PLAIN_FIRST.accelerateAfter(0)
        }) {
      for (int limit : new int[] {1, 2, 3, 4, 5, 7, 10, 11}) {
        assertThat(Reconstruction.em(counts, t, s.maxIterations(limit)).iterations())
            .as("accelerated, limit %d", limit)
            .isEqualTo(limit);
        assertThat(
                Reconstruction.em(
                        counts, t, s.accelerateAfter(Integer.MAX_VALUE).maxIterations(limit))
                    .iterations())
            .isEqualTo(limit);
        assertThat(
                Reconstruction.em(counts, t, s.accelerateAfter(3).maxIterations(limit))
                    .iterations())
            .isEqualTo(limit);
      }
      // Before the acceleration starts, the iterates are plain EMS's.
      assertThat(
              Reconstruction.em(counts, t, s.accelerateAfter(50).maxIterations(50)).frequencies())
          .containsExactly(
              Reconstruction.em(counts, t, s.accelerateAfter(Integer.MAX_VALUE).maxIterations(50))
                  .frequencies());
    }
    // The default: at most MAX_ITERATIONS, SQUAREM from the first step.
    assertThat(Reconstruction.em(counts, t).frequencies())
        .containsExactly(
            Reconstruction.em(
                    counts,
                    t,
                    new Reconstruction.Schedule(
                        Reconstruction.MAX_ITERATIONS,
                        0,
                        SquaremFit.FIRST_STEP_LIMIT,
                        true,
                        0,
                        SquaremFit.SETTLE_FRACTION))
                .frequencies());
    assertThat(Reconstruction.em(counts, t, 777).frequencies())
        .containsExactly(
            Reconstruction.em(counts, t, Reconstruction.Schedule.DEFAULT.maxIterations(777))
                .frequencies());
  }

  /**
   * A window that settles above the target, its deviance having fallen to a lowest point and risen
   * again: 1,000 records of the sample's userAcceleration.y perturbed at eps 1 on [-3, 3] (one
   * group of the first window of {@code bench records}' aggregationSampleWindows). SQUAREM's jumps
   * towards the settled fit raise the deviance; kept by their residual, they reach plain EMS's
   * settled fit in a fraction of its steps (dropped by their deviance, SQUAREM would take more
   * steps than plain EMS). The reference schedule (100 plain steps first, settled by the deviance's
   * change) is pinned to its step count; the default gets there sooner still, to within its
   * settling distance's order.
   */
  @Test
  void squaremKeepsJumpsTowardsTheSettledFitWhileTheDevianceRises() {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(1).domain(Domain.classical(-3, 3)).build());
    TransitionMatrix t = TransitionMatrix.of(m, FieldBinning.of(m, 50));
    long[] counts = {
      12, 10, 19, 13, 10, 5, 16, 14, 15, 15, 13, 11, 12, 18, 17, 17, 17, 31, 27, 18, 32, 30, 32, 26,
      34, 33, 32, 37, 38, 32, 36, 25, 34, 32, 21, 17, 14, 19, 21, 20, 11, 10, 16, 14, 12, 12, 19,
      10, 13, 8
    };
    Reconstruction.Result accelerated =
        Reconstruction.em(counts, t, Reconstruction.Schedule.PLAIN_FIRST);
    Reconstruction.Result plain =
        Reconstruction.em(
            counts, t, Reconstruction.Schedule.PLAIN.maxIterations(Integer.MAX_VALUE));
    double tv =
        ReconstructionCapTest.totalVariation(plain.frequencies(), accelerated.frequencies());
    assertThat(plain.deviance()).isGreaterThan(plain.targetDeviance());
    assertThat(accelerated.deviance()).isGreaterThan(accelerated.targetDeviance());
    assertThat(accelerated.iterations()).isEqualTo(218);
    assertThat(plain.iterations()).isEqualTo(1_637);
    // 2.4e-5 apart in total variation: both stop by settling, where the deviance changes by less
    // than 1e-9 of itself in a step, short of the fixed point itself.
    assertThat(tv).isLessThan(1e-4);
    // The default: 51 steps, 3.5e-3 from plain EMS's fixed point in L1, about five times its
    // settling distance (several slow components converge at once, so SQUAREM's estimate of the
    // distance, from the slowest, is short of it).
    Reconstruction.Result fast = Reconstruction.em(counts, t);
    assertThat(fast.deviance()).isGreaterThan(fast.targetDeviance());
    assertThat(fast.iterations()).isLessThan(accelerated.iterations() / 3);
    assertThat(l1(fast.frequencies(), plain.frequencies()))
        .isLessThan(10 * settleDistance(50, 1_000));
  }
}
