package io.ogpm.estimate;

import io.ogpm.mechanism.Mechanism;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The 95 % interval for a window's linear mean: every input mean consistent with a few statistics
 * of the window's outputs, each bounded at its share of the error level.
 *
 * <p><b>The output mean</b> (method {@code studentised-output-mean}, or {@code output-mean} below
 * its regime). The outputs' mean has expectation {@code E_P[g]}, g the mean function, and variance
 * {@code V / n}, V the average output variance given the window's inputs. In the studentised regime
 * the interval is normal with V estimated from the window's own sums and the quantile widened by
 * its Edgeworth term ({@link WindowVariance}), so a window of readings in the middle is as narrow
 * as its own noise, not the ends'. Below that regime, V is bounded by the mechanism's largest
 * variance {@code maxVar} and the interval is normal with a widened quantile or Bernstein's ({@link
 * NormalApproximation}); the choice depends on n alone. Either holds {@code E_P[g]}, and the
 * inputs' mean lies in its identification ({@link MeanIdentification}). For OGPM that interval
 * cannot shrink below the flat ends of g: inputs in the first (last) {@code s/2} of the domain give
 * the same outputs as the end of the flat part, so a mean in the middle could be any mix of both
 * ends, whatever n.
 *
 * <p><b>End tails</b> (method {@code output-mean-and-tails}). Where g is not affine up to the end
 * of the domain (ogpm, t-pm, t-sw), the window's outputs also say how much input mass can sit in
 * the flat end: mass there puts outputs in the last stretch of the output domain, which inputs in
 * the middle reach only at the background density. For the upper end of the interval, the statistic
 * {@code psi = y~ + kappa [y~ beyond c]} of one output's bin centre y~ adds kappa for an output at
 * or beyond the threshold c near the upper end: its expectation {@code Psi(x)} rises over the flat
 * end as g rises in the middle, so, unlike g's, its identification does not allow a flat end's
 * worth of mass for free ({@link BinStatistic}). kappa is what restores the slope: {@code kappa =
 * (b (hi - t) - (Psi0(hi) - Psi0(t))) / (T(hi) - T(mid))}, t the end of g's affine part, b its
 * slope, Psi0 the expectation of y~ and T that of the tail indicator. The best threshold c lies
 * just beyond the reach of the window's own inputs' outputs, unknown in advance: nearer the end it
 * is noisier, further in the outputs of inputs near the flat end reach it and bias the bound (its
 * expectation is convex there). So there are two, the output bin edges nearest to {@code hi - d/2}
 * and {@code hi - d/4}, {@code d = hi - t} the flat end's width (s/2 for OGPM). The lower end
 * mirrors them ({@code psi = y~ - kappa [y~ below c]}).
 *
 * <p><b>Error level, split from the count.</b> Each side of the interval holds at 2.5 %. A side
 * takes the tightest of the bounds of the output mean and the tail statistics, with its 2.5 % split
 * between them (Bonferroni: it misses only when one of them misses), or one of them alone with all
 * of it. A tail statistic costs extra noise where the end correction buys nothing, for inputs piled
 * at the far end, splitting costs every statistic some width, and which threshold is best depends
 * on the count (the bias of the nearer one matters more as the noise shrinks). So for each count,
 * before any data, each side takes the split ({@link #PLAIN_SHARES} of the output mean, the rest to
 * one tail statistic or halved between two) whose expected bound is tightest for inputs spread
 * evenly over the middle half of the domain, among those whose expected bound, for inputs all at
 * lo, all at hi or half at each, lies at most {@value #MAX_WIDENING} of the output mean's interval
 * width further out than the output mean's own bound ({@link Side}). Expected: each statistic at
 * its expectation for those inputs, its variance estimate at its expected mean and mean square (the
 * mixture's). A tail statistic takes part only in its studentised regime at its share. The choice
 * depends on the count alone, never on the data; with the whole share to the output mean a side is
 * the output mean's own bound.
 *
 * <p>A tail statistic is studentised as the output mean is: its variance given the inputs estimated
 * from the window's mean and mean square of psi through a model raised above it, its quantile
 * widened by that estimator's Edgeworth term, and used only where that term and the kurtosis term
 * are small at its share ({@link BinStatistic}). (Should the two sides cross, which needs one of
 * them to miss, the output mean's interval is kept.)
 */
final class LinearMeanBounds {
  /** The error level of the interval. */
  static final double ALPHA = 0.05;

  /**
   * How much further out than the output mean's a side's bound may be expected to lie at the ends,
   * as a share of the output mean's interval width.
   */
  static final double MAX_WIDENING = 0.04;

  /**
   * The output mean's candidate shares of a side's error level; the rest goes to the tail
   * statistics.
   */
  static final double[] PLAIN_SHARES = {1, 0.5, 0.2, 0};

  /** Counts of the choice table: {@code ceil(2^(k/4))} for k up to this. */
  static final int COUNTS = 160;

  /** The interval and what it used. */
  record Bounds(double lower, double upper, MeanIntervalMethod method) {}

  static final MeanIntervalMethod OUTPUT_MEAN = MeanIntervalMethod.OUTPUT_MEAN;

  private final MeanIdentification identification;
  private final WindowVariance variance;
  private final double outputSd;
  private final double sdSlack;
  private final double meanSlack;
  private final double outputRange;
  private final long normalFrom;

  /** The largest skewness and excess kurtosis of one output ({@link NormalApproximation}). */
  private final double[] shape;

  /** g's mean over inputs spread evenly over the middle half of the domain. */
  private final double gMiddleHalf;

  /** The expected mean square about the centre for those inputs, and for inputs at lo and at hi. */
  private final double squareMiddleHalf;

  private final double squareLo;
  private final double squareHi;

  private final Side upper;
  private final Side lower;

  private LinearMeanBounds(Mechanism mechanism, FieldBinning binning, AffinePart affine) {
    double w = mechanism.domain().width();
    double cell = mechanism.cellWidth();
    this.identification = MeanIdentification.of(mechanism);
    // Snapping moves each output by at most a cell.
    this.sdSlack = cell + Math.sqrt(FieldEstimator.NUMERICAL) * w;
    this.outputSd = Math.sqrt(mechanism.maxOutputVariance()) + sdSlack;
    this.variance = WindowVariance.of(mechanism);
    this.meanSlack = cell + FieldEstimator.NUMERICAL * w;
    // Outputs and their expectations lie in the output domain (infinite for staircase).
    this.outputRange = mechanism.outputHi() - mechanism.outputLo();
    this.shape = NormalApproximation.largestShape(mechanism);
    this.normalFrom = NormalApproximation.minimumCount(shape[0], shape[1]);
    int inputs = NormalApproximation.INPUTS;
    double g = 0;
    double square = 0;
    for (int i = inputs / 4; i <= inputs - inputs / 4; i++) {
      double x = mechanism.domain().lo() + w * i / inputs;
      double mean = mechanism.outputMean(x);
      g += mean;
      square += variance.meanSquare(mean, mechanism.outputVariance(x));
    }
    this.gMiddleHalf = g / (inputs - 2 * (inputs / 4) + 1);
    this.squareMiddleHalf = square / (inputs - 2 * (inputs / 4) + 1);
    double lo = mechanism.domain().lo();
    double hi = mechanism.domain().hi();
    this.squareLo = variance.meanSquare(mechanism.outputMean(lo), mechanism.outputVariance(lo));
    this.squareHi = variance.meanSquare(mechanism.outputMean(hi), mechanism.outputVariance(hi));
    BinStatistic[][] tails =
        identification == null
            ? new BinStatistic[][] {new BinStatistic[0], new BinStatistic[0]}
            : TailStatistics.of(mechanism, binning, affine);
    this.upper = new Side(tails[0], true);
    this.lower = new Side(tails[1], false);
  }

  static LinearMeanBounds of(Mechanism mechanism, FieldBinning binning, AffinePart affine) {
    return new LinearMeanBounds(mechanism, binning, affine);
  }

  /** Whether any interval exists: the mean function is monotone. */
  boolean exists() {
    return identification != null;
  }

  /** The upper end's tail statistics (possibly none); for tests. */
  BinStatistic[] upperTails() {
    return upper.tails.clone();
  }

  /** The lower end's tail statistics (possibly none); for tests. */
  BinStatistic[] lowerTails() {
    return lower.tails.clone();
  }

  /** The tail statistics' share of the upper side's error level at n outputs; for tests. */
  double upperShare(long n) {
    return 1 - upper.sharesAt(n)[0];
  }

  /** The tail statistics' share of the lower side's error level at n outputs; for tests. */
  double lowerShare(long n) {
    return 1 - lower.sharesAt(n)[0];
  }

  /**
   * The interval for a window of n outputs with this mean, mean square about the centre ({@link
   * FieldAccumulator#meanSquare}) and these bin counts; NaN ends without one.
   */
  Bounds bounds(long n, double outputMean, double meanSquare, long[] counts) {
    if (identification == null || n < 1) {
      return new Bounds(Double.NaN, Double.NaN, OUTPUT_MEAN);
    }
    double[] upperShares = upper.sharesAt(n);
    double[] lowerShares = lower.sharesAt(n);
    double sd = sd(outputMean, meanSquare);
    double hi = upper.bound(n, outputMean, sd, counts, upperShares);
    double lo = lower.bound(n, outputMean, sd, counts, lowerShares);
    if (Double.isNaN(hi) || Double.isNaN(lo)) {
      return new Bounds(Double.NaN, Double.NaN, OUTPUT_MEAN);
    }
    boolean tails = upperShares[0] < 1 || lowerShares[0] < 1;
    if (lo > hi) {
      // One of the sides missed: keep the output mean's interval.
      return outputMeanBounds(n, outputMean, meanSquare);
    }
    // The tail statistics are always studentised; the output mean in its regime.
    boolean studentised =
        (upperShares[0] == 0 || studentised(n, upperShares[0], true))
            && (lowerShares[0] == 0 || studentised(n, lowerShares[0], false));
    return new Bounds(lo, hi, MeanIntervalMethod.of(studentised, tails));
  }

  /** The standard deviation the output mean is studentised by: the window's, plus snapping. */
  private double sd(double outputMean, double meanSquare) {
    return Math.sqrt(variance.estimate(outputMean, meanSquare)) + sdSlack;
  }

  /**
   * The identified set at the window's statistics: every input mean consistent with the output mean
   * and each tail statistic at their observed values, with no allowance for sampling error. Its
   * width is the part of the interval no number of readings removes (for OGPM, readings in an end
   * band); NaN without an interval, 0 when the statistics' sets do not meet.
   */
  double identifiedWidth(long n, double outputMean, long[] counts) {
    if (identification == null || n < 1) {
      return Double.NaN;
    }
    double[] set = identification.inputMeans(outputMean, outputMean);
    double lo = set[0];
    double hi = set[1];
    for (BinStatistic[] side : new BinStatistic[][] {upper.tails, lower.tails}) {
      for (BinStatistic t : side) {
        double[] tail = t.identifiedMeans(counts, n);
        lo = Math.max(lo, tail[0]);
        hi = Math.min(hi, tail[1]);
      }
    }
    return Math.max(0, hi - lo);
  }

  /**
   * The interval a window of n outputs is expected to give for inputs whose outputs have mean g and
   * whose tail statistics have these moments ({@code {E psi, spread of psi}}, the mixture's
   * spread): each statistic at its expectation, at the shares the count chooses, as {@link Side}
   * weighs its choice. {@code {lower, upper}}; NaN ends without an interval.
   */
  double[] expectedInterval(
      long n, double g, double meanSquare, Function<BinStatistic, double[]> moments) {
    if (identification == null || n < 1) {
      return new double[] {Double.NaN, Double.NaN};
    }
    double sd = sd(g, meanSquare);
    return new double[] {
      lower.expectedBound(n, lower.sharesAt(n), g, sd, moments),
      upper.expectedBound(n, upper.sharesAt(n), g, sd, moments)
    };
  }

  /**
   * The expected mean square about the centre of an output whose input has this mean and variance.
   */
  double meanSquare(double mean, double outputVariance) {
    return variance.meanSquare(mean, outputVariance);
  }

  /**
   * The output mean's interval alone, each side at 2.5 %, without the tail statistics: the fallback
   * when the sides cross, and a reference for comparisons.
   */
  Bounds outputMeanBounds(long n, double outputMean, double meanSquare) {
    if (identification == null || n < 1) {
      return new Bounds(Double.NaN, Double.NaN, OUTPUT_MEAN);
    }
    double sd = sd(outputMean, meanSquare);
    return new Bounds(
        plainBound(n, outputMean, sd, 1, false),
        plainBound(n, outputMean, sd, 1, true),
        MeanIntervalMethod.of(studentised(n, 1, true) && studentised(n, 1, false), false));
  }

  /** The normal quantile of one side at a share of its 2.5 %. */
  private static double quantile(double share) {
    return share == 1 ? Interval.Z95 : NORMAL.inverseCumulativeProbability(1 - ALPHA / 2 * share);
  }

  private static final org.hipparchus.distribution.continuous.NormalDistribution NORMAL =
      new org.hipparchus.distribution.continuous.NormalDistribution(0, 1);

  /**
   * One side of the output mean's interval at a share of the side's 2.5 % ({@link
   * #plainHalfWidth}); NaN when the bound is not finite (staircase's unbounded outputs where
   * neither a normal interval nor Bernstein's holds).
   */
  private double plainBound(long n, double mean, double sd, double share, boolean upperSide) {
    double half = plainHalfWidth(n, sd, share, upperSide);
    if (!Double.isFinite(half)) {
      return Double.NaN;
    }
    return upperSide
        ? identification.inputMeans(Double.NEGATIVE_INFINITY, mean + half)[1]
        : identification.inputMeans(mean - half, Double.POSITIVE_INFINITY)[0];
  }

  /**
   * Whether one side at a share of its 2.5 % is studentised at n ({@link
   * NormalApproximation#studentisedHolds}: its Edgeworth term at most a side's level at that share,
   * the {@code 1/n} term at most {@link NormalApproximation#MAX_REMAINDER} of it). Depends on n
   * alone.
   */
  private boolean studentised(long n, double share, boolean upperSide) {
    double z = quantile(share);
    return studentised(n, share, z, variance.term(z, upperSide));
  }

  /** The same at the side's quantile z and Edgeworth term, where the caller has them. */
  private boolean studentised(long n, double share, double z, double term) {
    return NormalApproximation.studentisedHolds(
        n,
        term,
        shape[0],
        shape[1],
        z,
        NormalApproximation.MAX_WIDENED_ERROR * share,
        NormalApproximation.MAX_REMAINDER * share);
  }

  /**
   * The half-width of one side at a share of its 2.5 %: studentised by the window's standard
   * deviation sd in its regime, the quantile widened by the side's Edgeworth term ({@link
   * WindowVariance}). Below it, with the largest variance: normal in its regime; below that the
   * narrower of the normal with a widened quantile ({@link NormalApproximation#widenedQuantile},
   * its accepted error scaled by the share as the tail statistics' is) and Bernstein's (whose
   * two-sided level is twice a side's). Which one depends on n alone, never on the data.
   */
  private double plainHalfWidth(long n, double sd, double share, boolean upperSide) {
    double z = quantile(share);
    double term = variance.term(z, upperSide);
    if (studentised(n, share, z, term)) {
      return (z + term / Math.sqrt(n)) * sd / Math.sqrt(n) + meanSlack;
    }
    if (n >= normalFrom) {
      return z * outputSd / Math.sqrt(n) + meanSlack;
    }
    double widened =
        NormalApproximation.widenedQuantile(
            n, shape[0], shape[1], z, NormalApproximation.MAX_ERROR * share);
    double normal =
        Double.isNaN(widened) ? Double.POSITIVE_INFINITY : widened * outputSd / Math.sqrt(n);
    double bernstein =
        NormalApproximation.bernsteinHalfWidth(n, outputSd * outputSd, outputRange, ALPHA * share);
    return Math.min(normal, bernstein) + meanSlack;
  }

  /**
   * One side: its tail statistics and, per count of the table, the shares of its error level:
   * {@code [output mean, tail 1, tail 2, ...]}, summing to 1.
   */
  private final class Side {
    final BinStatistic[] tails;
    final boolean upperSide;
    final double[][] shares = new double[COUNTS + 1][];

    final List<double[]> candidates;

    Side(BinStatistic[] tails, boolean upperSide) {
      this.tails = tails;
      this.upperSide = upperSide;
      this.candidates = candidates(tails.length);
    }

    /**
     * The shares at n: those of the largest table count at most n, chosen the first time a count of
     * the table is asked for (a pure function of the count; most estimators see few counts).
     */
    synchronized double[] sharesAt(long n) {
      int k = (int) Math.min(COUNTS, Math.floor(4 * Math.log(n) / Math.log(2) + 1e-9));
      while (k > 0 && countAt(k) > n) {
        k--;
      }
      if (shares[k] == null) {
        shares[k] = tails.length == 0 ? candidates.get(0) : best(countAt(k), candidates);
      }
      return shares[k];
    }

    /** The side's bound with these shares: the tightest of its statistics' at their shares. */
    double bound(long n, double mean, double sd, long[] counts, double[] share) {
      double bound = share[0] > 0 ? plainBound(n, mean, sd, share[0], upperSide) : Double.NaN;
      if (share[0] > 0 && Double.isNaN(bound)) {
        return Double.NaN;
      }
      for (int t = 0; t < tails.length; t++) {
        if (share[t + 1] > 0) {
          double z = quantile(share[t + 1]);
          double b =
              upperSide ? tails[t].upperMean(counts, n, z) : tails[t].lowerMean(counts, n, z);
          bound = Double.isNaN(bound) ? b : upperSide ? Math.min(bound, b) : Math.max(bound, b);
        }
      }
      return bound;
    }

    private double[] best(long n, List<double[]> candidates) {
      double[] best = candidates.get(0);
      double bestBound = expectedBound(n, best, Reference.MIDDLE_HALF);
      for (double[] share : candidates) {
        if (!usable(n, share)) {
          continue;
        }
        boolean allowed = true;
        for (Reference ends : new Reference[] {Reference.LO, Reference.HALF_EACH, Reference.HI}) {
          double plain = expectedBound(n, candidates.get(0), ends);
          double width = plainWidth(n, ends);
          allowed &= outward(expectedBound(n, share, ends) - plain) <= MAX_WIDENING * width;
        }
        double bound = expectedBound(n, share, Reference.MIDDLE_HALF);
        if (allowed && outward(bound - bestBound) < 0) {
          best = share;
          bestBound = bound;
        }
      }
      return best;
    }

    /** Whether every tail statistic with a share is studentised at it. */
    private boolean usable(long n, double[] share) {
      for (int t = 0; t < tails.length; t++) {
        if (share[t + 1] > 0
            && !tails[t].studentised(n, quantile(share[t + 1]), share[t + 1], upperSide)) {
          return false;
        }
      }
      return true;
    }

    /** A difference of bounds counted outwards: positive when the first lies further out. */
    private double outward(double difference) {
      return upperSide ? difference : -difference;
    }

    /** The side's expected bound with these shares, for the reference inputs. */
    private double expectedBound(long n, double[] share, Reference where) {
      double g = where.g(LinearMeanBounds.this);
      return expectedBound(
          n, share, g, sd(g, where.meanSquare(LinearMeanBounds.this)), where::moments);
    }

    /** The side's expected bound for inputs with output mean g and these tail moments. */
    double expectedBound(
        long n, double[] share, double g, double sd, Function<BinStatistic, double[]> tailMoments) {
      double bound = Double.NaN;
      if (share[0] > 0) {
        bound = plainBound(n, g, sd, share[0], upperSide);
      }
      for (int t = 0; t < tails.length; t++) {
        if (share[t + 1] > 0) {
          double[] moments = tailMoments.apply(tails[t]);
          double margin =
              tails[t].margin(
                  n,
                  quantile(share[t + 1]),
                  upperSide,
                  moments[0],
                  tails[t].meanSquare(moments[0], moments[1]));
          MeanIdentification psi = tails[t].identification();
          double b =
              upperSide
                  ? psi.inputMeans(Double.NEGATIVE_INFINITY, moments[0] + margin)[1]
                  : psi.inputMeans(moments[0] - margin, Double.POSITIVE_INFINITY)[0];
          bound = Double.isNaN(bound) ? b : upperSide ? Math.min(bound, b) : Math.max(bound, b);
        }
      }
      return bound;
    }

    /** The output mean's expected interval width for the reference inputs. */
    private double plainWidth(long n, Reference where) {
      double g = where.g(LinearMeanBounds.this);
      double sd = sd(g, where.meanSquare(LinearMeanBounds.this));
      double[] plain =
          identification.inputMeans(
              g - plainHalfWidth(n, sd, 1, false), g + plainHalfWidth(n, sd, 1, true));
      return plain[1] - plain[0];
    }
  }

  /** The reference inputs of the choice of shares. */
  private enum Reference {
    LO,
    HALF_EACH,
    HI,
    MIDDLE_HALF;

    /** The expected output mean. */
    double g(LinearMeanBounds bounds) {
      MeanIdentification id = bounds.identification;
      return switch (this) {
        case LO -> id.minMean();
        case HI -> id.maxMean();
        case HALF_EACH -> 0.5 * (id.minMean() + id.maxMean());
        case MIDDLE_HALF -> bounds.gMiddleHalf;
      };
    }

    /** The expected mean square about the centre. */
    double meanSquare(LinearMeanBounds bounds) {
      return switch (this) {
        case LO -> bounds.squareLo;
        case HI -> bounds.squareHi;
        case HALF_EACH -> 0.5 * (bounds.squareLo + bounds.squareHi);
        case MIDDLE_HALF -> bounds.squareMiddleHalf;
      };
    }

    /** {@code {E psi, spread of psi}} for a tail statistic (the mixture's spread). */
    double[] moments(BinStatistic s) {
      return switch (this) {
        case LO -> new double[] {s.expectationAt(0), s.sdAt(0) * s.sdAt(0)};
        case HI -> new double[] {s.expectationAt(2), s.sdAt(2) * s.sdAt(2)};
        case HALF_EACH -> {
          double between = s.expectationAt(2) - s.expectationAt(0);
          yield new double[] {
            0.5 * (s.expectationAt(0) + s.expectationAt(2)),
            0.5 * (s.sdAt(0) * s.sdAt(0) + s.sdAt(2) * s.sdAt(2)) + 0.25 * between * between
          };
        }
        case MIDDLE_HALF -> s.middleHalf();
      };
    }
  }

  /**
   * The candidate shares for m tail statistics: the output mean's share from {@link #PLAIN_SHARES},
   * the rest to one tail statistic or halved between two.
   */
  static List<double[]> candidates(int m) {
    List<double[]> list = new ArrayList<>();
    for (double plain : PLAIN_SHARES) {
      if (plain == 1 || m == 0) {
        double[] only = new double[m + 1];
        only[0] = 1;
        if (plain == 1) {
          list.add(only);
        }
        continue;
      }
      for (int t = 0; t < m; t++) {
        double[] share = new double[m + 1];
        share[0] = plain;
        share[t + 1] = 1 - plain;
        list.add(share);
      }
      if (m == 2) {
        list.add(new double[] {plain, (1 - plain) / 2, (1 - plain) / 2});
      }
    }
    return list;
  }

  /** Count k of the choice table: {@code ceil(2^(k/4))}. */
  static long countAt(int k) {
    return (long) Math.ceil(Math.pow(2, k / 4.0));
  }
}
