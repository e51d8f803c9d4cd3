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
@Internal
public final class Reconstruction {
  /**
   * Most EMS steps: bounds the cost of an emission whatever the number of records (a step is
   * three matrix products: O(bins x output bins) dense, O(runs) over a piecewise mechanism's runs
   * of equal entries, {@link TransitionMatrix}). Plain EMS is slow (at eps 1, 50 bins: 1,600 steps
   * for 1e3 records, 4,000 for 1e4, 50,000 for 1e6, 1.6 million for 1e7), so after {@link
   * #ACCELERATE_AFTER} steps it is accelerated by SQUAREM, which stops 1e3-record windows at eps 1
   * within about 170 steps and 1e6-record windows within about 1,100, within 1e-3 in total
   * variation of plain EMS; 1e6 records at eps 0.5 settle within about 4,300 steps, within 3e-3 of
   * plain EMS. The cap can bind beyond that (eps 1 and 1e7 records): there the result is within
   * 1.2e-2 of plain EMS's, whose own error is 0.04 (ReconstructionCapTest).
   *
   * <p>SQUAREM keeps or drops a jump by comparing deviances (or residuals), which near
   * convergence differ by about their rounding, so the accelerated path (and whether the cap
   * binds) depends on the last bits of the products: a change of one ulp in one entry of the
   * matrix moves some 1e6-record windows' stop by thousands of steps and their result by up to
   * about 1e-5 in total variation.
   * The plain phase does not: its steps differ only by their rounding.
   */
  static final int MAX_ITERATIONS = 10_000;
  /** Most halvings of an extrapolation's distance to a plain step, to keep every frequency >= 0. */
  static final int MAX_HALVINGS = 30;
  /** Halvings of the step length that find where an accelerated jump crosses the target. */
  static final int CROSSING_BISECTIONS = 8;
  /**
   * Plain EMS steps before the acceleration starts: a window that stops before (eps 4 and a few
   * hundred records, or higher eps) gets exactly plain EMS's result. Later windows get SQUAREM's,
   * whose error against the truth is plain EMS's to four decimals, 20 windows each of 1e3 to 3e4
   * records at eps 0.5, 1 and 4 on the interval and the circle, while it takes 3-30x fewer steps
   * ({@code ReconstructionCapTest}). Starting sooner does not pay: SQUAREM's first jumps from the
   * uniform start then overshoot (0.1 in total variation from plain EMS at eps 2, 300 records,
   * starting at once; 0.02 starting after 50 steps; at most 0.005 after 100).
   */
  static final int ACCELERATE_AFTER = 100;
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
    return em(counts, t, MAX_ITERATIONS);
  }

  /** Reconstructs from output-bin counts, with at most {@code maxIterations} iterations. */
  static Result em(long[] counts, TransitionMatrix t, int maxIterations) {
    return em(counts, t, maxIterations, ACCELERATE_AFTER);
  }

  /**
   * Reconstructs with at most {@code maxIterations} EMS steps, plain for the first {@code
   * accelerateAfter} of them, then accelerated.
   */
  static Result em(long[] counts, TransitionMatrix t, int maxIterations, int accelerateAfter) {
    int k = t.columns();
    int m = t.rows();
    if (counts.length != m) {
      throw new IllegalArgumentException("expected " + m + " output bins, got " + counts.length);
    }
    long n = 0;
    for (long c : counts) {
      n += c;
    }
    double[] uniform = new double[k];
    Arrays.fill(uniform, 1.0 / k);
    if (n == 0) {
      return new Result(uniform, 0, 0, 0);
    }
    Fit fit = new Fit(counts, n, t, uniform);
    while (!fit.done && fit.iterations < Math.min(maxIterations, accelerateAfter)) {
      fit.accept(fit.next(fit.theta));
    }
    while (!fit.done && fit.iterations + 4 + CROSSING_BISECTIONS <= maxIterations) {
      fit.squaremCycle();
    }
    while (!fit.done && fit.iterations < maxIterations) {
      fit.accept(fit.next(fit.theta));
    }
    return new Result(fit.theta, fit.iterations, fit.deviance, target(fit.expected));
  }

  /**
   * The state of one reconstruction: the current iterate, its fitted output distribution, deviance
   * and expected deviance, the steps taken, the smoothing weight, and whether it has stopped.
   */
  private static final class Fit {
    final long[] counts;
    final long n;
    final TransitionMatrix t;
    double[] theta;
    double[] pi;
    double deviance;
    double expected;
    double smoothing = SMOOTHING;
    int iterations;
    boolean done;

    /** The last vector {@link #piOf} or {@link #fitted} computed products for (arrays are never changed once made). */
    private double[] productsOf;
    private double[] productsPi;
    /** {@code S productsOf}, or null if only {@code T productsOf} was needed so far. */
    private double[] productsSquare;
    /**
     * The last fitted distribution {@link #devianceOf} was asked for, and its deviance: an
     * accelerated jump's is needed to keep or drop it, to test it against the target and when it
     * is accepted (the same array, so the same number, without its logarithms again).
     */
    private double[] devianceOfPi;
    private double devianceOfPiValue;

    Fit(long[] counts, long n, TransitionMatrix t, double[] theta) {
      this.counts = counts;
      this.n = n;
      this.t = t;
      this.theta = theta;
      double[][] f = fitted(theta);
      this.pi = f[0];
      this.deviance = deviance(counts, n, pi);
      this.expected = expectedDeviance(f[1], pi);
      this.done = deviance <= target(expected);
    }

    /**
     * {@code T x}, reused when x is the vector of the last products: an accelerated jump is
     * applied to decide whether to keep it, then again when it is kept. The same product of the
     * same vector, so the same numbers.
     */
    double[] piOf(double[] x) {
      if (x != productsOf) {
        productsOf = x;
        productsPi = t.apply(x);
        productsSquare = null;
      }
      return productsPi;
    }

    /** {@code T x} and {@code S x} (for the expected deviance), reused like {@link #piOf}. */
    double[][] fitted(double[] x) {
      if (x != productsOf) {
        double[][] both = t.applyWithMeanSquare(x);
        productsOf = x;
        productsPi = both[0];
        productsSquare = both[1];
      } else if (productsSquare == null) {
        productsSquare = t.applyMeanSquare(x);
      }
      return new double[][] {productsPi, productsSquare};
    }

    /** {@link Reconstruction#deviance} of {@code pi}, reused for the same array. */
    double devianceOf(double[] pi) {
      if (pi != devianceOfPi) {
        devianceOfPi = pi;
        devianceOfPiValue = deviance(counts, n, pi);
      }
      return devianceOfPiValue;
    }

    /**
     * One EMS step (EM, then smoothing) from {@code from}; counts as an iteration. From the current
     * iterate it reuses its fitted output distribution, already computed by the same product.
     */
    double[] next(double[] from) {
      iterations++;
      double[] fromPi = from == theta ? pi : piOf(from);
      return smooth(step(counts, n, t, from, fromPi), smoothing, t.circular());
    }

    /**
     * Makes {@code next} the current iterate; stops at the target deviance, or when the fit has
     * settled and is no misfit (a settled misfit halves the smoothing and goes on, as described
     * above).
     */
    void accept(double[] next) {
      double[][] f = fitted(next);
      double[] nextPi = f[0];
      double nextDeviance = devianceOf(nextPi);
      boolean settled = Math.abs(deviance - nextDeviance) < 1e-9 * Math.max(1, nextDeviance);
      theta = next;
      pi = nextPi;
      deviance = nextDeviance;
      expected = expectedDeviance(f[1], pi);
      if (deviance <= target(expected)) {
        done = true;
      } else if (settled) {
        if (smoothing > 0 && deviance > expected + MISFIT_SDS * Math.sqrt(2 * expected)) {
          smoothing = smoothing < MIN_SMOOTHING ? 0 : smoothing / 2;
        } else {
          done = true;
        }
      }
    }

    /**
     * One cycle of SQUAREM (Varadhan and Roland, "Simple and globally convergent methods for
     * accelerating the convergence of any EM algorithm", Scand. J. Statist. 35, 2008, scheme S3):
     * two EMS steps {@code theta1 = F(theta0)}, {@code theta2 = F(theta1)}, each checked against
     * the stop like any iterate; then, with {@code r = theta1 - theta0}, {@code v = theta2 - 2
     * theta1 + theta0} and the step length {@code alpha = -|r| / |v|} (at most -1), the
     * extrapolation {@code theta0 - 2 alpha r + alpha^2 v}, pulled back towards alpha = -1 (which is
     * theta2) until no frequency is negative, and one stabilising EMS step from it. The result is
     * kept if its deviance is at most theta2's. Else a plain step {@code F(theta2)} is taken, unless
     * the deviance is rising (theta2's above theta1's) and the jump is nearer the fixed point by
     * the residual {@code |F(x) - x|} (the jump's against theta2's; both are at hand). Every
     * iterate is checked against the same stop as plain EMS; a jump past the target is pulled back
     * to the crossing ({@link #crossing}).
     *
     * <p>Why the residual while the deviance rises: EMS is not EM, and its smoothing step does not
     * lower the deviance. Where the target is out of reach, the deviance falls to a lowest point,
     * then climbs to the settled fit's, and a jump that lands nearer the settled fit has the higher
     * deviance. Kept or dropped by its deviance alone, every such jump was dropped: on the sample's
     * windows, about 80 % of which settle so, SQUAREM took more steps than plain EMS. The residual
     * is SQUAREM's merit for a fixed-point map without an objective; before the lowest point the
     * deviance decides as before, so a window whose deviance falls until it reaches the target
     * takes the same path.
     */
    void squaremCycle() {
      double[] theta0 = theta;
      double[] theta1 = next(theta0);
      accept(theta1);
      if (done) {
        return;
      }
      double deviance1 = deviance;
      double[] theta2 = next(theta1);
      accept(theta2);
      if (done) {
        return;
      }
      int k = theta0.length;
      double rr = 0;
      double vv = 0;
      for (int i = 0; i < k; i++) {
        double r = theta1[i] - theta0[i];
        double v = theta2[i] - 2 * theta1[i] + theta0[i];
        rr += r * r;
        vv += v * v;
      }
      if (vv == 0) {
        return;
      }
      double alpha = Math.min(-Math.sqrt(rr / vv), -1);
      double[] jump = new double[k];
      // Each halving moves alpha halfway to -1 (theta2); the last falls back to -1.
      for (int halvings = 0; halvings < MAX_HALVINGS; halvings++) {
        boolean negative = false;
        for (int i = 0; i < k; i++) {
          double r = theta1[i] - theta0[i];
          double v = theta2[i] - 2 * theta1[i] + theta0[i];
          jump[i] = theta0[i] - 2 * alpha * r + alpha * alpha * v;
          negative |= jump[i] < 0;
        }
        if (!negative) {
          break;
        }
        alpha = halvings + 1 < MAX_HALVINGS ? Math.min((alpha - 1) / 2, -1) : -1;
      }
      if (alpha == -1) {
        accept(next(theta2));
        return;
      }
      double[] accelerated = next(jump);
      if (devianceOf(piOf(accelerated)) > deviance) {
        double[] plain = next(theta2);
        boolean rising = deviance > deviance1;
        accept(rising && squaredDistance(accelerated, jump) < squaredDistance(plain, theta2) ? accelerated : plain);
      } else if (!reachesTarget(accelerated)) {
        accept(accelerated);
      } else {
        accept(crossing(theta0, theta1, theta2, alpha, accelerated));
      }
    }

    /** {@code |x - y|^2}: between a point and its EMS step, the fixed-point residual SQUAREM falls back on. */
    private static double squaredDistance(double[] x, double[] y) {
      double s = 0;
      for (int i = 0; i < x.length; i++) {
        double d = x[i] - y[i];
        s += d * d;
      }
      return s;
    }

    /** Whether {@code theta}'s deviance is at most the target, which stops the iteration. */
    boolean reachesTarget(double[] theta) {
      double[][] f = fitted(theta);
      return devianceOf(f[0]) <= target(expectedDeviance(f[1], f[0]));
    }

    /**
     * The jump reached the target: plain EMS would have stopped at the first iterate past it, not
     * wherever the jump lands beyond. So the step length is bisected between -1 (a plain step from
     * theta2) and {@code alpha} to the stabilised point closest to the crossing ({@value
     * #CROSSING_BISECTIONS} halvings, each one EMS step).
     */
    double[] crossing(double[] theta0, double[] theta1, double[] theta2, double alpha, double[] past) {
      double[] plain = next(theta2);
      if (reachesTarget(plain)) {
        return plain;
      }
      double before = -1;
      double after = alpha;
      double[] best = past;
      for (int b = 0; b < CROSSING_BISECTIONS; b++) {
        double mid = (before + after) / 2;
        double[] at = new double[theta0.length];
        for (int i = 0; i < at.length; i++) {
          double r = theta1[i] - theta0[i];
          double v = theta2[i] - 2 * theta1[i] + theta0[i];
          at[i] = Math.max(0, theta0[i] - 2 * mid * r + mid * mid * v);
        }
        double[] stabilised = next(at);
        if (reachesTarget(stabilised)) {
          after = mid;
          best = stabilised;
        } else {
          before = mid;
        }
      }
      return best;
    }
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
    return expectedDeviance(t.applyMeanSquare(theta), pi);
  }

  /** The same from {@code square = S theta} ({@link TransitionMatrix#applyMeanSquare}). */
  private static double expectedDeviance(double[] square, double[] pi) {
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
   * One EM step from theta (Li et al., eq. for the E and M steps combined): {@code theta'_i = theta_i
   * sum_j T_ji c_j / (n pi_j)}, where {@code pi = T theta} and n is the sum of the counts. It sums to
   * {@code sum_j c_j / n = 1} whatever theta's own sum (the step is invariant to scaling theta), so
   * it needs no normalising and rounding does not build up over iterations.
   */
  public static double[] step(long[] counts, long n, TransitionMatrix t, double[] theta) {
    return step(counts, n, t, theta, t.apply(theta));
  }

  private static double[] step(long[] counts, long n, TransitionMatrix t, double[] theta, double[] pi) {
    double[] ratio = new double[counts.length];
    for (int j = 0; j < counts.length; j++) {
      if (counts[j] > 0 && pi[j] > 0) {
        ratio[j] = counts[j] / (n * pi[j]);
      }
    }
    double[] next = t.applyTransposed(ratio);
    for (int i = 0; i < next.length; i++) {
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
    double keep = 1 - w;
    double half = 0.5 * w;
    for (int i = 1; i < k - 1; i++) {
      out[i] = keep * theta[i] + half * (theta[i - 1] + theta[i + 1]);
    }
    // The ends: their outer neighbour wraps around the circle or is the end bin itself.
    if (k > 0) {
      out[0] = keep * theta[0] + half * (theta[circular ? k - 1 : 0] + theta[Math.min(1, k - 1)]);
      out[k - 1] = keep * theta[k - 1] + half * (theta[Math.max(k - 2, 0)] + theta[circular ? 0 : k - 1]);
    }
    return out;
  }

  /**
   * The deviance {@code 2 sum_j c_j ln(c_j / (n pi_j))} of the observed counts under pi. Its
   * logarithms are {@link NaturalLog}'s: computed at every EMS step, they were a third of the
   * reconstruction's time with {@code Math.log}.
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
