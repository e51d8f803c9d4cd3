package io.ogpm.estimate;

import io.ogpm.estimate.Reconstruction.Result;
import io.ogpm.estimate.Reconstruction.Schedule;
import java.util.Arrays;

/**
 * One run of {@link Reconstruction#em}: EMS steps from the uniform distribution to the
 * reconstruction's stop, accelerated by SQUAREM (Varadhan and Roland, "Simple and globally
 * convergent methods for accelerating the convergence of any EM algorithm", Scand. J. Statist. 35,
 * 2008, scheme S3; {@link #squaremCycle}). Plain EMS needs thousands of steps for a window of a few
 * thousand records at low eps, its slow components being those the transition matrix hardly sees;
 * SQUAREM extrapolates along two steps and needs far fewer.
 *
 * <p>The invariant: every iterate, plain or extrapolated, is checked against plain EMS's stop (the
 * target deviance, or a settled fit), and where plain EMS's answer is set by its path rather than
 * by its fixed point (a window that stops at the target) the accelerated run follows that path.
 * Three rules keep it:
 *
 * <ul>
 *   <li>The step length is at most {@value #FIRST_STEP_LIMIT} in the first cycle and grows {@value
 *       #STEP_LIMIT_GROWTH} times whenever it binds (the SQUAREM authors' own growth). An
 *       extrapolation multiplies the components of the error that EMS damps fast by up to the
 *       square of the step length; from the uniform start those are still large, and an unbounded
 *       first jump lands on another path to the target than plain EMS's. Capped cycles damp them
 *       first.
 *   <li>A jump past the target is pulled back to the crossing (bisection along the jump), then one
 *       EMS step is taken from the last point before it ({@link #crossing}): plain EMS stops at its
 *       first iterate past the target, not at the target.
 *   <li>A window that never reaches the target ends at the fixed point of the smoothed EM step, and
 *       only there. Two EMS steps {@code theta0 -> theta1 -> theta2} of a map contracting at rate
 *       lambda have {@code |r| / |v| = 1 / (1 - lambda)} ({@code r}, {@code v} as in {@link
 *       #squaremCycle}), so the fixed point is about {@code |theta2 - theta1| |r| / |v|} from
 *       theta2 (L1). The fit has settled when that is below {@value #SETTLE_FRACTION} {@code sqrt(k
 *       / n)}, k bins and n records: a small fraction of the sampling error of a histogram of n
 *       records over k bins (about {@code sqrt(2 k / (pi n))} in L1 for an even one), so the
 *       distance to the fixed point stays an order of magnitude below the estimate's error against
 *       the truth, and a window of many records settles more finely than a small one. The rule has
 *       a scale, which the deviance's change in a step has not: the smoothed iteration's deviance
 *       falls to a lowest point before it climbs to the fixed point's, and changes little there
 *       while the fixed point is still far.
 * </ul>
 *
 * <p>SQUAREM keeps or drops a jump by comparing deviances (or residuals), which near convergence
 * differ by about their rounding, so its path, and whether {@link Reconstruction#MAX_ITERATIONS}
 * binds, depends on the last bits of the products: one ulp in one entry of the matrix can move a
 * large window's stop by many steps, and its result by about the settling tolerance ({@code
 * ReconstructionCapTest} bounds it). Plain EMS's steps differ only by their rounding. The result is
 * still a function of the counts and the matrix alone.
 *
 * <p>An iterate's arrays are reused once the fit no longer needs them ({@link #recycle}): a run
 * allocates a few points, not arrays per step. Not thread-safe: one per reconstruction.
 */
final class SquaremFit {
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

  /** More points than a SQUAREM cycle holds at once (the crossing's bisection holds the most). */
  private static final int POOL = 12;

  private final long[] counts;
  private final long n;
  private final TransitionMatrix t;
  private final Schedule schedule;
  private final int k;
  private final int m;

  /** The settled fit's largest estimated distance to the fixed point. */
  private final double settleDistance;

  /** The EM step's ratios of observed to fitted counts, and its result before smoothing. */
  private final double[] ratio;

  private final double[] stepped;

  /** The products' working space ({@link TransitionMatrix#scratch}). */
  private final double[] scratch;

  /** The points made so far; those marked free may be reused. */
  private final Point[] points = new Point[POOL];

  private int made;
  private Point current;
  private double smoothing = Reconstruction.SMOOTHING;
  private double stepLimit;
  private int iterations;
  private boolean done;

  SquaremFit(long[] counts, long n, TransitionMatrix t, Schedule schedule) {
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

  /**
   * Runs the schedule to the stop: plain EMS steps until {@link Schedule#accelerateAfter}, SQUAREM
   * cycles while a whole cycle fits in {@link Schedule#maxIterations}, plain steps to the end.
   */
  Result run() {
    int maxIterations = schedule.maxIterations();
    while (!done && iterations < Math.min(maxIterations, schedule.accelerateAfter())) {
      plainStep();
    }
    while (!done && iterations + 4 + CROSSING_BISECTIONS <= maxIterations) {
      squaremCycle();
      recycle();
    }
    while (!done && iterations < maxIterations) {
      plainStep();
    }
    return new Result(
        current.theta, iterations, deviance(current), Reconstruction.target(expected(current)));
  }

  /** A point for a new iterate: a free one, or a new one. */
  private Point take() {
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
  private void give(Point p) {
    if (p != current) {
      p.free = true;
    }
  }

  /** Frees every point but the current iterate: between steps, nothing else is needed. */
  private void recycle() {
    for (int i = 0; i < made; i++) {
      give(points[i]);
    }
  }

  /** {@code T theta} of the point. */
  private double[] pi(Point p) {
    if (!p.hasPi) {
      t.apply(p.theta, p.pi, scratch);
      p.hasPi = true;
    }
    return p.pi;
  }

  private double deviance(Point p) {
    if (!p.hasDeviance) {
      p.deviance = Reconstruction.deviance(counts, n, pi(p));
      p.hasDeviance = true;
    }
    return p.deviance;
  }

  /**
   * The expected deviance at the point; {@code S theta} with {@code T theta} in one pass if neither
   * is known.
   */
  private double expected(Point p) {
    if (!p.hasExpected) {
      if (!p.hasPi) {
        t.applyWithMeanSquare(p.theta, p.pi, p.square, scratch);
        p.hasPi = true;
      } else {
        t.applyMeanSquare(p.theta, p.square, scratch);
      }
      p.hasSquare = true;
      p.expected = Reconstruction.expectedDeviance(p.square, p.pi);
      p.hasExpected = true;
    }
    return p.expected;
  }

  /**
   * Whether the point's deviance is at most the target, which stops the iteration. The target needs
   * the expected deviance E, a product with S; but {@code E <= sum_j (1 - pi_j)} over the output
   * bins with {@code pi_j > 0} (since {@code (S theta)_j >= sum_i T_ji^2 theta_i >= pi_j^2} for a
   * theta summing to 1, by Cauchy-Schwarz, a mean square being at least the square of the mean),
   * and the target {@code E - sqrt(2 E)} is at most {@code max(0, target(bound))} for any E up to a
   * bound. A deviance above that (with a margin far above rounding) cannot reach the target,
   * whatever E is: then E is not computed, and the answer is the same.
   */
  private boolean reachesTarget(Point p) {
    double deviance = deviance(p);
    if (!p.hasExpected) {
      double[] pi = p.pi;
      double bound = 0;
      for (int j = 0; j < m; j++) {
        if (pi[j] > 0) {
          bound += 1 - pi[j];
        }
      }
      if (deviance > Math.max(0, Reconstruction.target(bound + 1e-6 * m)) + 1e-6) {
        return false;
      }
    }
    return deviance <= Reconstruction.target(expected(p));
  }

  /** One EMS step (EM, then smoothing) from {@code from}; counts as an iteration. */
  private Point next(Point from) {
    iterations++;
    Point to = take();
    Reconstruction.step(counts, n, t, from.theta, pi(from), ratio, stepped, scratch);
    Reconstruction.smooth(stepped, smoothing, t.circular(), to.theta);
    return to;
  }

  /** One plain EMS step from the current iterate. */
  private void plainStep() {
    accept(next(current));
    recycle();
  }

  /**
   * Makes {@code next} the current iterate; stops at the target deviance, or, with {@link
   * Schedule#settleChange}, when the deviance has settled (a settled misfit halves the smoothing
   * and goes on, {@link #settle}).
   */
  private void accept(Point next) {
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
   * The fit has settled at {@code p}: it stops there, unless it is a misfit (far above the expected
   * deviance) with smoothing left to halve ({@link Reconstruction}'s misfit rule).
   */
  private void settle(Point p) {
    double expected = expected(p);
    if (smoothing > 0
        && deviance(p) > expected + Reconstruction.MISFIT_SDS * Math.sqrt(2 * expected)) {
      smoothing = smoothing < Reconstruction.MIN_SMOOTHING ? 0 : smoothing / 2;
    } else {
      done = true;
    }
  }

  /**
   * One cycle of SQUAREM (Varadhan and Roland, "Simple and globally convergent methods for
   * accelerating the convergence of any EM algorithm", Scand. J. Statist. 35, 2008, scheme S3): two
   * EMS steps {@code theta1 = F(theta0)}, {@code theta2 = F(theta1)}, each checked against the stop
   * like any iterate; then, with {@code r = theta1 - theta0}, {@code v = theta2 - 2 theta1 +
   * theta0} and the step length {@code alpha = -|r| / |v|} (at most -1, at least minus the step
   * limit), the extrapolation {@code theta0 - 2 alpha r + alpha^2 v}, pulled back towards alpha =
   * -1 (which is theta2) until no frequency is negative, and one stabilising EMS step from it. The
   * result is kept if its deviance is at most theta2's. Else a plain step {@code F(theta2)} is
   * taken, unless the deviance is rising (theta2's above theta1's) and the jump is nearer the fixed
   * point by the residual {@code |F(x) - x|} (the jump's against theta2's; both are at hand). Every
   * iterate is checked against the same stop as plain EMS; a jump past the target is pulled back to
   * the crossing ({@link #crossing}). With {@link Schedule#settleFraction}, the two steps also
   * decide whether the fit has settled ({@link #settledAt}, the class description).
   *
   * <p>Why the residual while the deviance rises: EMS is not EM, and its smoothing step does not
   * lower the deviance. Where the target is out of reach, the deviance falls to a lowest point,
   * then climbs to the settled fit's, and a jump that lands nearer the settled fit has the higher
   * deviance. Kept or dropped by its deviance alone, every such jump would be dropped, and on
   * windows that settle so (most of the sample's) SQUAREM would take more steps than plain EMS
   * ({@code ReconstructionCapTest}). The residual is SQUAREM's merit for a fixed-point map without
   * an objective; before the lowest point the deviance decides, so a window whose deviance falls
   * until it reaches the target takes the same path.
   */
  private void squaremCycle() {
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
          rising && squaredDistance(accelerated.theta, jump) < squaredDistance(plain.theta, theta2)
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
   * |v|^2}) put the fixed point within the settling distance of theta2: {@code |theta2 - theta1|_1
   * |r| / |v|}, the last step times {@code 1 / (1 - lambda)} for a map contracting at rate lambda.
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
   * #CROSSING_BISECTIONS} halvings, each one EMS step); with {@link Schedule#stepPastTarget}, then
   * one EMS step from the last point found before the target, kept if it reaches the target (as
   * plain EMS's last step does).
   */
  private Point crossing(Point p0, Point p1, Point p2, double alpha, Point past) {
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

  /**
   * An iterate and what has been computed of it: its fitted output distribution {@code T theta},
   * {@code S theta} (for the expected deviance), its deviance and expected deviance, each computed
   * at most once and only when needed (an accelerated jump's deviance decides whether it is kept,
   * and is needed again when it is). A point's arrays are reused for another iterate once the fit
   * no longer needs it ({@link #recycle}), so an emission allocates a few points, not a few arrays
   * per step.
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
}
