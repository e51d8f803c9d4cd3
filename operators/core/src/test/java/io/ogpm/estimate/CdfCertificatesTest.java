package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The certificates: valid for every input between the grid points (weak duality holds for point
 * masses and two-point mixtures off the grid), and for the real mechanism close to the full linear
 * program.
 */
class CdfCertificatesTest {
  private static final int FINE = 8;

  /**
   * Random tails on a grid of {@code cells}, non-decreasing in g, {@code T_0 = 1}, {@code T_M = 0}.
   */
  private static double[][] randomTails(Random random, int cells, int outputs) {
    double[][] tails = new double[cells + 1][outputs + 1];
    for (int o = 1; o < outputs; o++) {
      double level = random.nextDouble() * 0.3;
      for (int g = 0; g <= cells; g++) {
        level += random.nextDouble() < 0.3 ? random.nextDouble() * 0.1 : 0;
        tails[g][o] = Math.min(1, level);
      }
    }
    for (int g = 0; g <= cells; g++) {
      tails[g][0] = 1;
      // Tails non-increasing in o, as for a distribution.
      for (int o = 2; o < outputs; o++) {
        tails[g][o] = Math.min(tails[g][o], tails[g][o - 1]);
      }
    }
    return tails;
  }

  /**
   * The tails at a point between grid points, one of the monotone functions the grid allows: linear
   * between the ends, or a step at a random place.
   */
  private static double[] between(double[][] tails, int g, int step, boolean linear, double jump) {
    if (step == 0 || g == tails.length - 1) {
      return tails[g];
    }
    double s = (double) step / FINE;
    double[] t = new double[tails[g].length];
    for (int o = 0; o < t.length; o++) {
      t[o] =
          linear
              ? tails[g][o] + s * (tails[g + 1][o] - tails[g][o])
              : (s < jump ? tails[g][o] : tails[g + 1][o]);
    }
    return t;
  }

  @Test
  void aRandomCertificateBoundsEveryPointMassAndTwoPointMixture() {
    Random random = new Random(11);
    for (int trial = 0; trial < 200; trial++) {
      int cells = 10 + random.nextInt(20);
      int outputs = 3 + random.nextInt(5);
      double[][] tails = randomTails(random, cells, outputs);
      double[][] columns = CertifiedConstant.columns(tails);
      int t = random.nextInt(cells + 1);
      int side = random.nextInt(2);
      int terms = 1 + random.nextInt(outputs - 1);
      int[] o = new int[terms];
      double[] c = new double[terms];
      for (int i = 0; i < terms; i++) {
        o[i] = 1 + i;
        c[i] = random.nextGaussian() * 3;
      }
      double nu = CertifiedConstant.of(columns, t, side, o, c);
      boolean linear = random.nextBoolean();
      double jump = random.nextDouble();
      for (int mix = 0; mix < 200; mix++) {
        // Two inputs on the fine grid (the same one twice: a point mass), a random weight.
        int p1 = random.nextInt(cells * FINE + 1);
        int p2 = mix % 4 == 0 ? p1 : random.nextInt(cells * FINE + 1);
        double weight = random.nextDouble();
        double[] t1 = between(tails, p1 / FINE, p1 % FINE, linear, jump);
        double[] t2 = between(tails, p2 / FINE, p2 % FINE, linear, jump);
        double bound = nu;
        double slack = random.nextDouble() * 0.01;
        for (int i = 0; i < terms; i++) {
          double q = weight * t1[o[i]] + (1 - weight) * t2[o[i]];
          bound += c[i] * (c[i] > 0 ? q + slack : q - slack);
        }
        double share = weight * in(p1, t, side) + (1 - weight) * in(p2, t, side);
        assertThat(bound).as("trial %s mixture %s", trial, mix).isGreaterThanOrEqualTo(share);
      }
    }
  }

  /** Whether fine point p is in the set: {@code x <= x_t} (side 0) or {@code x > x_t}. */
  private static double in(int p, int t, int side) {
    boolean below = p <= t * FINE;
    return (side == 0) == below ? 1 : 0;
  }

  @Test
  void theFamiliesBoundEveryMixtureConsistentWithTheBounds() {
    Random random = new Random(5);
    for (int trial = 0; trial < 10; trial++) {
      int cells = 40;
      int outputs = 8;
      double[][] tails = randomTails(random, cells, outputs);
      int[] edges = {0, 10, 20, 30, 40};
      CdfCertificates certificates = CdfCertificates.build(tails, edges);
      for (int mix = 0; mix < 300; mix++) {
        int p1 = random.nextInt(cells * FINE + 1);
        int p2 = random.nextInt(cells * FINE + 1);
        double weight = random.nextDouble();
        double[] t1 = between(tails, p1 / FINE, p1 % FINE, true, 0);
        double[] t2 = between(tails, p2 / FINE, p2 % FINE, true, 0);
        double[] lower = new double[outputs + 1];
        double[] upper = new double[outputs + 1];
        for (int o = 1; o < outputs; o++) {
          double q = weight * t1[o] + (1 - weight) * t2[o];
          lower[o] = q - random.nextDouble() * 0.02;
          upper[o] = q + random.nextDouble() * 0.02;
        }
        for (int j = 0; j < edges.length; j++) {
          double below = weight * in(p1, edges[j], 0) + (1 - weight) * in(p2, edges[j], 0);
          assertThat(certificates.upper(j, lower, upper)).isGreaterThanOrEqualTo(below);
          assertThat(certificates.upperOfComplement(j, lower, upper))
              .isGreaterThanOrEqualTo(1 - below);
        }
      }
    }
  }

  @Test
  void nothingIsAboveTheTopAndEverythingIsAtOrBelowIt() {
    double[][] tails = randomTails(new Random(1), 20, 5);
    CdfCertificates certificates = CdfCertificates.build(tails, new int[] {0, 10, 20});
    double[] lower = new double[6];
    double[] upper = new double[6];
    java.util.Arrays.fill(upper, 1);
    assertThat(certificates.upper(2, lower, upper)).isEqualTo(1);
    assertThat(certificates.upperOfComplement(2, lower, upper)).isLessThan(1e-9);
    assertThat(certificates.familySize(2, 1)).isEqualTo(1);
  }

  @Test
  void decreasingTailsAreRefused() {
    double[][] tails = randomTails(new Random(2), 10, 4);
    tails[5][2] = tails[4][2] - 0.01;
    assertThatThrownBy(() -> CdfCertificates.build(tails, new int[] {0, 5, 10}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void edgesOutsideTheGridOrNotIncreasingAreRefusedNamingTheEdge() {
    double[][] tails = randomTails(new Random(3), 10, 4);
    // The grid has points 0..10; each case's last edge is the first bad one.
    for (int[] bad : new int[][] {{-1}, {0, 11}, {0, 5, 5}, {0, 6, 5}}) {
      assertThatThrownBy(() -> CdfCertificates.build(tails, bad))
          .as("edges %s", java.util.Arrays.toString(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("edges must increase within the grid: " + bad[bad.length - 1]);
    }
    // Both ends of the grid are thresholds a band may have.
    CdfCertificates both = CdfCertificates.build(tails, new int[] {0, 10});
    assertThat(both.thresholds()).isEqualTo(2);
    assertThat(CdfCertificates.build(tails, new int[] {0, 4, 7, 10}).thresholds()).isEqualTo(4);
  }

  @Test
  void certificatesAreTheSameWithinTheToleranceAndNoFurther() {
    CdfCertificates.Certificate c =
        new CdfCertificates.Certificate(new int[] {1, 3}, new double[] {0.5, -0.25}, 0.75);
    double tolerance = 0x1p-10;
    assertThat(c.sameAs(c, tolerance)).isTrue();
    // Off by the tolerance (exact in binary): still the same; by twice it: another.
    for (double off : new double[] {tolerance, -tolerance}) {
      assertThat(c.sameAs(certificate(c, 0, 0, off), tolerance)).isTrue();
      assertThat(c.sameAs(certificate(c, off, 0, 0), tolerance)).isTrue();
      assertThat(c.sameAs(certificate(c, 0, off, 0), tolerance)).isTrue();
      assertThat(c.sameAs(certificate(c, 0, 0, 2 * off), tolerance)).isFalse();
      assertThat(c.sameAs(certificate(c, 2 * off, 0, 0), tolerance)).isFalse();
      assertThat(c.sameAs(certificate(c, 0, 2 * off, 0), tolerance)).isFalse();
    }
    // Other terms are another certificate, whatever the coefficients.
    assertThat(
            c.sameAs(
                new CdfCertificates.Certificate(new int[] {1, 2}, new double[] {0.5, -0.25}, 0.75),
                tolerance))
        .isFalse();
  }

  /** c with its coefficients and constant moved by these amounts. */
  private static CdfCertificates.Certificate certificate(
      CdfCertificates.Certificate c, double first, double second, double constant) {
    return new CdfCertificates.Certificate(
        c.tails(),
        new double[] {c.coefficients()[0] + first, c.coefficients()[1] + second},
        c.constant() + constant);
  }

  /**
   * OGPM at eps 4 on [0, 1] with 50 bins, inputs normal(0.5, 0.05) at n = 10,000 with exact
   * expected statistics and Chernoff bounds: at every edge the family is at or above the full
   * program on the whole grid (weak duality: each member is a feasible dual of it), and at most
   * 0.02 above it.
   */
  @Test
  @Tag("slow") // 1,800 construction programs and 102 on the full grid: run by surefire only
  void theFamilyIsCloseToTheFullProgram() {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder()
                .type(MechanismType.parse("ogpm"))
                .epsilon(4)
                .domain(Domain.classical(0, 1))
                .build());
    int bins = 50;
    BinnedKernel kernel = new BinnedKernel(m, FieldBinning.of(m, bins));
    int perBin = 82;
    int cells = bins * perBin;
    double[][] tails = new double[cells + 1][];
    for (int g = 0; g <= cells; g++) {
      tails[g] = kernel.upperTails(g == cells ? 1.0 : (double) g / cells);
    }
    // Two thresholds per bin, as the cumulative band has them.
    int[] edges = new int[2 * bins + 1];
    for (int j = 0; j <= 2 * bins; j++) {
      edges[j] = j * perBin / 2;
    }
    CdfCertificates certificates = CdfCertificates.build(tails, edges);
    double[] weights = new double[cells + 1];
    double total = 0;
    for (int g = 0; g <= cells; g++) {
      double z = ((double) g / cells - 0.5) / 0.05;
      weights[g] = Math.exp(-0.5 * z * z);
      total += weights[g];
    }
    int outputs = tails[0].length - 1;
    long n = 10_000;
    double level = Math.log(2 * (outputs - 1) / 0.05);
    double[] lower = new double[outputs + 1];
    double[] upper = new double[outputs + 1];
    double[] q = new double[outputs + 1];
    for (int o = 1; o < outputs; o++) {
      for (int g = 0; g <= cells; g++) {
        q[o] += weights[g] / total * tails[g][o];
      }
      long k = Math.round(q[o] * n);
      lower[o] = ChernoffBounds.lower(k, n, level);
      upper[o] = ChernoffBounds.upper(k, n, level);
    }
    FullProgram full = new FullProgram(tails, q, lower, upper);
    for (int j = 0; j < edges.length; j++) {
      // The share above t: inputs just above t act as at t, so the full program counts t in.
      double[] best = {full.most(edges[j], 0), edges[j] == cells ? 0 : full.most(edges[j], 1)};
      double[] family = {
        certificates.upper(j, lower, upper), certificates.upperOfComplement(j, lower, upper)
      };
      for (int side = 0; side < 2; side++) {
        assertThat(family[side])
            .as("edge %s side %s", j, side)
            .isGreaterThanOrEqualTo(best[side] - 1e-7)
            .isLessThanOrEqualTo(best[side] + 0.02);
      }
    }
  }

  /** The program {@code max share} over mixtures of every grid point, within the bounds. */
  private static final class FullProgram {
    private final double[][] a;
    private final double[] b;
    private final int points;

    FullProgram(double[][] tails, double[] q, double[] lower, double[] upper) {
      int outputs = tails[0].length - 1;
      this.points = tails.length;
      // The data's own mixture is the last column: a feasible start.
      this.a = new double[2 * (outputs - 1)][points + 1];
      this.b = new double[2 * (outputs - 1)];
      for (int o = 1; o < outputs; o++) {
        for (int g = 0; g < points; g++) {
          a[o - 1][g] = tails[g][o];
          a[outputs - 2 + o][g] = -tails[g][o];
        }
        a[o - 1][points] = q[o];
        a[outputs - 2 + o][points] = -q[o];
        b[o - 1] = upper[o];
        b[outputs - 2 + o] = -lower[o];
      }
    }

    /** The most share at or below t (side 0) or at or above it (side 1). */
    double most(int t, int side) {
      double[] objective = new double[points + 1];
      for (int g = 0; g < points; g++) {
        objective[g] = (side == 0 ? g <= t : g >= t) ? 1 : 0;
      }
      // The data column's objective may be anything at or below its mixture's: 0.
      LinearProgram.Solution s = LinearProgram.maximize(objective, a, b);
      assertThat(s.status()).isEqualTo(LinearProgram.Status.OPTIMAL);
      return s.value();
    }
  }
}
