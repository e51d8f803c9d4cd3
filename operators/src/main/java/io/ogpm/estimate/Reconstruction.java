package io.ogpm.estimate;

import java.util.Arrays;

/**
 * The input distribution behind a histogram of perturbed outputs: expectation-maximisation over the
 * mechanism's exact transition matrix (the maximum-likelihood deconvolution of Li et al.,
 * "Estimating numerical distributions under local differential privacy", SIGMOD 2020), stopped by
 * the discrepancy principle.
 *
 * <p>EM run to convergence fits the sampling noise of the counts: at high eps the transition matrix
 * is close to the identity, the noise passes straight through and the converged estimate is worse
 * than the raw histogram; at low eps it breaks into spikes. So EM starts from the uniform
 * distribution and stops at the first iterate whose fitted output histogram {@code n T theta}
 * explains the observed counts as well as the truth would: its deviance {@code 2 sum c_j ln(c_j /
 * (n pi_j))} is at most the {@value #TARGET_QUANTILE} quantile of chi-square with (occupied bins
 * - 1) degrees of freedom, the deviance's distribution at the true input distribution. (We measured
 * the quantiles 0.5, 0.75 and 0.9 on MotionSense; 0.75 was best, and no choice was worse than the
 * raw histogram at any eps from 1 to 8. Smoothing steps, as in Li et al.'s EMS, blurred the result
 * at high eps without helping at low eps, so there are none.)
 */
public final class Reconstruction {
  /** Most EM iterations. */
  static final int MAX_ITERATIONS = 10_000;
  /** Quantile of chi-square(occupied - 1) that the deviance must reach. */
  static final double TARGET_QUANTILE = 0.75;

  private Reconstruction() {}

  /** The result: a distribution over the input bins, and how it was reached. */
  public record Result(double[] frequencies, int iterations, double deviance, double targetDeviance) {}

  /** Reconstructs from output-bin counts. */
  public static Result em(long[] counts, TransitionMatrix t) {
    int k = t.columns();
    int m = t.rows();
    if (counts.length != m) {
      throw new IllegalArgumentException("expected " + m + " output bins, got " + counts.length);
    }
    long n = 0;
    int occupied = 0;
    for (long c : counts) {
      n += c;
      if (c > 0) {
        occupied++;
      }
    }
    double[] theta = new double[k];
    Arrays.fill(theta, 1.0 / k);
    if (n == 0) {
      return new Result(theta, 0, 0, 0);
    }
    double target = chiSquareQuantile(Math.max(occupied - 1, 1), TARGET_QUANTILE);
    double[] pi = t.apply(theta);
    double deviance = deviance(counts, n, pi);
    int iteration = 0;
    while (iteration < MAX_ITERATIONS && deviance > target) {
      double[] next = new double[k];
      for (int j = 0; j < m; j++) {
        if (counts[j] == 0 || pi[j] <= 0) {
          continue;
        }
        double w = counts[j] / (n * pi[j]);
        for (int i = 0; i < k; i++) {
          next[i] += t.get(j, i) * w;
        }
      }
      for (int i = 0; i < k; i++) {
        next[i] *= theta[i];
      }
      normalise(next);
      double[] nextPi = t.apply(next);
      double nextDeviance = deviance(counts, n, nextPi);
      iteration++;
      boolean stalled = deviance - nextDeviance < 1e-9 * Math.max(1, nextDeviance);
      theta = next;
      pi = nextPi;
      deviance = nextDeviance;
      if (stalled) {
        break;
      }
    }
    return new Result(theta, iteration, deviance, target);
  }

  /** The deviance {@code 2 sum_j c_j ln(c_j / (n pi_j))} of the observed counts under pi. */
  static double deviance(long[] counts, long n, double[] pi) {
    double d = 0;
    for (int j = 0; j < counts.length; j++) {
      if (counts[j] > 0) {
        d += counts[j] * Math.log(counts[j] / (n * Math.max(pi[j], 1e-300)));
      }
    }
    return 2 * d;
  }

  /** Wilson-Hilferty approximation of the p-quantile of chi-square(df); within 1 % for df >= 3. */
  static double chiSquareQuantile(int df, double p) {
    double z = NormalQuantile.of(p);
    double h = 2.0 / (9 * df);
    return df * Math.pow(1 - h + z * Math.sqrt(h), 3);
  }

  static void normalise(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    if (s > 0) {
      for (int i = 0; i < v.length; i++) {
        v[i] /= s;
      }
    }
  }
}
