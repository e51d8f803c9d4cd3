package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;

/** A chi-square goodness-of-fit check for samplers' draws against an exact probability mass function. */
public final class ChiSquare {
  private ChiSquare() {}

  /**
   * Chi-square at p = 0.001 (the 0.999 quantile of chi-square with the degrees of freedom left,
   * Wilson-Hilferty): a correct sampler fails it with probability 0.001. Cells with expected count
   * below 5 are pooled into one.
   */
  public static void assertFits(long[] counts, double[] pmf, String label) {
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
    if (pooledExpected > 0 || pooledCount > 0) {
      chi += (pooledCount - pooledExpected) * (pooledCount - pooledExpected) / Math.max(pooledExpected, 1e-300);
      df++;
    }
    assertThat(chi).as("%s chi-square with %s degrees of freedom", label, df).isLessThan(critical999(Math.max(df, 1)));
  }

  /** Wilson-Hilferty approximation of the 0.999 quantile of chi-square(df). */
  static double critical999(int df) {
    double z = 3.090232;
    double h = 2.0 / (9 * df);
    return df * Math.pow(1 - h + z * Math.sqrt(h), 3);
  }
}
