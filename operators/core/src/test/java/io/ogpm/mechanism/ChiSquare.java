package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A chi-square goodness-of-fit check for samplers' draws against an exact probability mass
 * function.
 */
public final class ChiSquare {
  private ChiSquare() {}

  /**
   * Chi-square at p = 1e-5 (the 1 - 1e-5 quantile of chi-square with the degrees of freedom left,
   * Wilson-Hilferty): a correct sampler fails one check with probability 1e-5, so a test class of
   * up to 100 checks fails by chance with probability below 1e-3 (Bonferroni). Cells with expected
   * count below 5 are pooled into one.
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
      chi +=
          (pooledCount - pooledExpected)
              * (pooledCount - pooledExpected)
              / Math.max(pooledExpected, 1e-300);
      df++;
    }
    assertThat(chi)
        .as("%s chi-square with %s degrees of freedom", label, df)
        .isLessThan(critical(Math.max(df, 1)));
  }

  /** Wilson-Hilferty approximation of the 1 - 1e-5 quantile of chi-square(df). */
  static double critical(int df) {
    double z = 4.264891; // the standard normal's 1 - 1e-5 quantile
    double h = 2.0 / (9 * df);
    return df * Math.pow(1 - h + z * Math.sqrt(h), 3);
  }
}
