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
 * {@code theta_i} by {@code (1 - w) theta_i + w/2 (theta_{i-1} + theta_{i+1})} with w = {@value
 * #SMOOTHING} (wrapping on the circle, reflecting at the ends of an interval, so mass is kept),
 * damps the spikes; the stop keeps the noise out at high eps.
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
 * }{@value #TARGET_SDS}{@code sqrt(2 E)}, evaluated at the current iterate. (With small expected
 * counts the deviance runs a little above Pearson's statistic; the target, chosen empirically
 * below, leaves that alone.)
 *
 * <p>When the smoothed iteration settles with a deviance far above what the truth would give (more
 * than {@value #MISFIT_SDS} standard deviations: many records and sharp features, where smoothing
 * is bias rather than noise control), it halves the weight and goes on, down to no smoothing.
 * (Dropping the smoothing at once instead overfits the rare run of a few thousand records that
 * trips this check.)
 *
 * <p>The weight and the target were chosen on MotionSense (w among 0.02, 0.05, 0.07 and 0.1; the
 * target among -1.5, -1, -0.75, -0.5, 0 and 0.67 standard deviations around E, and the 0.5, 0.75
 * and 0.9 quantiles of chi-square). The linear field liked more smoothing, the circular field
 * (sharp edges) less, and both a target below E; with these the error was never worse than the raw
 * histogram's at any eps from 1 to 8, on either field. {@code reproduce} also reports the best
 * error over every EM and EMS iterate chosen knowing the truth, the ceiling for any rule of this
 * kind.
 *
 * <p>Running it ({@link Schedule#DEFAULT}): plain EMS is slow, thousands of steps for a window of a
 * few thousand records at low eps, so it is accelerated by SQUAREM (Varadhan and Roland, Scand. J.
 * Statist. 35, 2008) from the first step, with three safeguards that keep its answers plain EMS's
 * where they are defined by the path rather than the fixed point:
 *
 * <ul>
 *   <li>The step length is at most {@value #FIRST_STEP_LIMIT} in the first cycle and grows {@value
 *       #STEP_LIMIT_GROWTH} times whenever it binds (the SQUAREM authors' own default). An
 *       extrapolation multiplies the components of the error that EMS damps fast by up to the
 *       square of the step length; from the uniform start those are still large, and an unbounded
 *       first jump lands on a different path to the target than plain EMS's, with a worse error
 *       against the truth for windows that stop at the target. A few capped cycles damp them first.
 *   <li>A jump past the target is pulled back to the crossing (bisection along the jump), and then
 *       one EMS step is taken from the last point before the target, as plain EMS stops at the
 *       first iterate past it, not at the target itself (pulled back to the crossing alone, the fit
 *       stopped at a systematically higher deviance, less fitted than plain EMS's).
 *   <li>The fit has settled when SQUAREM's own estimate of the distance to the fixed point is small
 *       (below).
 * </ul>
 *
 * <p>Settling: a window that never reaches the target ends at the fixed point of the smoothed EM
 * step, and only there: stopping sooner only approximates it. Two EMS steps {@code theta0 -> theta1
 * -> theta2} of a map contracting at rate lambda have {@code |r| / |v| = 1 / (1 - lambda)} ({@code
 * r}, {@code v} as in {@link Fit#squaremCycle}), so the fixed point is about {@code |theta2 -
 * theta1| |r| / |v|} from theta2 (in L1). The fit has settled when that is below {@value
 * #SETTLE_FRACTION} {@code sqrt(k / n)}, k bins and n records: a small fraction of the sampling
 * error of any histogram of n records over k bins (about {@code sqrt(2 k / (pi n))} in L1 for an
 * even histogram), so the distance to the fixed point is an order of magnitude below the estimate's
 * error against the truth (the estimate lies a few times the estimated distance from the fixed
 * point, since several slow components converge at once), and a window of many records is settled
 * more finely than a small one. The tolerance trades iterations for that distance ({@code
 * ReconstructionCapTest} states the bound by which results moved).
 *
 * <p>Two rules it replaces: the deviance's relative change in one step below a tolerance ({@link
 * Schedule#settleChange}) has no scale of its own (at 1e-9 it ran to the fixed point to nine
 * digits; at 1e-6 it settled some windows at the deviance's lowest point, where the deviance
 * changes little but the fixed point is still far, since the smoothed iteration's deviance falls to
 * a lowest point before it climbs to the fixed point's). And a start from the window's own data
 * (the raw output histogram debiased through the transition matrix by least squares or a few
 * projected Landweber steps, projected onto the simplex) did not take fewer iterations (the slow
 * components are the ones the matrix hardly sees, which the data does not pin down either), and it
 * made the windows that stop at the target worse at high eps: the start already fits the counts'
 * noise, so the stop comes at once, with the noise in.
 *
 * <p>An emission is a function of its counts alone: the start, the schedule and every tolerance
 * depend on nothing else, so a late update equals recomputing from all the window's records.
 */
@Internal
public final class Reconstruction {
  /**
   * Most EMS steps: bounds the cost of an emission whatever the number of records (a step is three
   * matrix products: O(bins x output bins) dense, O(runs) over a piecewise mechanism's runs of
   * equal entries, {@link TransitionMatrix}). SQUAREM stops windows of up to millions of records by
   * the rule well within it; beyond, the cap can bind (ten million records at eps 1), and the
   * result is then within a stated distance of plain EMS's ({@code ReconstructionCapTest}).
   *
   * <p>SQUAREM keeps or drops a jump by comparing deviances (or residuals), which near convergence
   * differ by about their rounding, so the accelerated path (and whether the cap binds) depends on
   * the last bits of the products: a change of one ulp in one entry of the matrix can move a large
   * window's stop by many steps, and its result by about the settling tolerance. Plain EMS does
   * not: its steps differ only by their rounding.
   */
  static final int MAX_ITERATIONS = 10_000;

  /** Most halvings of an extrapolation's distance to a plain step, to keep every frequency >= 0. */
  static final int MAX_HALVINGS = 30;

  /** Halvings of the step length that find where an accelerated jump crosses the target. */
  static final int CROSSING_BISECTIONS = 8;

  /** SQUAREM's largest step length in its first cycle (1: the cycle is three plain steps). */
  static final double FIRST_STEP_LIMIT = 1;

  /** Growth of the largest step length each time it binds. */
  static final double STEP_LIMIT_GROWTH = 4;

  /**
   * The settled fit's estimated distance to the fixed point, as a fraction of {@code sqrt(k / n)}.
   */
  static final double SETTLE_FRACTION = 0.003;

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
   *     #STEP_LIMIT_GROWTH} times more each time it binds (infinite: no limit)
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
    /** The shipped schedule (the class description says why). */
    static final Schedule DEFAULT =
        new Schedule(MAX_ITERATIONS, 0, FIRST_STEP_LIMIT, true, 0, SETTLE_FRACTION);

    /**
     * The former schedule, kept so that tests compare the shipped one with it: 100 plain steps,
     * then SQUAREM without a step limit, a jump past the target ending at the crossing, settled
     * when the deviance changes by less than 1e-9 of itself in a step.
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
    int maxIterations = schedule.maxIterations();
    Fit fit = new Fit(counts, n, t, schedule);
    while (!fit.done && fit.iterations < Math.min(maxIterations, schedule.accelerateAfter())) {
      fit.plainStep();
    }
    while (!fit.done && fit.iterations + 4 + CROSSING_BISECTIONS <= maxIterations) {
      fit.squaremCycle();
      fit.recycle();
    }
    while (!fit.done && fit.iterations < maxIterations) {
      fit.plainStep();
    }
    Point last = fit.current;
    return new Result(last.theta, fit.iterations, fit.deviance(last), target(fit.expected(last)));
  }

  /**
   * An iterate and what has been computed of it: its fitted output distribution {@code T theta},
   * {@code S theta} (for the expected deviance), its deviance and expected deviance, each computed
   * at most once and only when needed (an accelerated jump's deviance decides whether it is kept,
   * and is needed again when it is). A point's arrays are reused for another iterate once the fit
   * no longer needs it ({@link Fit#recycle}), so an emission allocates a few points, not a few
   * arrays per step.
   */
  private static final class Point {
    final double[] theta;
    final double[] pi;
    final double[] square;
    boolean hasPi;
    boolean hasSquare;
    boolean hasDeviance;
    boolean hasExpected;
    double deviance;
    double expected;
    boolean free;

    Point(int k, int m) {
      theta = new double[k];
      pi = new double[m];
      square = new double[m];
    }

    void reuse() {
      hasPi = false;
      hasSquare = false;
      hasDeviance = false;
      hasExpected = false;
      free = false;
    }
  }

  /**
   * The state of one reconstruction: the current iterate, the steps taken, the smoothing weight,
   * SQUAREM's step limit, whether it has stopped, and the working arrays of its steps.
   */
  private static final class Fit {
    /** More points than a SQUAREM cycle holds at once (the crossing's bisection holds the most). */
    private static final int POOL = 12;

    final long[] counts;
    final long n;
    final TransitionMatrix t;
    final Schedule schedule;
    final int k;
    final int m;

    /** The settled fit's largest estimated distance to the fixed point. */
    final double settleDistance;

    /** The EM step's ratios of observed to fitted counts, and its result before smoothing. */
    final double[] ratio;

    final double[] stepped;

    /** The products' working space ({@link TransitionMatrix#scratch}). */
    final double[] scratch;

    /** The points made so far; those marked free may be reused. */
    final Point[] points = new Point[POOL];

    int made;
    Point current;
    double smoothing = SMOOTHING;
    double stepLimit;
    int iterations;
    boolean done;

    Fit(long[] counts, long n, TransitionMatrix t, Schedule schedule) {
      this.counts = counts;
      this.n = n;
      this.t = t;
      this.schedule = schedule;
      this.k = t.columns();
      this.m = t.rows();
      this.settleDistance = schedule.settleFraction() * Math.sqrt(k / (double) n);
      this.stepLimit = schedule.firstStepLimit();
      this.ratio = new double[m];
      this.stepped = new double[k];
      this.scratch = t.scratch();
      this.current = take();
      Arrays.fill(current.theta, 1.0 / k);
      this.done = reachesTarget(current);
    }

    /** A point for a new iterate: a free one, or a new one. */
    Point take() {
      for (int i = 0; i < made; i++) {
        if (points[i].free) {
          points[i].reuse();
          return points[i];
        }
      }
      if (made == POOL) {
        throw new IllegalStateException("more than " + POOL + " EMS iterates held at once");
      }
      Point p = new Point(k, m);
      points[made++] = p;
      return p;
    }

    /** Frees a point the fit no longer needs (never the current iterate). */
    void give(Point p) {
      if (p != current) {
        p.free = true;
      }
    }

    /** Frees every point but the current iterate: between steps, nothing else is needed. */
    void recycle() {
      for (int i = 0; i < made; i++) {
        give(points[i]);
      }
    }

    /** {@code T theta} of the point. */
    double[] pi(Point p) {
      if (!p.hasPi) {
        t.apply(p.theta, p.pi, scratch);
        p.hasPi = true;
      }
      return p.pi;
    }

    double deviance(Point p) {
      if (!p.hasDeviance) {
        p.deviance = Reconstruction.deviance(counts, n, pi(p));
        p.hasDeviance = true;
      }
      return p.deviance;
    }

    /**
     * The expected deviance at the point; {@code S theta} with {@code T theta} in one pass if
     * neither is known.
     */
    double expected(Point p) {
      if (!p.hasExpected) {
        if (!p.hasPi) {
          t.applyWithMeanSquare(p.theta, p.pi, p.square, scratch);
          p.hasPi = true;
        } else {
          t.applyMeanSquare(p.theta, p.square, scratch);
        }
        p.hasSquare = true;
        p.expected = expectedDeviance(p.square, p.pi);
        p.hasExpected = true;
      }
      return p.expected;
    }

    /**
     * Whether the point's deviance is at most the target, which stops the iteration. The target
     * needs the expected deviance E, a product with S; but {@code E <= sum_j (1 - pi_j)} over the
     * output bins with {@code pi_j > 0} (since {@code (S theta)_j >= sum_i T_ji^2 theta_i >=
     * pi_j^2} for a theta summing to 1, by Cauchy-Schwarz, a mean square being at least the square
     * of the mean), and the target {@code E - sqrt(2 E)} is at most {@code max(0, target(bound))}
     * for any E up to a bound. A deviance above that (with a margin far above rounding) cannot
     * reach the target, whatever E is: then E is not computed, and the answer is the same.
     */
    boolean reachesTarget(Point p) {
      double deviance = deviance(p);
      if (!p.hasExpected) {
        double[] pi = p.pi;
        double bound = 0;
        for (int j = 0; j < m; j++) {
          if (pi[j] > 0) {
            bound += 1 - pi[j];
          }
        }
        if (deviance > Math.max(0, target(bound + 1e-6 * m)) + 1e-6) {
          return false;
        }
      }
      return deviance <= target(expected(p));
    }

    /** One EMS step (EM, then smoothing) from {@code from}; counts as an iteration. */
    Point next(Point from) {
      iterations++;
      Point to = take();
      step(counts, n, t, from.theta, pi(from), ratio, stepped, scratch);
      smooth(stepped, smoothing, t.circular(), to.theta);
      return to;
    }

    /** One plain EMS step from the current iterate. */
    void plainStep() {
      accept(next(current));
      recycle();
    }

    /**
     * Makes {@code next} the current iterate; stops at the target deviance, or, with {@link
     * Schedule#settleChange}, when the deviance has settled (a settled misfit halves the smoothing
     * and goes on, as described above).
     */
    void accept(Point next) {
      double previous = deviance(current);
      current = next;
      if (reachesTarget(next)) {
        done = true;
      } else if (Math.abs(previous - deviance(next))
          < schedule.settleChange() * Math.max(1, deviance(next))) {
        settle(next);
      }
    }

    /**
     * The fit has settled at {@code p}: it stops there, unless it is a misfit (far above the
     * expected deviance) with smoothing left to halve.
     */
    void settle(Point p) {
      double expected = expected(p);
      if (smoothing > 0 && deviance(p) > expected + MISFIT_SDS * Math.sqrt(2 * expected)) {
        smoothing = smoothing < MIN_SMOOTHING ? 0 : smoothing / 2;
      } else {
        done = true;
      }
    }

    /**
     * One cycle of SQUAREM (Varadhan and Roland, "Simple and globally convergent methods for
     * accelerating the convergence of any EM algorithm", Scand. J. Statist. 35, 2008, scheme S3):
     * two EMS steps {@code theta1 = F(theta0)}, {@code theta2 = F(theta1)}, each checked against
     * the stop like any iterate; then, with {@code r = theta1 - theta0}, {@code v = theta2 - 2
     * theta1 + theta0} and the step length {@code alpha = -|r| / |v|} (at most -1, at least minus
     * the step limit), the extrapolation {@code theta0 - 2 alpha r + alpha^2 v}, pulled back
     * towards alpha = -1 (which is theta2) until no frequency is negative, and one stabilising EMS
     * step from it. The result is kept if its deviance is at most theta2's. Else a plain step
     * {@code F(theta2)} is taken, unless the deviance is rising (theta2's above theta1's) and the
     * jump is nearer the fixed point by the residual {@code |F(x) - x|} (the jump's against
     * theta2's; both are at hand). Every iterate is checked against the same stop as plain EMS; a
     * jump past the target is pulled back to the crossing ({@link #crossing}). With {@link
     * Schedule#settleFraction}, the two steps also decide whether the fit has settled (the class
     * description).
     *
     * <p>Why the residual while the deviance rises: EMS is not EM, and its smoothing step does not
     * lower the deviance. Where the target is out of reach, the deviance falls to a lowest point,
     * then climbs to the settled fit's, and a jump that lands nearer the settled fit has the higher
     * deviance. Kept or dropped by its deviance alone, every such jump was dropped, and on the
     * sample's windows, most of which settle so, SQUAREM took more steps than plain EMS. The
     * residual is SQUAREM's merit for a fixed-point map without an objective; before the lowest
     * point the deviance decides, so a window whose deviance falls until it reaches the target
     * takes the same path.
     */
    void squaremCycle() {
      Point p0 = current;
      Point p1 = next(p0);
      accept(p1);
      if (done) {
        return;
      }
      double deviance1 = deviance(p1);
      Point p2 = next(p1);
      accept(p2);
      if (done) {
        return;
      }
      double[] theta0 = p0.theta;
      double[] theta1 = p1.theta;
      double[] theta2 = p2.theta;
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
      if (schedule.settleFraction() > 0 && settledAt(theta1, theta2, rr, vv)) {
        settle(p2);
        if (done) {
          return;
        }
      }
      double alpha = Math.min(-Math.sqrt(rr / vv), -1);
      if (-alpha >= stepLimit) {
        alpha = -stepLimit;
        stepLimit *= STEP_LIMIT_GROWTH;
      }
      Point jumpPoint = take();
      double[] jump = jumpPoint.theta;
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
        accept(next(p2));
        return;
      }
      Point accelerated = next(jumpPoint);
      if (deviance(accelerated) > deviance(p2)) {
        Point plain = next(p2);
        boolean rising = deviance(p2) > deviance1;
        accept(
            rising
                    && squaredDistance(accelerated.theta, jump)
                        < squaredDistance(plain.theta, theta2)
                ? accelerated
                : plain);
      } else if (!reachesTarget(accelerated)) {
        accept(accelerated);
      } else {
        accept(crossing(p0, p1, p2, alpha, accelerated));
      }
    }

    /**
     * Whether two EMS steps {@code theta0 -> theta1 -> theta2} ({@code rr = |r|^2}, {@code vv =
     * |v|^2}) put the fixed point within the settling distance of theta2: {@code |theta2 -
     * theta1|_1 |r| / |v|}, the last step times {@code 1 / (1 - lambda)} for a map contracting at
     * rate lambda.
     */
    private boolean settledAt(double[] theta1, double[] theta2, double rr, double vv) {
      double last = 0;
      for (int i = 0; i < k; i++) {
        last += Math.abs(theta2[i] - theta1[i]);
      }
      return last * Math.sqrt(rr / vv) < settleDistance;
    }

    /**
     * {@code |x - y|^2}: between a point and its EMS step, the fixed-point residual SQUAREM falls
     * back on.
     */
    private static double squaredDistance(double[] x, double[] y) {
      double s = 0;
      for (int i = 0; i < x.length; i++) {
        double d = x[i] - y[i];
        s += d * d;
      }
      return s;
    }

    /**
     * The jump reached the target: plain EMS would have stopped at the first iterate past it, not
     * wherever the jump lands beyond. So the step length is bisected between -1 (a plain step from
     * theta2) and {@code alpha} to the stabilised point closest to the crossing ({@value
     * #CROSSING_BISECTIONS} halvings, each one EMS step); with {@link Schedule#stepPastTarget},
     * then one EMS step from the last point found before the target, kept if it reaches the target
     * (as plain EMS's last step does).
     */
    Point crossing(Point p0, Point p1, Point p2, double alpha, Point past) {
      Point plain = next(p2);
      if (reachesTarget(plain)) {
        return plain;
      }
      double[] theta0 = p0.theta;
      double[] theta1 = p1.theta;
      double[] theta2 = p2.theta;
      double before = -1;
      double after = alpha;
      Point best = past;
      Point lastBefore = null;
      for (int b = 0; b < CROSSING_BISECTIONS; b++) {
        double mid = (before + after) / 2;
        Point atPoint = take();
        double[] at = atPoint.theta;
        for (int i = 0; i < k; i++) {
          double r = theta1[i] - theta0[i];
          double v = theta2[i] - 2 * theta1[i] + theta0[i];
          at[i] = Math.max(0, theta0[i] - 2 * mid * r + mid * mid * v);
        }
        Point stabilised = next(atPoint);
        give(atPoint);
        if (reachesTarget(stabilised)) {
          after = mid;
          give(best);
          best = stabilised;
        } else {
          before = mid;
          if (lastBefore != null) {
            give(lastBefore);
          }
          lastBefore = stabilised;
        }
      }
      if (schedule.stepPastTarget() && lastBefore != null) {
        Point over = next(lastBefore);
        if (reachesTarget(over)) {
          return over;
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
  private static void step(
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
  private static void smooth(double[] theta, double w, boolean circular, double[] out) {
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
