package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.mechanism.random.AesCtrSource;
import org.junit.jupiter.api.Test;

/** The geometric sampler against its exact probability mass function. */
class GeometricTest {
  static final int N = 200_000;

  @Test
  void truncatedGeometricFollowsItsPmf() {
    AesCtrSource bits = AesCtrSource.seeded(1);
    for (double lambda : new double[] {0.05, 0.5, 3}) {
      long max = 40;
      long[] counts = new long[(int) max + 1];
      for (int i = 0; i < N; i++) {
        long m = Geometric.sample(bits, lambda, max);
        assertThat(m).isBetween(0L, max);
        counts[(int) m]++;
      }
      double[] pmf = new double[counts.length];
      double total = 0;
      for (int m = 0; m <= max; m++) {
        pmf[m] = Math.exp(-lambda * m);
        total += pmf[m];
      }
      for (int m = 0; m <= max; m++) {
        pmf[m] /= total;
      }
      assertChiSquare(counts, pmf, "lambda=" + lambda);
    }
  }

  @Test
  void untruncatedGeometricReachesItsTail() {
    AesCtrSource bits = AesCtrSource.seeded(2);
    double lambda = 1e-9;
    double sum = 0;
    for (int i = 0; i < 20_000; i++) {
      sum += Geometric.sample(bits, lambda, Long.MAX_VALUE - 1);
    }
    // Mean of P(m) ∝ e^(-lambda m) is 1/(e^lambda - 1) ~ 1e9; sd ~ 1e9, so 4 sigma / sqrt(n) is ~3 %.
    double mean = sum / 20_000;
    assertThat(mean / (1 / Math.expm1(lambda))).isBetween(0.97, 1.03);
  }

  @Test
  void twoSidedGeometricFollowsItsPmf() {
    AesCtrSource bits = AesCtrSource.seeded(3);
    double lambda = 0.3;
    long neg = 7;
    long pos = 12;
    long[] counts = new long[(int) (neg + pos + 1)];
    for (int i = 0; i < N; i++) {
      long k = Geometric.twoSided(bits, lambda, neg, pos);
      assertThat(k).isBetween(-neg, pos);
      counts[(int) (k + neg)]++;
    }
    double[] pmf = new double[counts.length];
    double total = 0;
    for (int k = (int) -neg; k <= pos; k++) {
      pmf[(int) (k + neg)] = Math.exp(-lambda * Math.abs(k));
      total += pmf[(int) (k + neg)];
    }
    for (int i = 0; i < pmf.length; i++) {
      pmf[i] /= total;
    }
    assertChiSquare(counts, pmf, "two-sided");
    // One side empty.
    for (int i = 0; i < 1000; i++) {
      assertThat(Geometric.twoSided(bits, lambda, 0, 5)).isBetween(0L, 5L);
      assertThat(Geometric.twoSided(bits, lambda, 5, -1)).isBetween(-5L, -1L);
    }
  }

  /** Chi-square at p = 0.001 against a pmf; cells with expected count below 5 are pooled. */
  static void assertChiSquare(long[] counts, double[] pmf, String label) {
    long n = 0;
    for (long c : counts) {
      n += c;
    }
    double chi = 0;
    int df = -1;
    double pooledExpected = 0;
    long pooledCount = 0;
    for (int i = 0; i < counts.length; i++) {
      double expected = n * pmf[i];
      if (expected < 5) {
        pooledExpected += expected;
        pooledCount += counts[i];
        continue;
      }
      chi += (counts[i] - expected) * (counts[i] - expected) / expected;
      df++;
    }
    if (pooledExpected > 0) {
      chi += (pooledCount - pooledExpected) * (pooledCount - pooledExpected) / Math.max(pooledExpected, 1e-300);
      df++;
    }
    assertThat(chi).as("%s chi-square with %s degrees of freedom", label, df).isLessThan(chiSquareCritical999(df));
  }

  /** Wilson-Hilferty approximation of the 0.999 quantile of chi-square(df). */
  static double chiSquareCritical999(int df) {
    double z = 3.090232;
    double h = 2.0 / (9 * df);
    return df * Math.pow(1 - h + z * Math.sqrt(h), 3);
  }
}
