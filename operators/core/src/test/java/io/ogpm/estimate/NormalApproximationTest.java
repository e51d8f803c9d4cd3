package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.ContinuousUnitMechanism;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.PiecewiseDistribution;
import io.ogpm.mechanism.PiecewiseUnitMechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The Edgeworth error terms, the count from which the normal interval is used, Bernstein's
 * half-width, and the skewness and kurtosis behind the count, recomputed here independently: by
 * Gauss-Legendre quadrature over each piece (exact for the polynomials involved) or over many
 * panels of a smooth density, and from the moments of a two-point noise on the circle.
 */
class NormalApproximationTest {
  private static final double Z = 1.959963984540054;
  private static final double PHI = Math.exp(-Z * Z / 2) / Math.sqrt(2 * Math.PI);

  /** Probabilists' Hermite polynomials He3 = z^3 - 3z and He5 = z^5 - 10 z^3 + 15 z at z. */
  private static final double HE3 = Z * Z * Z - 3 * Z;

  private static final double HE5 = Math.pow(Z, 5) - 10 * Math.pow(Z, 3) + 15 * Z;

  @Test
  void theErrorIsTheEdgeworthSkewnessTermPerSidePlusTheKurtosisTermInTotal() {
    assertThat(PHI).isCloseTo(0.05844506980503538, within(1e-16));
    double n = 100;
    // Skewness alone: phi(z) |g1| (z^2 - 1) / (6 sqrt n) + 2 phi(z) g1^2 |He5(z)| / (72 n).
    double skew =
        PHI * 0.8 * (Z * Z - 1) / (6 * Math.sqrt(n)) + 2 * PHI * 0.64 * Math.abs(HE5) / (72 * n);
    assertThat(NormalApproximation.error(100, 0.8, 0)).isCloseTo(skew, within(1e-16));
    assertThat(NormalApproximation.error(100, -0.8, 0)).isCloseTo(skew, within(1e-16));
    // Kurtosis alone: 2 phi(z) |g2| He3(z) / (24 n).
    double kurt = 2 * PHI * 2.5 * HE3 / (24 * n);
    assertThat(NormalApproximation.error(100, 0, 2.5)).isCloseTo(kurt, within(1e-16));
    assertThat(NormalApproximation.error(100, 0, -2.5)).isCloseTo(kurt, within(1e-16));
    assertThat(NormalApproximation.error(100, 0.8, 2.5)).isCloseTo(skew + kurt, within(1e-16));
    assertThat(NormalApproximation.error(100, 0, 0)).isZero();
  }

  @Test
  void theMinimumCountIsTheSmallestWhoseErrorIsWithinOnePercentagePoint() {
    assertThat(NormalApproximation.MAX_ERROR).isEqualTo(0.01);
    for (double[] g :
        new double[][] {{0.3, 0.1}, {1, 2}, {3, 12}, {10, 150}, {0, 4}, {25, 700}, {7e8, 0}}) {
      long n = NormalApproximation.minimumCount(g[0], g[1]);
      assertThat(NormalApproximation.error(n, g[0], g[1]))
          .as("%s, %s", g[0], g[1])
          .isLessThanOrEqualTo(0.01);
      if (n > 1) {
        assertThat(NormalApproximation.error(n - 1, g[0], g[1]))
            .as("%s, %s", g[0], g[1])
            .isGreaterThan(0.01);
      }
    }
    assertThat(NormalApproximation.minimumCount(0, 0)).isEqualTo(1);
    // Skewness 7e8 (above) needs about 6.2e18, within a long; 1e10 needs about 8e20, beyond the
    // largest long: never.
    assertThat(NormalApproximation.minimumCount(1e10, 0)).isEqualTo(Long.MAX_VALUE);
    assertThat(NormalApproximation.minimumCount(Double.NaN, 0)).isEqualTo(Long.MAX_VALUE);
    assertThat(NormalApproximation.minimumCount(0, Double.POSITIVE_INFINITY))
        .isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void bernsteinsHalfWidthSolvesTheInequalityForAlpha() {
    // 2 exp(-n t^2 / (2 v + 2 r t / 3)) = alpha at the returned t.
    for (double[] c :
        new double[][] {{10, 0.1, 1, 0.05}, {1000, 0.02, 3, 0.025}, {3, 2, 0.5, 0.05}}) {
      long n = (long) c[0];
      double t = NormalApproximation.bernsteinHalfWidth(n, c[1], c[2], c[3]);
      double bound = 2 * Math.exp(-n * t * t / (2 * c[1] + 2 * c[2] * t / 3));
      assertThat(bound)
          .as("%s", java.util.Arrays.toString(c))
          .isCloseTo(c[3], within(1e-12 * c[3]));
    }
    // Without range it is the sub-Gaussian width sqrt(2 v ln(2 / alpha) / n).
    assertThat(NormalApproximation.bernsteinHalfWidth(50, 0.3, 0, 0.05))
        .isCloseTo(Math.sqrt(2 * 0.3 * Math.log(40) / 50), within(1e-15));
    // Without variance it is the range term 2 r ln(2 / alpha) / (3 n).
    assertThat(NormalApproximation.bernsteinHalfWidth(50, 0, 1.5, 0.05))
        .isCloseTo(2 * 1.5 * Math.log(40) / (3 * 50), within(1e-15));
  }

  @Test
  void theWidenedQuantileMissesAtMostWhatTheRegimeAcceptsAtItsEdge() {
    double z0 = Z;
    for (double[] g : new double[][] {{3, 12}, {1, 2}, {0.3, 40}}) {
      long from = NormalApproximation.minimumCount(g[0], g[1]);
      // In the regime: the side's own quantile.
      assertThat(NormalApproximation.widenedQuantile(from, g[0], g[1], z0, 0.01)).isEqualTo(z0);
      double accepted = NormalApproximation.upperTail(z0) + 0.01;
      double previous = z0;
      for (long n = from - 1; n >= 1; n--) {
        double z = NormalApproximation.widenedQuantile(n, g[0], g[1], z0, 0.01);
        if (Double.isNaN(z)) {
          // Only once the leading error at z0 exceeds the widened limit, and for every smaller n.
          assertThat(NormalApproximation.error(n, g[0], g[1], z0))
              .as("n %d", n)
              .isGreaterThan(NormalApproximation.MAX_WIDENED_ERROR);
          break;
        }
        assertThat(NormalApproximation.upperTail(z) + NormalApproximation.error(n, g[0], g[1], z))
            .as("leading-order miss at n %d", n)
            .isLessThanOrEqualTo(accepted);
        // The smallest such z on the grid, and it grows as n falls.
        double below = z - 1e-3;
        if (below > z0) {
          assertThat(
                  NormalApproximation.upperTail(below)
                      + NormalApproximation.error(n, g[0], g[1], below))
              .isGreaterThan(accepted);
        }
        assertThat(z).as("n %d", n).isGreaterThanOrEqualTo(previous);
        previous = z;
      }
    }
    assertThat(NormalApproximation.upperTail(Z)).isCloseTo(0.025, within(1e-12));
    assertThat(NormalApproximation.widenedQuantile(100, Double.NaN, 0, Z, 0.01)).isNaN();
  }

  @Test
  void theOutputMeanIsStudentisedFromAFewDozenOutputsAndBernsteinBoundsItBelow() {
    // pm at eps 5.5 (a field's epsilon under field sampling): the demo's windows of about 320
    // reports per field are well inside the studentised regime, which starts where the 1/n term
    // reaches 1 %.
    Mechanism pm =
        MechanismCatalog.of(MechanismSpec.builder().type(MechanismType.PM).epsilon(5.5).build());
    LinearMeanBounds bounds = FieldEstimator.of(pm, 20).linearBounds();
    double middle = pm.outputMean(0.5);
    double square = bounds.meanSquare(middle, pm.outputVariance(0.5));
    long from = 2;
    while (bounds.outputMeanBounds(from, middle, square).method()
        != MeanIntervalMethod.STUDENTISED_OUTPUT_MEAN) {
      from++;
    }
    assertThat(from).isEqualTo(48);
    for (long n = from; n < from + 1000; n += 97) {
      assertThat(bounds.outputMeanBounds(n, middle, square).method())
          .isEqualTo(MeanIntervalMethod.STUDENTISED_OUTPUT_MEAN);
    }
    // Below it, the largest variance's interval: never wider than Bernstein's (plus a grid cell and
    // a step of the identification).
    LinearMeanBounds.Bounds small = bounds.outputMeanBounds(from - 1, middle, square);
    assertThat(small.method()).isEqualTo(MeanIntervalMethod.OUTPUT_MEAN);
    double sd = Math.sqrt(pm.maxOutputVariance()) + pm.cellWidth() + 1e-6 * pm.domain().width();
    double bernstein =
        NormalApproximation.bernsteinHalfWidth(
            from - 1, sd * sd, pm.outputHi() - pm.outputLo(), 0.05);
    assertThat((small.upper() - small.lower()) / 2)
        .isLessThanOrEqualTo(
            bernstein + pm.cellWidth() + pm.domain().width() / MeanIdentification.POINTS + 1e-9);
  }

  @Test
  void ogpmUsesTheNormalIntervalFromTheCountsTheEstimatorDocuments() {
    // FieldEstimator's javadoc: 141 records for OGPM at eps 4, 7 at eps 1.
    assertThat(NormalApproximation.minimumCount(ogpm(4))).isEqualTo(141);
    assertThat(NormalApproximation.minimumCount(ogpm(1))).isEqualTo(7);
  }

  private static Mechanism ogpm(double eps) {
    return MechanismCatalog.of(MechanismSpec.builder().epsilon(eps).build());
  }

  @Test
  void theCountOfAPiecewiseMechanismComesFromItsLargestSkewnessAndKurtosis() {
    for (MechanismType type :
        new MechanismType[] {MechanismType.OGPM, MechanismType.T_PM, MechanismType.SW}) {
      for (double eps : new double[] {0.5, 3, 6}) {
        Mechanism m = MechanismCatalog.of(MechanismSpec.builder().type(type).epsilon(eps).build());
        PiecewiseUnitMechanism unit = (PiecewiseUnitMechanism) m.unit();
        assertCountFrom(m, z -> piecewiseCentralMoments(unit.distribution(z)));
      }
    }
  }

  @Test
  void theCountOfAContinuousMechanismComesFromItsLargestSkewnessAndKurtosis() {
    for (MechanismType type :
        new MechanismType[] {MechanismType.T_LAPLACE, MechanismType.B_LAPLACE}) {
      Mechanism m = MechanismCatalog.of(MechanismSpec.builder().type(type).epsilon(2).build());
      ContinuousUnitMechanism unit = (ContinuousUnitMechanism) m.unit();
      assertCountFrom(m, z -> continuousCentralMoments(unit, z));
    }
  }

  /** Skewness and kurtosis maximised over 65 inputs, then the count; within 1e-9 of both. */
  private static void assertCountFrom(
      Mechanism m, java.util.function.DoubleFunction<double[]> moments) {
    double skewness = 0;
    double kurtosis = 0;
    for (int i = 0; i <= 64; i++) {
      double[] c = moments.apply(i / 64.0);
      skewness = Math.max(skewness, Math.abs(c[1]) / Math.pow(c[0], 1.5));
      kurtosis = Math.max(kurtosis, Math.abs(c[2] / (c[0] * c[0]) - 3));
    }
    long n = NormalApproximation.minimumCount(m);
    assertThat(n)
        .as("%s", m)
        .isBetween(
            NormalApproximation.minimumCount(skewness * (1 - 1e-9), kurtosis * (1 - 1e-9)),
            NormalApproximation.minimumCount(skewness * (1 + 1e-9), kurtosis * (1 + 1e-9)));
  }

  // Gauss-Legendre, 3 points: exact for polynomials up to degree 5.
  private static final double[] GL_X = {-Math.sqrt(0.6), 0, Math.sqrt(0.6)};
  private static final double[] GL_W = {5 / 9.0, 8 / 9.0, 5 / 9.0};

  private static double integrate(DoubleUnaryOperator f, double a, double b) {
    double s = 0;
    for (int q = 0; q < 3; q++) {
      s += GL_W[q] * f.applyAsDouble((a + b) / 2 + (b - a) / 2 * GL_X[q]);
    }
    return s * (b - a) / 2;
  }

  /** Central moments 2, 3, 4 of a piecewise distribution. */
  private static double[] piecewiseCentralMoments(PiecewiseDistribution d) {
    double mean = 0;
    for (PiecewiseDistribution.Piece p : d.pieces()) {
      mean += p.density() * integrate(y -> y, p.from(), p.to());
    }
    for (PiecewiseDistribution.Atom a : d.atoms()) {
      mean += a.mass() * a.at();
    }
    double[] c = new double[3];
    for (int k = 2; k <= 4; k++) {
      int power = k;
      double mu = mean;
      for (PiecewiseDistribution.Piece p : d.pieces()) {
        c[k - 2] += p.density() * integrate(y -> Math.pow(y - mu, power), p.from(), p.to());
      }
      for (PiecewiseDistribution.Atom a : d.atoms()) {
        c[k - 2] += a.mass() * Math.pow(a.at() - mu, power);
      }
    }
    return c;
  }

  /** Central moments 2, 3, 4 of a continuous unit mechanism's output: 400 panels each side of z. */
  private static double[] continuousCentralMoments(ContinuousUnitMechanism unit, double z) {
    DoubleUnaryOperator[] mean = {y -> y};
    double mu = expectation(unit, z, mean[0]);
    double[] c = new double[3];
    for (int k = 2; k <= 4; k++) {
      int power = k;
      c[k - 2] = expectation(unit, z, y -> Math.pow(y - mu, power));
    }
    return c;
  }

  private static double expectation(ContinuousUnitMechanism unit, double z, DoubleUnaryOperator f) {
    double total = 0;
    int panels = 400;
    for (double[] side : new double[][] {{unit.outputLo(), z}, {z, unit.outputHi()}}) {
      double h = (side[1] - side[0]) / panels;
      for (int p = 0; p < panels; p++) {
        double a = side[0] + p * h;
        total += integrate(y -> f.applyAsDouble(y) * unit.density(y, z), a, a + h);
      }
    }
    for (PiecewiseDistribution.Atom a : unit.atoms(z)) {
      total += a.mass() * f.applyAsDouble(a.at());
    }
    return total;
  }

  @Test
  void theCircularCountComesFromTheComponentMomentsOfTheNoise() {
    // Noise 0 with probability p, +-a with (1 - p) / 2 each: rho_k = p + (1 - p) cos(k a). One
    // output's component along a direction at angle t from its input is cos(t + noise).
    for (double[] pa : new double[][] {{0, 1.0}, {0.5, 0.4}, {0.2, 2.5}, {0.8, 3.0}}) {
      double p = pa[0];
      double a = pa[1];
      double[] rho = new double[5];
      for (int k = 1; k <= 4; k++) {
        rho[k] = p + (1 - p) * Math.cos(k * a);
      }
      double skewness = 0;
      double kurtosis = 0;
      for (int i = 0; i <= 64; i++) {
        double t = Math.PI * i / 64;
        double[] e = new double[5];
        for (int j = 1; j <= 4; j++) {
          e[j] =
              p * Math.pow(Math.cos(t), j)
                  + (1 - p) / 2 * (Math.pow(Math.cos(t + a), j) + Math.pow(Math.cos(t - a), j));
        }
        double c2 = e[2] - e[1] * e[1];
        double c3 = e[3] - 3 * e[1] * e[2] + 2 * Math.pow(e[1], 3);
        double c4 = e[4] - 4 * e[1] * e[3] + 6 * e[1] * e[1] * e[2] - 3 * Math.pow(e[1], 4);
        skewness = Math.max(skewness, Math.abs(c3) / Math.pow(c2, 1.5));
        kurtosis = Math.max(kurtosis, Math.abs(c4 / (c2 * c2) - 3));
      }
      assertThat(NormalApproximation.minimumCount(rho[1], rho[2], rho[3], rho[4]))
          .as("p %s, a %s", p, a)
          .isBetween(
              NormalApproximation.minimumCount(skewness * (1 - 1e-9), kurtosis * (1 - 1e-9)),
              NormalApproximation.minimumCount(skewness * (1 + 1e-9), kurtosis * (1 + 1e-9)));
    }
    // Without noise a component has no variance along the input: never normal.
    assertThat(NormalApproximation.minimumCount(1, 1, 1, 1)).isEqualTo(Long.MAX_VALUE);
  }
}
