package io.ogpm.estimate;

import io.ogpm.mechanism.Mechanism;

/**
 * The 95 % interval for a window's linear mean: every input mean consistent with a few statistics
 * of the window's outputs, each bounded at its share of the error level.
 *
 * <p><b>The output mean</b> (method {@code output-mean}). The outputs' mean has expectation {@code
 * E_P[g]}, g the mean function, and variance at most {@code maxVar / n}: its normal interval (or
 * Bernstein's below the normal regime, {@link NormalApproximation}) holds {@code E_P[g]}, and the
 * inputs' mean lies in its identification ({@link MeanIdentification}). For OGPM that interval
 * cannot shrink below the flat ends of g: inputs in the first (last) {@code s/2} of the domain give
 * the same outputs as the end of the flat part, so a mean in the middle could be any mix of both
 * ends, whatever n.
 *
 * <p><b>End tails</b> (method {@code output-mean-and-tails}). Where g is not affine up to the end
 * of the domain (ogpm, t-pm, t-sw), the window's outputs also say how much input mass can sit in
 * the flat end: mass there puts outputs in the last stretch of the output domain, which inputs in
 * the middle reach only at the background density. For the upper end of the interval, the
 * statistic {@code psi = y~ + kappa [y~ beyond c]} of one output's bin centre y~ adds kappa for an
 * output at or beyond the threshold c near the upper end: its expectation {@code Psi(x)} rises
 * over the flat end as g rises in the middle, so its identification no longer allows a flat end's
 * worth of mass for free ({@link BinStatistic}). kappa is what restores the slope: {@code kappa =
 * (b (hi - t) - (Psi0(hi) - Psi0(t))) / (T(hi) - T(mid))}, t the end of g's affine part, b its
 * slope, Psi0 the expectation of y~ and T that of the tail indicator. The threshold c is the
 * output bin edge nearest to the middle of the flat end, {@code hi - d/2} with {@code d = hi - t}
 * (s/4 from the end for OGPM). The lower end mirrors it ({@code psi = y~ - kappa [y~ below c]}).
 *
 * <p><b>Error level, split from the count.</b> Each side of the interval holds at 2.5 %. A side
 * takes the tighter of the output mean's bound and the tail statistic's, with its 2.5 % split
 * between them (Bonferroni: it misses only when one of them misses), or one of them alone with all
 * of it. The tail statistic costs extra noise where the end correction buys nothing, for inputs
 * piled at the far end, and splitting costs both some width; which is best depends on the count.
 * So for each count, before any data, each side takes the split ({@link #SHARES}: the tail
 * statistic's share) whose expected bound is tightest for inputs in the middle of the domain,
 * among those whose expected bound, for inputs all at lo, all at hi or half at each, lies at most
 * {@value #MAX_WIDENING} of the output mean's interval width further out than the output mean's
 * own bound ({@link Side}). Expected: the window's statistics at their expectations (a tail
 * statistic's spread at its expectation, the mixture's). A tail statistic takes part only in its
 * normal regime at its share. The choice depends on the count alone, never on the data; with the
 * share 0 a side is the output mean's, as it always was.
 *
 * <p>A tail statistic's variance is the spread of psi over the window's outputs, at least the
 * average variance given the inputs in expectation (law of total variance). (Should the two
 * sides cross, which needs one of them to miss, the output mean's interval is kept.)
 */
final class LinearMeanBounds {
  /** The error level of the interval. */
  static final double ALPHA = 0.05;
  /** How much further out than the output mean's a side's bound may be expected to lie at the ends, as a share of the output mean's interval width. */
  static final double MAX_WIDENING = 0.05;
  /** The tail statistic's candidate shares of a side's error level. */
  static final double[] SHARES = {0, 0.5, 0.8, 0.9, 1};
  /** Counts of the choice table: {@code ceil(2^(k/4))} for k up to this. */
  static final int COUNTS = 160;

  /** The interval and what it used. */
  record Bounds(double lower, double upper, String method) {}

  static final String OUTPUT_MEAN = "output-mean";
  static final String OUTPUT_MEAN_AND_TAILS = "output-mean-and-tails";

  private final Mechanism mechanism;
  private final MeanIdentification identification;
  private final double outputSd;
  private final double meanSlack;
  private final double outputRange;
  private final long normalFrom;
  private final double gMid;
  private final Side upper;
  private final Side lower;

  private LinearMeanBounds(Mechanism mechanism, FieldBinning binning, AffinePart affine) {
    double w = mechanism.domain().width();
    double cell = mechanism.cellWidth();
    this.mechanism = mechanism;
    this.identification = MeanIdentification.of(mechanism);
    this.outputSd = Math.sqrt(mechanism.maxOutputVariance()) + cell + Math.sqrt(FieldEstimator.NUMERICAL) * w;
    this.meanSlack = cell + FieldEstimator.NUMERICAL * w;
    // Outputs and their expectations lie in the output domain (infinite for staircase).
    this.outputRange = mechanism.outputHi() - mechanism.outputLo();
    this.normalFrom = NormalApproximation.minimumCount(mechanism);
    this.gMid = mechanism.outputMean(0.5 * (mechanism.domain().lo() + mechanism.domain().hi()));
    BinStatistic[] tails = identification == null ? new BinStatistic[2] : TailStatistics.of(mechanism, binning, affine);
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

  /** The upper end's tail statistic, or null; for tests. */
  BinStatistic upperTail() {
    return upper.tail;
  }

  /** The lower end's tail statistic, or null; for tests. */
  BinStatistic lowerTail() {
    return lower.tail;
  }

  /** The tail statistic's share of the upper side's error level at n outputs; for tests. */
  double upperShare(long n) {
    return upper.shareAt(n);
  }

  /** The tail statistic's share of the lower side's error level at n outputs; for tests. */
  double lowerShare(long n) {
    return lower.shareAt(n);
  }

  /** The interval for a window of n outputs with this mean and these bin counts; NaN ends without one. */
  Bounds bounds(long n, double outputMean, long[] counts) {
    if (identification == null || n < 1) {
      return new Bounds(Double.NaN, Double.NaN, OUTPUT_MEAN);
    }
    double upperShare = upper.shareAt(n);
    double lowerShare = lower.shareAt(n);
    double hi = plainBound(n, outputMean, 1 - upperShare, true);
    double lo = plainBound(n, outputMean, 1 - lowerShare, false);
    if (Double.isNaN(hi) && upperShare < 1 || Double.isNaN(lo) && lowerShare < 1) {
      return new Bounds(Double.NaN, Double.NaN, OUTPUT_MEAN);
    }
    if (upperShare > 0) {
      hi = minKeepingNumbers(hi, upper.tail.upperMean(counts, n, quantile(upperShare)));
    }
    if (lowerShare > 0) {
      lo = -minKeepingNumbers(-lo, -lower.tail.lowerMean(counts, n, quantile(lowerShare)));
    }
    if (lo > hi) {
      // One of the sides missed: keep the output mean's interval.
      return new Bounds(plainBound(n, outputMean, 1, false), plainBound(n, outputMean, 1, true), OUTPUT_MEAN);
    }
    return new Bounds(lo, hi, upperShare > 0 || lowerShare > 0 ? OUTPUT_MEAN_AND_TAILS : OUTPUT_MEAN);
  }

  /** The smaller of two bounds, where a NaN one (a share of 0) does not count. */
  private static double minKeepingNumbers(double a, double b) {
    return Double.isNaN(a) ? b : Math.min(a, b);
  }

  /** The normal quantile of one side at a share of its 2.5 %. */
  private static double quantile(double share) {
    return share == 1 ? Interval.Z95 : NORMAL.inverseCumulativeProbability(1 - ALPHA / 2 * share);
  }

  private static final org.hipparchus.distribution.continuous.NormalDistribution NORMAL =
      new org.hipparchus.distribution.continuous.NormalDistribution(0, 1);

  /**
   * One side of the output mean's interval at a share of the side's 2.5 %: normal in its regime,
   * else Bernstein; NaN for a share of 0, or when the bound is not finite (staircase's unbounded
   * outputs below the normal regime).
   */
  private double plainBound(long n, double mean, double share, boolean upperSide) {
    if (share <= 0) {
      return Double.NaN;
    }
    double half = plainHalfWidth(n, share);
    if (!Double.isFinite(half)) {
      return Double.NaN;
    }
    return upperSide
        ? identification.inputMeans(Double.NEGATIVE_INFINITY, mean + half)[1]
        : identification.inputMeans(mean - half, Double.POSITIVE_INFINITY)[0];
  }

  /** The half-width of one side at a share of its 2.5 % (Bernstein's two-sided level is twice a side's). */
  private double plainHalfWidth(long n, double share) {
    return (n >= normalFrom
        ? quantile(share) * outputSd / Math.sqrt(n)
        : NormalApproximation.bernsteinHalfWidth(n, outputSd * outputSd, outputRange, ALPHA * share)) + meanSlack;
  }

  /** One side: its tail statistic and, per count of the table, the tail statistic's share. */
  private final class Side {
    final BinStatistic tail;
    final boolean upperSide;
    final double[] shares = new double[COUNTS + 1];

    Side(BinStatistic tail, boolean upperSide) {
      this.tail = tail;
      this.upperSide = upperSide;
      if (tail != null) {
        for (int k = 0; k <= COUNTS; k++) {
          shares[k] = bestShare(countAt(k));
        }
      }
    }

    /** The share at n: that of the largest table count at most n. */
    double shareAt(long n) {
      if (tail == null) {
        return 0;
      }
      int k = (int) Math.min(COUNTS, Math.floor(4 * Math.log(n) / Math.log(2) + 1e-9));
      while (k > 0 && countAt(k) > n) {
        k--;
      }
      return shares[k];
    }

    private double bestShare(long n) {
      double best = 0;
      double bestBound = expectedBound(n, 0, 0.5, true);
      for (double share : SHARES) {
        if (share == 0 || n < tail.normalFrom(quantile(share), NormalApproximation.MAX_ERROR * share)) {
          continue;
        }
        boolean allowed = true;
        for (double atHi : new double[] {0, 0.5, 1}) {
          double plain = expectedBound(n, 0, atHi, false);
          double width = expectedBound(n, 0, atHi, false, true) ;
          double excess = outward(expectedBound(n, share, atHi, false) - plain);
          allowed &= excess <= MAX_WIDENING * width;
        }
        double bound = expectedBound(n, share, 0.5, true);
        if (allowed && outward(bound - bestBound) < 0) {
          best = share;
          bestBound = bound;
        }
      }
      return best;
    }

    /** A difference of bounds counted outwards: positive when the first lies further out. */
    private double outward(double difference) {
      return upperSide ? difference : -difference;
    }

    private double expectedBound(long n, double share, double where, boolean middle) {
      return expectedBound(n, share, where, middle, false);
    }

    /**
     * The side's expected bound with the tail statistic's share, for inputs in the middle (where =
     * 0.5, middle = true) or a share {@code where} of them at hi and the rest at lo; with {@code
     * width}, instead, the output mean's expected interval width there.
     */
    private double expectedBound(long n, double share, double where, boolean middle, boolean width) {
      double g = middle ? gMid : (1 - where) * identification.minMean() + where * identification.maxMean();
      double half = plainHalfWidth(n, 1);
      if (width) {
        double[] plain = identification.inputMeans(g - half, g + half);
        return plain[1] - plain[0];
      }
      double plain = share == 1 ? Double.NaN : plainBound(n, g, 1 - share, upperSide);
      if (share == 0) {
        return plain;
      }
      double expected;
      double spread;
      if (middle) {
        expected = tail.expectationAt(1);
        spread = tail.sdAt(1) * tail.sdAt(1);
      } else {
        expected = (1 - where) * tail.expectationAt(0) + where * tail.expectationAt(2);
        double between = tail.expectationAt(2) - tail.expectationAt(0);
        spread = (1 - where) * tail.sdAt(0) * tail.sdAt(0) + where * tail.sdAt(2) * tail.sdAt(2)
            + where * (1 - where) * between * between;
      }
      double margin = quantile(share) * Math.sqrt(spread / n) + tail.slack();
      MeanIdentification psi = tail.identification();
      double bound = upperSide
          ? psi.inputMeans(Double.NEGATIVE_INFINITY, expected + margin)[1]
          : psi.inputMeans(expected - margin, Double.POSITIVE_INFINITY)[0];
      return share == 1 ? bound : upperSide ? Math.min(plain, bound) : Math.max(plain, bound);
    }
  }

  /** Count k of the choice table: {@code ceil(2^(k/4))}. */
  static long countAt(int k) {
    return (long) Math.ceil(Math.pow(2, k / 4.0));
  }
}
