package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The simplex over mixtures: known programs, and random small ones (degenerate among them) against
 * the best vertex found by enumeration, with its dual's feasibility and value.
 */
class LinearProgramTest {
  @Test
  void aMeanBoundCapsTheMassAtTheTop() {
    // Inputs 0, 1/2, 1 with mean at most 0.4: the most mass at 1 is 0.4 (the rest at 0).
    LinearProgram.Solution s =
        LinearProgram.maximize(
            new double[] {0, 0, 1}, new double[][] {{0, 0.5, 1}}, new double[] {0.4});
    assertThat(s.status()).isEqualTo(LinearProgram.Status.OPTIMAL);
    assertThat(s.value()).isCloseTo(0.4, within(1e-12));
    assertThat(s.primal()).containsExactly(new double[] {0.6, 0, 0.4}, within(1e-12));
    // Dual: 1 * mean + 0 covers the indicator of {1}: y = 1, nu = 0.
    assertThat(s.rowDuals()[0]).isCloseTo(1, within(1e-12));
    assertThat(s.nu()).isCloseTo(0, within(1e-12));
  }

  @Test
  void aLowerBoundNeedsPhaseOne() {
    // Mean at least 0.7 (-mean <= -0.7), most mass at 0: 0.3, with the rest at 1.
    LinearProgram.Solution s =
        LinearProgram.maximize(
            new double[] {1, 0, 0}, new double[][] {{0, -0.5, -1}}, new double[] {-0.7});
    assertThat(s.status()).isEqualTo(LinearProgram.Status.OPTIMAL);
    assertThat(s.value()).isCloseTo(0.3, within(1e-12));
    assertThat(s.dualValue(new double[] {-0.7})).isCloseTo(0.3, within(1e-12));
  }

  @Test
  void anEmptyProgramIsInfeasible() {
    LinearProgram.Solution s =
        LinearProgram.maximize(
            new double[] {1, 0}, new double[][] {{0, 1}, {0, -1}}, new double[] {-0.1, 0.5});
    assertThat(s.status()).isEqualTo(LinearProgram.Status.INFEASIBLE);
    assertThat(s.primal()).isNull();
  }

  @Test
  void randomProgramsMatchTheBestVertexAndTheirDualsAgree() {
    Random random = new Random(7);
    int solved = 0;
    for (int trial = 0; trial < 400; trial++) {
      boolean degenerate = trial % 2 == 1;
      int n = 2 + random.nextInt(5);
      int m = 1 + random.nextInt(4);
      double[][] a = new double[m][n];
      double[] b = new double[m];
      double[] c = new double[n];
      for (int j = 0; j < n; j++) {
        c[j] = degenerate ? random.nextInt(3) : random.nextGaussian();
      }
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
          a[i][j] = degenerate ? random.nextInt(3) - 1 : random.nextGaussian();
        }
        // Degenerate: right sides met with equality at a vertex (a column), or repeated rows.
        b[i] = degenerate ? a[i][random.nextInt(n)] : random.nextGaussian();
        if (degenerate && i > 0 && random.nextBoolean()) {
          a[i] = a[i - 1].clone();
          b[i] = b[i - 1];
        }
      }
      double best = VertexEnumeration.best(c, a, b);
      LinearProgram.Solution s = LinearProgram.maximize(c, a, b);
      if (Double.isNaN(best)) {
        assertThat(s.status()).as("trial %s", trial).isEqualTo(LinearProgram.Status.INFEASIBLE);
        continue;
      }
      solved++;
      assertThat(s.status()).as("trial %s", trial).isEqualTo(LinearProgram.Status.OPTIMAL);
      assertThat(s.value()).as("trial %s", trial).isCloseTo(best, within(1e-9));
      assertFeasible(s.primal(), a, b);
      // Dual feasible (A^T y + nu >= c, y >= 0) and of the same value: weak duality is tight.
      for (int j = 0; j < n; j++) {
        double cover = s.nu();
        for (int i = 0; i < m; i++) {
          cover += s.rowDuals()[i] * a[i][j];
        }
        assertThat(cover).as("trial %s column %s", trial, j).isGreaterThan(c[j] - 1e-9);
      }
      assertThat(java.util.Arrays.stream(s.rowDuals()).min().orElse(0)).isGreaterThanOrEqualTo(0);
      assertThat(s.dualValue(b)).as("trial %s", trial).isCloseTo(best, within(1e-9));
    }
    assertThat(solved).isGreaterThan(100);
  }

  @Test
  void aLargeProgramOfMixturesSolvesToItsDual() {
    // The sizes of CdfDesigns: 98 rows, 400 columns of monotone tails, a feasible mixture.
    Random random = new Random(3);
    int m = 49;
    int n = 400;
    double[][] a = new double[2 * m][n];
    double[] b = new double[2 * m];
    for (int o = 0; o < m; o++) {
      double centre = (o + 0.5) / m;
      double mean = 0;
      for (int j = 0; j < n; j++) {
        double x = (double) j / (n - 1);
        double t = 1 / (1 + Math.exp(-(x - centre) * 30));
        a[o][j] = t;
        a[m + o][j] = -t;
        mean += t / n;
      }
      b[o] = mean + 0.02 * random.nextDouble();
      b[m + o] = -(mean - 0.02 * random.nextDouble());
    }
    double[] c = new double[n];
    java.util.Arrays.fill(c, 0, n / 3, 1);
    LinearProgram.Solution s = LinearProgram.maximize(c, a, b);
    assertThat(s.status()).isEqualTo(LinearProgram.Status.OPTIMAL);
    assertFeasible(s.primal(), a, b);
    assertThat(s.dualValue(b)).isCloseTo(s.value(), within(1e-9));
  }

  private static void assertFeasible(double[] w, double[][] a, double[] b) {
    double sum = 0;
    for (double v : w) {
      assertThat(v).isGreaterThanOrEqualTo(0);
      sum += v;
    }
    assertThat(sum).isCloseTo(1, within(1e-9));
    for (int i = 0; i < b.length; i++) {
      double lhs = 0;
      for (int j = 0; j < w.length; j++) {
        lhs += a[i][j] * w[j];
      }
      assertThat(lhs).isLessThanOrEqualTo(b[i] + 1e-9);
    }
  }
}
