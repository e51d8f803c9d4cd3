package io.ogpm.estimate;

import java.util.Arrays;

/**
 * The input distribution behind a histogram of perturbed outputs: EMS, expectation-maximisation
 * over the mechanism's exact transition matrix with a smoothing step after every iteration (the
 * maximum-likelihood deconvolution of Li et al., "Estimating numerical distributions under local
 * differential privacy", SIGMOD 2020, with the EMS smoothing of Silverman et al., JRSS B 1990),
 * stopped by the discrepancy principle.
 *
 * <p>EM run to convergence fits the sampling noise of the counts: at high eps the transition matrix
 * is close to the identity, the noise passes straight through and the converged estimate is worse
 * than the raw histogram; at low eps it breaks into spikes. The smoothing step, which replaces
 * {@code theta_i} by {@code (1 - w) theta_i + w/2 (theta_{i-1} + theta_{i+1})} with w =
 * {@value #SMOOTHING} (wrapping on the circle, reflecting at the ends of an interval, so mass is
 * kept), damps the spikes; the stop keeps the noise out at high eps.
 *
 * <p>The stop: EMS starts from the uniform distribution and stops at the first iterate whose
 * fitted output histogram {@code n T theta} is as close to the observed counts as the truth's
 * typically is, measured by the deviance {@code D = 2 sum c_j ln(c_j / (n pi_j))}, or when it
 * settles. The deviance at the truth is not chi-square with (bins - 1) degrees of freedom: every
 * record has its own output distribution, and the count in output bin j has the Poisson-binomial
 * variance {@code sum_r p_rj (1 - p_rj)}, less than the multinomial {@code n pi_j (1 - pi_j)}. So
 * the mean of Pearson's statistic {@code sum_j (c_j - n pi_j)^2 / (n pi_j)}, the deviance's
 * second-order term, is {@code E = sum_j (1 - sum_i theta_i S_ji / pi_j)} with {@code S_ji} the mean
 * of {@code p_j(x)^2} over input bin i ({@link TransitionMatrix#meanSquare}); at eps = 8 it is about
 * half the degrees of freedom. Its standard deviation is about {@code sqrt(2 E)}. The target is
 * {@code E - }{@value #TARGET_SDS}{@code sqrt(2 E)}, evaluated at the current iterate. (With small
 * expected counts the deviance runs a little above Pearson's statistic; the target, chosen
 * empirically below, leaves that alone.)
 *
 * <p>When the smoothed iteration settles with a deviance far above what the truth would give (more
 * than {@value #MISFIT_SDS} standard deviations: many records and sharp features, where smoothing
 * is bias rather than noise control), it halves the weight and goes on, down to no smoothing.
 * (Dropping the smoothing at once instead overfits the rare run of a few thousand records that
 * trips this check.)
 *
 * <p>The weight and the target were chosen on MotionSense (w among 0.02, 0.05, 0.07 and 0.1; the
 * target among -1.5, -1, -0.75, -0.5, 0 and 0.67 standard deviations around E, and the 0.5, 0.75
 * and 0.9 quantiles of chi-square). The linear field liked more smoothing, the circular field (sharp
 * edges) less, and both a target below E; with these the error was never worse than the raw
 * histogram's at any eps from 1 to 8, on either field. {@code reproduce} also reports the best
 * error over every EM and EMS iterate chosen knowing the truth, the ceiling for any rule of this
 * kind.
 */
public final class Reconstruction {
  /** Most iterations. */
  static final int MAX_ITERATIONS = 10_000;
  /** The target deviance is this many standard deviations below its expectation at the truth. */
  static final double TARGET_SDS = 1;
  /** A settled smoothed fit this many standard deviations above the expectation is a misfit. */
  static final double MISFIT_SDS = 3;
  /** Weight w of the smoothing step. */
  static final double SMOOTHING = 0.1;
  /** Below this weight a misfit turns the smoothing off instead of halving it. */
  static final double MIN_SMOOTHING = 1e-3;

  private Reconstruction() {}

  /**
   * The result: a distribution over the input bins, and how it was reached (the deviance at the
   * stop, and the target at the stop).
   */
  public record Result(double[] frequencies, int iterations, double deviance, double targetDeviance) {}

  /** Reconstructs from output-bin counts. */
  public static Result em(long[] counts, TransitionMatrix t) {
    int k = t.columns();
    int m = t.rows();
    if (counts.length != m) {
      throw new IllegalArgumentException("expected " + m + " output bins, got " + counts.length);
    }
    long n = 0;
    for (long c : counts) {
      n += c;
    }
    double[] theta = new double[k];
    Arrays.fill(theta, 1.0 / k);
    if (n == 0) {
      return new Result(theta, 0, 0, 0);
    }
    double[] pi = t.apply(theta);
    double deviance = deviance(counts, n, pi);
    double expected = expectedDeviance(t, theta, pi);
    int iteration = 0;
    double smoothing = SMOOTHING;
    while (iteration < MAX_ITERATIONS && deviance > target(expected)) {
      double[] next = smooth(step(counts, n, t, theta, pi), smoothing, t.circular());
      double[] nextPi = t.apply(next);
      double nextDeviance = deviance(counts, n, nextPi);
      iteration++;
      boolean settled = Math.abs(deviance - nextDeviance) < 1e-9 * Math.max(1, nextDeviance);
      theta = next;
      pi = nextPi;
      deviance = nextDeviance;
      expected = expectedDeviance(t, theta, pi);
      if (settled) {
        if (smoothing > 0 && deviance > expected + MISFIT_SDS * Math.sqrt(2 * expected)) {
          smoothing = smoothing < MIN_SMOOTHING ? 0 : smoothing / 2;
        } else {
          break;
        }
      }
    }
    return new Result(theta, iteration, deviance, target(expected));
  }

  private static double target(double expected) {
    return expected - TARGET_SDS * Math.sqrt(2 * Math.max(expected, 0));
  }

  /**
   * The mean of Pearson's statistic of the counts at {@code pi = T theta} if theta were the truth,
   * with inputs spread evenly over each bin and every record's own output distribution: {@code
   * sum_j (1 - sum_i theta_i S_ji / pi_j)}, {@code S_ji} the mean square of {@code P(bin j | x)}
   * over input bin i.
   */
  static double expectedDeviance(TransitionMatrix t, double[] theta, double[] pi) {
    double e = 0;
    for (int j = 0; j < pi.length; j++) {
      if (pi[j] <= 0) {
        continue;
      }
      double square = 0;
      for (int i = 0; i < theta.length; i++) {
        square += theta[i] * t.meanSquare(j, i);
      }
      e += 1 - square / pi[j];
    }
    return e;
  }

  /**
   * One EM step from theta (Li et al., eq. for the E and M steps combined): {@code theta'_i = theta_i
   * sum_j T_ji c_j / (n pi_j)}, where {@code pi = T theta} and n is the sum of the counts. It sums to
   * {@code sum_j c_j / n = 1} whatever theta's own sum (the step is invariant to scaling theta), so
   * it needs no normalising and rounding does not build up over iterations.
   */
  public static double[] step(long[] counts, long n, TransitionMatrix t, double[] theta) {
    return step(counts, n, t, theta, t.apply(theta));
  }

  private static double[] step(long[] counts, long n, TransitionMatrix t, double[] theta, double[] pi) {
    int k = t.columns();
    double[] next = new double[k];
    for (int j = 0; j < counts.length; j++) {
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
    return next;
  }

  /**
   * The smoothing step of EMS: {@code (1 - w) theta_i + w/2 (theta_{i-1} + theta_{i+1})}, neighbours
   * wrapping on the circle and reflecting at the ends of an interval, which keeps the total mass.
   */
  public static double[] smooth(double[] theta, double w, boolean circular) {
    if (!(w >= 0 && w <= 1)) {
      throw new IllegalArgumentException("smoothing weight must be in [0, 1], got " + w);
    }
    int k = theta.length;
    double[] out = new double[k];
    for (int i = 0; i < k; i++) {
      int left = circular ? Math.floorMod(i - 1, k) : Math.max(i - 1, 0);
      int right = circular ? Math.floorMod(i + 1, k) : Math.min(i + 1, k - 1);
      out[i] = (1 - w) * theta[i] + 0.5 * w * (theta[left] + theta[right]);
    }
    return out;
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
}
