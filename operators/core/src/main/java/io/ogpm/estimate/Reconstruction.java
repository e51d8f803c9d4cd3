package io.ogpm.estimate;

import io.ogpm.annotation.Internal;
import java.util.Arrays;

/**
 * The input distribution behind a histogram of perturbed outputs: EMS, expectation-maximisation
 * over the mechanism's exact transition matrix with a smoothing step after every iteration (the
 * maximum-likelihood deconvolution of Li et al., "Estimating numerical distributions under local
 * differential privacy", SIGMOD 2020, with the EMS smoothing of Silverman et al., JRSS B 1990),
 * stopped by the discrepancy principle.
 *
 * <p>Why smooth and stop: EM run to convergence fits the sampling noise of the counts. At high eps
 * the transition matrix is close to the identity, the noise passes straight through and the
 * converged estimate is worse than the raw histogram; at low eps it breaks into spikes. The
 * smoothing step ({@link #smooth}: {@code theta_i} becomes {@code (1 - w) theta_i + w/2
 * (theta_{i-1} + theta_{i+1})} with w = {@value #SMOOTHING}, wrapping on the circle, reflecting at
 * the ends of an interval, so mass is kept) damps the spikes; the stop keeps the noise out at high
 * eps.
 *
 * <p>The stop: EMS starts from the uniform distribution and stops at the first iterate whose fitted
 * output histogram {@code n T theta} is as close to the observed counts as the truth's typically
 * is, measured by the deviance {@code D = 2 sum c_j ln(c_j / (n pi_j))}, or when it settles. The
 * deviance at the truth is not chi-square with (bins - 1) degrees of freedom: every record has its
 * own output distribution, and the count in output bin j has the Poisson-binomial variance {@code
 * sum_r p_rj (1 - p_rj)}, less than the multinomial {@code n pi_j (1 - pi_j)}. So the mean of
 * Pearson's statistic {@code sum_j (c_j - n pi_j)^2 / (n pi_j)}, the deviance's second-order term,
 * is {@code E = sum_j (1 - sum_i theta_i S_ji / pi_j)} with {@code S_ji} the mean of {@code
 * p_j(x)^2} over input bin i ({@link TransitionMatrix#meanSquare}); at eps = 8 it is about half the
 * degrees of freedom. Its standard deviation is about {@code sqrt(2 E)}. The target is {@code E -
 * }{@value #TARGET_SDS}{@code sqrt(2 E)}, evaluated at the current iterate ({@link #target}). With
 * small expected counts the deviance runs a little above Pearson's statistic; the target is not
 * corrected for it.
 *
 * <p>When the smoothed iteration settles with a deviance far above what the truth would give (more
 * than {@value #MISFIT_SDS} standard deviations: many records and sharp features, where smoothing
 * is bias rather than noise control), it halves the weight and goes on, down to no smoothing;
 * halving rather than dropping it at once, which overfits the rare window of a few thousand records
 * that trips this check.
 *
 * <p>The weight and the target keep the estimate's error at most the raw histogram's at every eps
 * from 1 to 8 on the sample's linear and circular fields; {@code reproduce} reports both, with the
 * best error over every EM and EMS iterate chosen knowing the truth, the ceiling for any rule of
 * this kind.
 *
 * <p>The start is the uniform distribution, not one fitted to the window's data: such a start
 * already fits the counts' noise, so at high eps the stop would come at once, with the noise in,
 * and it saves no steps, the slow components being those the matrix hardly sees, which the data
 * does not pin down either. The run itself, SQUAREM's acceleration and the settling rule, is {@link
 * SquaremFit}'s ({@link Schedule#DEFAULT}).
 *
 * <p>An emission is a function of its counts alone: the start, the schedule and every tolerance
 * depend on nothing else, so a late update equals recomputing from all the window's records.
 */
@Internal
public final class Reconstruction {
  /**
   * Most EMS steps: bounds the cost of an emission whatever the number of records (a step is three
   * matrix products: O(bins x output bins) dense, O(runs) over a piecewise mechanism's runs of
   * equal entries, {@link TransitionMatrix}). {@link SquaremFit} stops windows of up to millions of
   * records by the rule well within it; beyond, the cap can bind (ten million records at eps 1),
   * and the result is then within a stated distance of plain EMS's ({@code ReconstructionCapTest}).
   */
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
  public record Result(
      double[] frequencies, int iterations, double deviance, double targetDeviance) {}

  /**
   * How a reconstruction runs to its stop (the stop itself, the target deviance and the misfit
   * check, is the same for all).
   *
   * @param maxIterations most EMS steps
   * @param accelerateAfter plain EMS steps before SQUAREM starts
   * @param firstStepLimit SQUAREM's largest step length in its first cycle, {@value
   *     SquaremFit#STEP_LIMIT_GROWTH} times more each time it binds (infinite: no limit)
   * @param stepPastTarget whether a jump pulled back to the target's crossing ends with an EMS step
   *     from the last point before the target, as plain EMS does
   * @param settleChange settled when the deviance changes by less than this fraction of itself in
   *     one step (0: never by this rule)
   * @param settleFraction settled when a SQUAREM cycle estimates the fixed point to be within this
   *     times {@code sqrt(k / n)} (L1) of its second step (0: never by this rule)
   */
  record Schedule(
      int maxIterations,
      int accelerateAfter,
      double firstStepLimit,
      boolean stepPastTarget,
      double settleChange,
      double settleFraction) {
    /** The shipped schedule ({@link SquaremFit} says why). */
    static final Schedule DEFAULT =
        new Schedule(
            MAX_ITERATIONS, 0, SquaremFit.FIRST_STEP_LIMIT, true, 0, SquaremFit.SETTLE_FRACTION);

    /**
     * A reference schedule for tests and {@link FieldEstimator#estimateWithoutTailsOrBand}: 100
     * plain steps, then SQUAREM without a step limit, a jump past the target ending at the
     * crossing, settled when the deviance changes by less than 1e-9 of itself in a step.
     */
    static final Schedule PLAIN_FIRST =
        new Schedule(MAX_ITERATIONS, 100, Double.POSITIVE_INFINITY, false, 1e-9, 0);

    /**
     * Plain EMS, settled as {@link #PLAIN_FIRST} settles, at most {@link #MAX_ITERATIONS} steps.
     */
    static final Schedule PLAIN = PLAIN_FIRST.accelerateAfter(Integer.MAX_VALUE);

    Schedule maxIterations(int steps) {
      return new Schedule(
          steps, accelerateAfter, firstStepLimit, stepPastTarget, settleChange, settleFraction);
    }

    Schedule accelerateAfter(int steps) {
      return new Schedule(
          maxIterations, steps, firstStepLimit, stepPastTarget, settleChange, settleFraction);
    }
  }

  /** Reconstructs from output-bin counts. */
  public static Result em(long[] counts, TransitionMatrix t) {
    return em(counts, t, Schedule.DEFAULT);
  }

  /** Reconstructs from output-bin counts, with at most {@code maxIterations} iterations. */
  static Result em(long[] counts, TransitionMatrix t, int maxIterations) {
    return em(counts, t, Schedule.DEFAULT.maxIterations(maxIterations));
  }

  /** Reconstructs from output-bin counts, run as the schedule says. */
  static Result em(long[] counts, TransitionMatrix t, Schedule schedule) {
    int k = t.columns();
    int m = t.rows();
    if (counts.length != m) {
      throw new IllegalArgumentException("expected " + m + " output bins, got " + counts.length);
    }
    long n = 0;
    for (long c : counts) {
      n += c;
    }
    if (n == 0) {
      double[] uniform = new double[k];
      Arrays.fill(uniform, 1.0 / k);
      return new Result(uniform, 0, 0, 0);
    }
    return new SquaremFit(counts, n, t, schedule).run();
  }

  /**
   * The target deviance for an expected deviance E: {@value #TARGET_SDS} standard deviations,
   * {@code sqrt(2 E)}, below it.
   */
  static double target(double expected) {
    return expected - TARGET_SDS * Math.sqrt(2 * Math.max(expected, 0));
  }

  /**
   * The mean of Pearson's statistic of the counts at {@code pi = T theta} if theta were the truth,
   * with inputs spread evenly over each bin and every record's own output distribution: {@code
   * sum_j (1 - sum_i theta_i S_ji / pi_j)}, {@code S_ji} the mean square of {@code P(bin j | x)}
   * over input bin i.
   */
  static double expectedDeviance(TransitionMatrix t, double[] theta, double[] pi) {
    return expectedDeviance(t.applyMeanSquare(theta), pi);
  }

  /** The same from {@code square = S theta} ({@link TransitionMatrix#applyMeanSquare}). */
  static double expectedDeviance(double[] square, double[] pi) {
    double e = 0;
    for (int j = 0; j < pi.length; j++) {
      if (pi[j] <= 0) {
        continue;
      }
      e += 1 - square[j] / pi[j];
    }
    return e;
  }

  /**
   * One EM step from theta (Li et al., eq. for the E and M steps combined): {@code theta'_i =
   * theta_i sum_j T_ji c_j / (n pi_j)}, where {@code pi = T theta} and n is the sum of the counts.
   * It sums to {@code sum_j c_j / n = 1} whatever theta's own sum (the step is invariant to scaling
   * theta), so it needs no normalising and rounding does not build up over iterations.
   */
  public static double[] step(long[] counts, long n, TransitionMatrix t, double[] theta) {
    return step(counts, n, t, theta, t.apply(theta));
  }

  private static double[] step(
      long[] counts, long n, TransitionMatrix t, double[] theta, double[] pi) {
    double[] next = new double[t.columns()];
    step(counts, n, t, theta, pi, new double[counts.length], next, t.scratch());
    return next;
  }

  /**
   * The EM step into {@code next}, with the working arrays {@code ratio} (one per output bin) and
   * {@code scratch}.
   */
  static void step(
      long[] counts,
      long n,
      TransitionMatrix t,
      double[] theta,
      double[] pi,
      double[] ratio,
      double[] next,
      double[] scratch) {
    for (int j = 0; j < counts.length; j++) {
      ratio[j] = counts[j] > 0 && pi[j] > 0 ? counts[j] / (n * pi[j]) : 0;
    }
    t.applyTransposed(ratio, next, scratch);
    for (int i = 0; i < next.length; i++) {
      next[i] *= theta[i];
    }
  }

  /**
   * The smoothing step of EMS: {@code (1 - w) theta_i + w/2 (theta_{i-1} + theta_{i+1})},
   * neighbours wrapping on the circle and reflecting at the ends of an interval, which keeps the
   * total mass.
   */
  public static double[] smooth(double[] theta, double w, boolean circular) {
    if (!(w >= 0 && w <= 1)) {
      throw new IllegalArgumentException("smoothing weight must be in [0, 1], got " + w);
    }
    double[] out = new double[theta.length];
    smooth(theta, w, circular, out);
    return out;
  }

  /** The smoothing step into {@code out} (not {@code theta} itself). */
  static void smooth(double[] theta, double w, boolean circular, double[] out) {
    int k = theta.length;
    double keep = 1 - w;
    double half = 0.5 * w;
    for (int i = 1; i < k - 1; i++) {
      out[i] = keep * theta[i] + half * (theta[i - 1] + theta[i + 1]);
    }
    // The ends: their outer neighbour wraps around the circle or is the end bin itself.
    if (k > 0) {
      out[0] = keep * theta[0] + half * (theta[circular ? k - 1 : 0] + theta[Math.min(1, k - 1)]);
      out[k - 1] =
          keep * theta[k - 1] + half * (theta[Math.max(k - 2, 0)] + theta[circular ? 0 : k - 1]);
    }
  }

  /**
   * The deviance {@code 2 sum_j c_j ln(c_j / (n pi_j))} of the observed counts under pi. Its
   * logarithms are {@link NaturalLog}'s, which the compiler inlines into this loop: the deviance is
   * computed at every EMS step.
   */
  static double deviance(long[] counts, long n, double[] pi) {
    double d = 0;
    for (int j = 0; j < counts.length; j++) {
      if (counts[j] > 0) {
        d += counts[j] * NaturalLog.of(counts[j] / (n * Math.max(pi[j], 1e-300)));
      }
    }
    return 2 * d;
  }
}
