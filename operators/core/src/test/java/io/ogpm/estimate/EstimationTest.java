package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;

/** Reconstruction, circular means and the coverage of the confidence intervals. */
class EstimationTest {
  @Test
  void emRecoversAKnownDistributionWithinItsErrorBound() {
    // A two-bump input distribution on [0, 1), perturbed with OGPM at eps = 4, k = 20 bins.
    Mechanism m = MechanismCatalog.of(MechanismSpec.builder().epsilon(4).build());
    int k = 20;
    FieldEstimator estimator = FieldEstimator.of(m, k);
    FieldBinning binning = estimator.binning();
    double[] truth = new double[k];
    AesCtrSource bits = AesCtrSource.seeded(9);
    int n = 1_000_000;
    FieldAccumulator acc = estimator.newAccumulator();
    for (int i = 0; i < n; i++) {
      double u = bits.nextUniform();
      double x = u < 0.6 ? 0.2 + 0.1 * bits.nextUniform() : 0.6 + 0.3 * bits.nextUniform();
      truth[binning.inputBin(x)] += 1.0 / n;
      acc.add(m.perturb(x, bits), binning);
    }
    TransitionMatrix t = TransitionMatrix.of(m, binning);
    Reconstruction.Result result = Reconstruction.em(acc.getHistogram(), t);
    double[] em = result.frequencies();
    assertThat(estimator.estimate(acc, true).reconstructedHistogram()).containsExactly(em);
    // ||em - truth||_1 <= ||T^-1||_1 (||T em - c/n||_1 + ||c/n - T truth||_1). The first term is at
    // most sqrt(D / n) by Pinsker (D the deviance at the stop, which must be no more than the
    // truth's would typically be: at most k); the second has mean at most sqrt(m / n) and, by
    // McDiarmid, exceeds it by 4 sqrt(2 / n) with probability below e^-16.
    assertThat(result.deviance()).isLessThan(k);
    double inverseNorm = inverseOneNorm(t);
    double bound =
        inverseNorm
            * (Math.sqrt(k / (double) n) + Math.sqrt((double) k / n) + 4 * Math.sqrt(2.0 / n));
    double error = 0;
    double rawError = 0;
    double[] raw = binning.rawHistogram(acc.getHistogram());
    for (int i = 0; i < k; i++) {
      error += Math.abs(em[i] - truth[i]);
      rawError += Math.abs(raw[i] - truth[i]);
    }
    assertThat(error).as("bound %s (||T^-1|| = %s)", bound, inverseNorm).isLessThan(bound);
    assertThat(error).isLessThan(rawError / 3);
  }

  @Test
  void emsReachesTheDiscrepancyTargetWhereSmoothingWouldBeBias() {
    // Every input in one bin, two million records, eps = 8: the smoothed iteration's fixed point
    // leaks mass into the neighbouring bins, far more than the sampling noise of so many records
    // allows, so the reconstruction must drop the smoothing to explain the counts. (The bin's
    // sampling error is about sqrt(0.1 / n) = 2e-4.)
    Mechanism m = MechanismCatalog.of(MechanismSpec.builder().epsilon(8).build());
    int k = 20;
    FieldEstimator estimator = FieldEstimator.of(m, k);
    FieldBinning binning = estimator.binning();
    AesCtrSource bits = AesCtrSource.seeded(21);
    FieldAccumulator acc = estimator.newAccumulator();
    for (int i = 0; i < 2_000_000; i++) {
      acc.add(m.perturb(0.5 + 0.05 * bits.nextUniform(), bits), binning);
    }
    Reconstruction.Result r =
        Reconstruction.em(acc.getHistogram(), TransitionMatrix.of(m, binning));
    assertThat(r.frequencies()[binning.inputBin(0.52)]).isGreaterThan(0.999);
  }

  @Test
  void expectedDevianceIsThePearsonMeanWithFixedInputs() {
    // 2,100 fixed inputs perturbed again and again: the mean Pearson statistic of the counts at the
    // true bin distribution (the deviance's second-order term) is the Poisson-binomial value, well
    // below the multinomial's bins - 1.
    Mechanism m = MechanismCatalog.of(MechanismSpec.builder().epsilon(6).build());
    int k = 20;
    FieldBinning binning = FieldBinning.of(m, k);
    TransitionMatrix t = TransitionMatrix.of(m, binning);
    AesCtrSource bits = AesCtrSource.seeded(33);
    // Bin i holds 10 (i + 1) inputs, evenly spread over the bin, so that T (inputs uniform within a
    // bin) describes them.
    int n = 10 * k * (k + 1) / 2;
    double[] inputs = new double[n];
    double[] theta = new double[k];
    int r = 0;
    for (int i = 0; i < k; i++) {
      int count = 10 * (i + 1);
      for (int q = 0; q < count; q++) {
        inputs[r++] = (i + (q + 0.5) / count) / k;
      }
      theta[i] = count / (double) n;
    }
    double[] pi = t.apply(theta);
    int runs = 400;
    double sum = 0;
    double sumSquares = 0;
    for (int run = 0; run < runs; run++) {
      FieldAccumulator acc = FieldAccumulator.forBinning(binning);
      for (double x : inputs) {
        acc.add(m.perturb(x, bits), binning);
      }
      long[] counts = acc.getHistogram();
      double d = 0;
      for (int j = 0; j < counts.length; j++) {
        if (pi[j] > 0) {
          d += (counts[j] - n * pi[j]) * (counts[j] - n * pi[j]) / (n * pi[j]);
        }
      }
      sum += d;
      sumSquares += d * d;
    }
    double mean = sum / runs;
    double standardError = Math.sqrt((sumSquares / runs - mean * mean) / runs);
    double expected = Reconstruction.expectedDeviance(t, theta, pi);
    // 4 standard errors, and 1 % for the 32-point mean squares against 105 inputs per bin on
    // average.
    assertThat(mean).isCloseTo(expected, within(4 * standardError + 0.01 * expected));
    assertThat(expected).isLessThan(0.9 * (k - 1));
  }

  @Test
  void smoothingKeepsMassAndWrapsOnlyOnTheCircle() {
    double[] theta = {0.5, 0, 0, 0.5};
    assertThat(Reconstruction.smooth(theta, 0.2, true)).containsExactly(0.45, 0.05, 0.05, 0.45);
    assertThat(Reconstruction.smooth(theta, 0.2, false)).containsExactly(0.45, 0.05, 0.05, 0.45);
    double[] edge = {1, 0, 0, 0};
    assertThat(Reconstruction.smooth(edge, 0.2, true)).containsExactly(0.8, 0.1, 0, 0.1);
    assertThat(Reconstruction.smooth(edge, 0.2, false)).containsExactly(0.9, 0.1, 0, 0);
    assertThatThrownBy(() -> Reconstruction.smooth(edge, 1.5, false))
        .hasMessageContaining("smoothing weight must be in [0, 1], got 1.5");
  }

  /** The 1-norm of the inverse of a square transition matrix (Gauss-Jordan). */
  static double inverseOneNorm(TransitionMatrix t) {
    int k = t.columns();
    double[][] a = new double[k][2 * k];
    for (int i = 0; i < k; i++) {
      for (int j = 0; j < k; j++) {
        a[i][j] = t.get(i, j);
      }
      a[i][k + i] = 1;
    }
    for (int c = 0; c < k; c++) {
      int pivot = c;
      for (int r = c + 1; r < k; r++) {
        if (Math.abs(a[r][c]) > Math.abs(a[pivot][c])) {
          pivot = r;
        }
      }
      double[] tmp = a[c];
      a[c] = a[pivot];
      a[pivot] = tmp;
      double p = a[c][c];
      for (int j = 0; j < 2 * k; j++) {
        a[c][j] /= p;
      }
      for (int r = 0; r < k; r++) {
        if (r != c) {
          double f = a[r][c];
          for (int j = 0; j < 2 * k; j++) {
            a[r][j] -= f * a[c][j];
          }
        }
      }
    }
    double norm = 0;
    for (int j = 0; j < k; j++) {
      double col = 0;
      for (int i = 0; i < k; i++) {
        col += Math.abs(a[i][k + j]);
      }
      norm = Math.max(norm, col);
    }
    return norm;
  }

  @Test
  void circularMeanIsRightAcrossTheSeam() {
    // Inputs within 0.2 rad of the seam at +-pi: the true circular mean is pi (= -pi).
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(2).domain(Domain.circular(-Math.PI, Math.PI)).build());
    FieldEstimator estimator = FieldEstimator.of(m, 36);
    AesCtrSource bits = AesCtrSource.seeded(12);
    FieldAccumulator acc = estimator.newAccumulator();
    for (int i = 0; i < 20_000; i++) {
      double x = Math.PI - 0.2 + 0.4 * bits.nextUniform();
      x = x > Math.PI ? x - 2 * Math.PI : x;
      acc.add(m.perturb(x, bits), estimator.binning());
    }
    CircularMeans means = estimator.estimate(acc, true).circular();
    double d = Math.abs(Math.IEEEremainder(means.direction().estimate() - Math.PI, 2 * Math.PI));
    assertThat(d).isLessThan(0.1);
    assertThat(means.direction().containsOnCircle(Math.PI, -Math.PI, 2 * Math.PI)).isTrue();
    assertThat(means.direction().lower()).isGreaterThan(means.direction().upper()); // wraps
    double rd =
        Math.abs(
            Math.IEEEremainder(means.reconstructedDirection().estimate() - Math.PI, 2 * Math.PI));
    assertThat(rd).isLessThan(0.1);
    // A naive linear mean of the same outputs is near 0, on the wrong side of the circle.
    assertThat(Math.abs(acc.mean())).isLessThan(0.5);
  }

  @Test
  void confidenceIntervalsCoverTheTruthAtTheirNominalRate() {
    // 400 simulated windows of 2,000 records each. If an interval covers with probability >= 0.95,
    // fewer than 0.95 - 3.09 sqrt(0.95 * 0.05 / 400) = 91.6 % of 400 has probability below 0.1 %.
    int windows = 400;
    int n = 2_000;
    double minimum = 0.95 - 3.09 * Math.sqrt(0.95 * 0.05 / windows);
    AesCtrSource bits = AesCtrSource.seeded(21);

    Mechanism unbiased =
        MechanismCatalog.of(
            MechanismSpec.builder()
                .type(MechanismType.OGPM_U)
                .epsilon(1)
                .domain(Domain.classical(-2, 2))
                .build());
    FieldEstimator linear = FieldEstimator.of(unbiased, 20);
    DoubleSupplier skewed = () -> -2 + 4 * Math.pow(bits.nextUniform(), 3);
    int covered = 0;
    for (int w = 0; w < windows; w++) {
      FieldAccumulator acc = linear.newAccumulator();
      double sum = 0;
      for (int i = 0; i < n; i++) {
        double x = skewed.getAsDouble();
        sum += x;
        acc.add(unbiased.perturb(x, bits), linear.binning());
      }
      if (linear.estimate(acc, false).linear().mean().contains(sum / n)) {
        covered++;
      }
    }
    assertThat((double) covered / windows).as("mean coverage").isGreaterThan(minimum);

    Mechanism circle =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(1).domain(Domain.circular(0, 2 * Math.PI)).build());
    FieldEstimator circular = FieldEstimator.of(circle, 20);
    int directionCovered = 0;
    int lengthCovered = 0;
    for (int w = 0; w < windows; w++) {
      FieldAccumulator acc = circular.newAccumulator();
      double c = 0;
      double s = 0;
      for (int i = 0; i < n; i++) {
        double x = (1 + 0.8 * (bits.nextUniform() - 0.5)) % (2 * Math.PI);
        c += Math.cos(x);
        s += Math.sin(x);
        acc.add(circle.perturb(x, bits), circular.binning());
      }
      double trueDirection = Math.atan2(s, c);
      double trueLength = Math.hypot(c, s) / n;
      CircularMeans means = circular.estimate(acc, false).circular();
      if (means.direction().containsOnCircle(trueDirection, 0, 2 * Math.PI)) {
        directionCovered++;
      }
      if (means.resultantLength().contains(trueLength)) {
        lengthCovered++;
      }
    }
    assertThat((double) directionCovered / windows)
        .as("circular mean coverage")
        .isGreaterThan(minimum);
    assertThat((double) lengthCovered / windows)
        .as("resultant length coverage")
        .isGreaterThan(minimum);
  }

  @Test
  void ogpmDebiasedMeanIsExactInTheMiddleOfTheDomain() {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(2).domain(Domain.classical(0, 10)).build());
    FieldEstimator estimator = FieldEstimator.of(m, 10);
    FieldAccumulator acc = estimator.newAccumulator();
    AesCtrSource bits = AesCtrSource.seeded(30);
    for (int i = 0; i < 200_000; i++) {
      acc.add(m.perturb(4 + 2 * bits.nextUniform(), bits), estimator.binning());
    }
    LinearMeans means = estimator.estimate(acc, false).linear();
    assertThat(means.unbiasedFrom()).isCloseTo(10 * 0.5 / (1 + Math.E), within(0.05));
    assertThat(means.unbiased()).isCloseTo(5, within(0.05));
    assertThat(means.mean().estimate()).isEqualTo(means.unbiased());
    assertThat(means.mean().contains(5)).isTrue();
    assertThat(means.raw()).isCloseTo(5, within(0.05)); // symmetric data: no bias here
  }
}
