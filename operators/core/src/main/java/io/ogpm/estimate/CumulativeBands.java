package io.ogpm.estimate;

import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;

/**
 * A simultaneous 95 % band for the cumulative distribution of a window's inputs ({@link
 * CumulativeBand}), for a piecewise mechanism on an interval, or a rotation-invariant one on a
 * circle (there the share of the arc from the domain's start).
 *
 * <p><b>Why cumulative.</b> A mechanism spreads each input over its central piece; shares of single
 * bins narrower than that are barely identified (no output window tells one input bin from its
 * neighbours), but the share of inputs below a point is: moving inputs across the point moves a
 * whole run of outputs. So the band bounds the histogram too, at the resolution the data supports:
 * the share between two points lies in {@link CumulativeBand#share}.
 *
 * <p><b>How.</b> Let {@code F(t)} be the share of the window's inputs in {@code S = [lo, t]}. For
 * every output window W (on an interval: the outputs below an output bin's edge; on a circle: an
 * arc of output bins starting at or a little before the domain's start), the window's expected
 * share of outputs is {@code E = F(t) a + (1 - F(t)) b} for some {@code a} between the least and
 * largest probability of W over the inputs in S, and {@code b} likewise over the inputs outside S.
 * So a confidence bound U on E gives {@code F(t) <= (U - inf_out) / (inf_in - inf_out)} where
 * {@code inf_in > inf_out}, and {@code F(t) >= (inf_out - U) / (inf_out - inf_in)} where {@code
 * inf_in < inf_out}; a lower confidence bound L mirrors both with the largest probabilities. Each
 * is the value of a dual point of the linear program {@code max (min) F(t)} over every input
 * distribution whose expected window share lies in {@code [L, U]}: weak duality makes it a bound
 * whatever the inputs. The band at t is the tightest over all windows, then made monotone ({@code
 * F} never decreases, so an upper bound at a later point holds here too, and a lower one at an
 * earlier point), with {@code F(hi) = 1} on an interval and on a circle.
 *
 * <p><b>Several windows at once.</b> On an interval, where a single window's bound is loose (high
 * epsilon, large windows), a point's bound may combine several prefix windows: {@link
 * CdfCertificates} holds, for each point, a few dual points of the same linear program over every
 * window at once, solved at construction for design data sets and each certified over every input
 * ({@link CertifiedConstant}); an emission takes the tightest of them and of the single-window
 * ones. The window statistics they read are the same bounds, widened by the snapping slack, so the
 * error level is unchanged.
 *
 * <p><b>Simultaneous.</b> Every window's two bounds are Chernoff's ({@link ChernoffBounds}), valid
 * for outputs of different probabilities, each at {@code 5 % / B}, B the number of window bounds:
 * all hold at once in at least 95 % of windows (Bonferroni), and then so does every point's bound,
 * at any number of points. So quantiles and exceedance shares read off the band hold jointly with
 * it.
 *
 * <p><b>Certified.</b> The least and largest window probabilities over S and outside it are {@link
 * KernelCells}' bounds over every input of a cell, not only the grid's points, widened at each
 * window edge by {@link BinnedKernel#edgeSlack()} for snapping.
 */
final class CumulativeBands {
  /** The band's error level. */
  static final double ALPHA = 0.05;

  /** The band's points per input bin: its edges and quarters, up to {@link #MAX_POINTS}. */
  static final int POINTS_PER_BIN = 4;

  /**
   * Most points, so that the band's size and its certificates' programs stay bounded at fine bins
   * (far finer than any mechanism resolves).
   */
  static final int MAX_POINTS = 201;

  /**
   * Every this many points has certificate families: their programs are the costly part of building
   * a band, and the points between take the families' tightness through monotonicity (an upper
   * bound at the next such point, a lower one at the previous).
   */
  static final int FAMILY_STRIDE = 2;

  /** Most windows on an interval (on a circle, per lead), for the same reason. */
  static final int MAX_WINDOWS = 100;

  /**
   * On a circle, the windows start this many output bins before the domain's start (at most a
   * quarter of the circle): an arc from the start holds the outputs of inputs near it only when it
   * reaches back over the part of their spread that wraps below the start. Three leads: each costs
   * an emission as much as the whole interval's band, and leads 1, 2 and 8 beside these changed the
   * band's mean width by at most 0.013 (readings by the start included).
   */
  private static final int[] CIRCLE_LEADS = {0, 4, 16};

  private final double[] points;

  /** Every how many points lies a bin's edge ({@link #reported}). */
  private final int reportEvery;

  private final int windows;
  private final int[] windowFrom;
  private final int[] windowLength;

  /**
   * Each point's two bounds from each window, at {@code 4 (k windows + w)}: {@code slope * U +
   * shift} from the window's upper confidence bound U, then {@code slope * L + shift} from its
   * lower one L; {@link #upperFromU} and {@link #upperFromL} say whether each bounds F(t_k) from
   * above or from below. A bound that says nothing is an upper one of slope 0 and shift 1.
   * Interleaved so that an emission reads one array in order.
   */
  private final double[] coefficients;

  private final boolean[] upperFromU;
  private final boolean[] upperFromL;
  private final double logInverseLevel;

  /**
   * On an interval, certificates that combine several prefix windows ({@link CdfCertificates}), for
   * each point; null on a circle.
   */
  private final CdfCertificates certificates;

  /**
   * How far a prefix window's expected share can be from the one the certificates were solved for:
   * snapping to the output grid, and the tails' rounding ({@link
   * KernelCells.IntervalCells#tolerance}).
   */
  private final double tailSlack;

  private CumulativeBands(BinnedKernel kernel, FieldBinning binning, KernelCells.Cells cells) {
    int outputBins = binning.outputBins();
    boolean circular = binning.circular();
    int bins = binning.bins();
    int perBin = KernelCells.perBin(bins);
    int total = bins * perBin;
    int[] cellOf = pointCells(bins, perBin);
    int count = cellOf.length;
    this.reportEvery =
        cellOf.length > 1 && cellOf[1] * POINTS_PER_BIN == perBin ? POINTS_PER_BIN : 1;
    this.points = new double[count];
    for (int k = 0; k < count; k++) {
      points[k] =
          k == count - 1
              ? binning.lo() + binning.width()
              : binning.lo() + binning.width() * cellOf[k] / total;
    }
    // Windows end on every stride-th output edge: at most about MAX_WINDOWS of them.
    int stride = (outputBins - 2) / MAX_WINDOWS + 1;
    java.util.List<int[]> chosen = new java.util.ArrayList<>();
    if (circular) {
      for (int lead : CIRCLE_LEADS) {
        if (lead * stride > outputBins / 4) {
          break;
        }
        for (int length = stride; length < outputBins; length += stride) {
          chosen.add(new int[] {Math.floorMod(-lead * stride, outputBins), length});
        }
      }
    } else {
      for (int o = stride; o < outputBins; o += stride) {
        chosen.add(new int[] {0, o});
      }
    }
    this.windows = chosen.size();
    this.windowFrom = new int[windows];
    this.windowLength = new int[windows];
    this.coefficients = new double[4 * count * windows];
    this.upperFromU = new boolean[count * windows];
    this.upperFromL = new boolean[count * windows];
    double slack = 2 * kernel.edgeSlack();
    double[] least = new double[total + 1];
    double[] largest = new double[total + 1];
    for (int w = 0; w < windows; w++) {
      windowFrom[w] = chosen.get(w)[0];
      windowLength[w] = chosen.get(w)[1];
      // Running extremes from the start (index g: cells [0, g)) and from the end (cells [g,
      // total)).
      double[] leastBefore = new double[total + 1];
      double[] largestBefore = new double[total + 1];
      leastBefore[0] = Double.POSITIVE_INFINITY;
      largestBefore[0] = Double.NEGATIVE_INFINITY;
      for (int g = 0; g < total; g++) {
        double[] r = cells.windowRange(windowFrom[w], windowLength[w], g, g + 1);
        least[g] = r[0];
        largest[g] = r[1];
        leastBefore[g + 1] = Math.min(leastBefore[g], r[0]);
        largestBefore[g + 1] = Math.max(largestBefore[g], r[1]);
      }
      double leastAfter = Double.POSITIVE_INFINITY;
      double largestAfter = Double.NEGATIVE_INFINITY;
      for (int k = count - 1, g = total; k >= 0; k--) {
        while (g > cellOf[k]) {
          g--;
          leastAfter = Math.min(leastAfter, least[g]);
          largestAfter = Math.max(largestAfter, largest[g]);
        }
        // S = [lo, t_k] is cells [0, cellOf[k]) (with t_k itself, the last cell's end); outside it
        // lies in cells [cellOf[k], total). At t_0 = lo, S is the one point lo, inside cell 0.
        double infIn = leastBefore[Math.max(cellOf[k], 1)];
        double supIn = largestBefore[Math.max(cellOf[k], 1)];
        double infOut = leastAfter;
        double supOut = largestAfter;
        set(k * windows + w, infIn - slack, infOut - slack, supIn + slack, supOut + slack);
      }
    }
    this.logInverseLevel = Math.log(2.0 * windows / ALPHA);
    this.certificates =
        cells instanceof KernelCells.IntervalCells interval
            ? CdfCertificates.build(
                windowTails(interval.tails(), windowLength), certifiedCells(cellOf))
            : null;
    this.tailSlack =
        kernel.edgeSlack()
            + (cells instanceof KernelCells.IntervalCells interval ? interval.tolerance() : 0);
  }

  /**
   * The cells of the points with certificate families: every {@link #FAMILY_STRIDE}-th point from
   * the first (the domain's end needs none: F is 1 there).
   */
  private static int[] certifiedCells(int[] cellOf) {
    int[] cells = new int[(cellOf.length - 1) / FAMILY_STRIDE + 1];
    for (int j = 0; j < cells.length; j++) {
      cells[j] = cellOf[j * FAMILY_STRIDE];
    }
    return cells;
  }

  /**
   * The grid cells of the band's points: {@link #POINTS_PER_BIN} a bin where the cells allow and
   * the bins are at most {@code (MAX_POINTS - 1) / POINTS_PER_BIN}; else every few bins' edges, at
   * most about {@link #MAX_POINTS} points; always the domain's end.
   */
  private static int[] pointCells(int bins, int perBin) {
    int total = bins * perBin;
    int step;
    if (perBin % POINTS_PER_BIN == 0 && bins * POINTS_PER_BIN < MAX_POINTS) {
      step = perBin / POINTS_PER_BIN;
    } else {
      step = perBin * ((bins - 1) / (MAX_POINTS - 1) + 1);
    }
    int count = (total + step - 1) / step + 1;
    int[] cells = new int[count];
    for (int k = 0; k < count; k++) {
      cells[k] = Math.min(total, k * step);
    }
    return cells;
  }

  /**
   * The prefix windows' at-or-beyond probabilities, as {@link CdfCertificates} takes them: column
   * {@code w + 1} is the share at or beyond window w's end, with the trivial columns 1 and 0
   * around.
   */
  private static double[][] windowTails(double[][] tails, int[] windowEnds) {
    double[][] chosen = new double[tails.length][windowEnds.length + 2];
    for (int g = 0; g < tails.length; g++) {
      chosen[g][0] = 1;
      for (int w = 0; w < windowEnds.length; w++) {
        chosen[g][w + 1] = tails[g][windowEnds[w]];
      }
    }
    return chosen;
  }

  /** The bounds of point and window i ({@link #coefficients}). */
  private void set(int i, double infIn, double infOut, double supIn, double supOut) {
    upperFromU[i] = true;
    upperFromL[i] = true;
    coefficients[4 * i + 1] = 1;
    coefficients[4 * i + 3] = 1;
    if (Double.isInfinite(infOut)) {
      // Nothing lies outside S at the domain's end, where F = 1 needs no bound.
      return;
    }
    if (infIn != infOut) {
      // U >= F infIn + (1 - F) infOut: F <= (U - infOut) / (infIn - infOut) where infIn is the
      // larger, F >= (infOut - U) / (infOut - infIn) where it is the smaller.
      upperFromU[i] = infIn > infOut;
      coefficients[4 * i] = 1 / (infIn - infOut);
      coefficients[4 * i + 1] = -infOut / (infIn - infOut);
    }
    if (supIn != supOut) {
      // L <= F supIn + (1 - F) supOut: F <= (supOut - L) / (supOut - supIn) where supIn is the
      // smaller, F >= (L - supOut) / (supIn - supOut) where it is the larger.
      upperFromL[i] = supIn < supOut;
      coefficients[4 * i + 2] = 1 / (supIn - supOut);
      coefficients[4 * i + 3] = -supOut / (supIn - supOut);
    }
  }

  /**
   * The band's machinery for a mechanism's field binning; null where there is none (a mechanism
   * whose kernel cannot be bounded over cells, {@link KernelCells#bounds}).
   */
  static CumulativeBands of(Mechanism mechanism, FieldBinning binning) {
    if (!KernelCells.bounds(mechanism, binning)) {
      return null;
    }
    return BUILT.get(
        new Key(mechanism.spec(), binning.id()),
        key -> {
          BinnedKernel kernel = new BinnedKernel(mechanism, binning);
          return of(kernel, binning, KernelCells.of(kernel, binning));
        });
  }

  private record Key(MechanismSpec spec, String binning) {}

  /**
   * Bands already built: solving the certificates' programs takes a good part of a second, and
   * every parallel instance of an aggregation builds the same fields' bands.
   */
  private static final RecentResults<Key, CumulativeBands> BUILT = new RecentResults<>(64);

  /**
   * The band's machinery on a grid of cells already built; null where there is none (no cells: a
   * mechanism whose kernel cannot be bounded over them).
   */
  static CumulativeBands of(BinnedKernel kernel, FieldBinning binning, KernelCells.Cells cells) {
    return cells == null ? null : new CumulativeBands(kernel, binning, cells);
  }

  /**
   * The band as a window reports it: at the bins' edges only (the points between, a quarter of a
   * bin apart, sharpen the quantiles read off the band, and would triple what every window writes).
   */
  CumulativeBand reported(CumulativeBand band) {
    int every = reportEvery;
    if (every == 1) {
      return band;
    }
    double[] p = band.points();
    double[] l = band.lower();
    double[] u = band.upper();
    int count = (p.length - 1) / every + 1;
    double[] points = new double[count];
    double[] lower = new double[count];
    double[] upper = new double[count];
    for (int k = 0; k < count; k++) {
      int i = Math.min(k * every, p.length - 1);
      points[k] = p[i];
      lower[k] = l[i];
      upper[k] = u[i];
    }
    return new CumulativeBand(points, lower, upper);
  }

  /**
   * The band at every point for a window of n outputs with these bin counts; null for an empty
   * window.
   */
  CumulativeBand band(long[] counts, long n) {
    return band(counts, n, null);
  }

  /**
   * The band as a query reads it, for a window of n outputs with these bin counts; null for an
   * empty window. The bounds are computed at the bins' edges (all a window reports), and at the
   * points between two edges only where one of the query's quantiles or thresholds is read there;
   * every other point takes the bounds of the computed points beside it (F never decreases: the
   * upper bound of the next, the lower bound of the previous), so the band holds at every point,
   * and the query's readings are those of the band at every point but for the bounds a skipped
   * point would have lent its neighbours. A null query computes every point.
   */
  CumulativeBand band(long[] counts, long n, DistributionQuery query) {
    if (n <= 0) {
      return null;
    }
    Emission emission = new Emission(counts, n);
    int count = points.length;
    boolean everyPoint = query == null || reportEvery == 1;
    for (int k = 0; k < count; k++) {
      if (everyPoint || k % reportEvery == 0 || k == count - 1) {
        emission.compute(k);
      }
    }
    if (!everyPoint) {
      emission.envelope();
      for (double p : query.probabilities()) {
        // The quantile's interval starts at the last point whose upper bound is below p and ends
        // at the first whose lower bound reaches p (CumulativeBand#quantile): only the skipped
        // points after the one and before the other can move either end.
        int first = Math.max(CumulativeBand.lastBelow(emission.upper, p), 0);
        int reaching = CumulativeBand.firstReaching(emission.lower, p);
        int to = reaching < 0 ? count - 1 : reaching;
        for (int k = first + 1; k < Math.min(count, first + reportEvery); k++) {
          emission.compute(k);
        }
        for (int k = Math.max(0, to - reportEvery + 1); k < to; k++) {
          emission.compute(k);
        }
      }
      for (double t : query.thresholds()) {
        // An exceedance reads the points on either side of its threshold.
        int k = CumulativeBand.firstAtOrBeyond(points, t);
        if (k < count) {
          emission.compute(k);
          if (k > 0) {
            emission.compute(k - 1);
          }
        }
      }
    }
    emission.envelope();
    double[] lower = emission.lower;
    double[] upper = emission.upper;
    for (int k = 0; k < count; k++) {
      // Bounds that cross say that this window is one of the few the band misses: report the
      // range between them rather than an empty one (both ends stay monotone).
      if (lower[k] > upper[k]) {
        double crossed = lower[k];
        lower[k] = upper[k];
        upper[k] = crossed;
      }
    }
    return new CumulativeBand(points, lower, upper);
  }

  /** One window's bounds: its windows' confidence bounds, and each point's as it is computed. */
  private final class Emission {
    private final double[] u = new double[windows];
    private final double[] l = new double[windows];
    private final double[] lowerQ;
    private final double[] upperQ;
    private final boolean[] computed = new boolean[points.length];
    private final double[] rawUpper = new double[points.length];
    private final double[] rawLower = new double[points.length];
    final double[] upper = new double[points.length];
    final double[] lower = new double[points.length];

    Emission(long[] counts, long n) {
      WindowCounts outputs = new WindowCounts(counts);
      long previous = -1;
      for (int w = 0; w < windows; w++) {
        long k = outputs.of(windowFrom[w], windowLength[w]);
        if (k == previous) {
          // The same count gives the same bounds: windows beyond the data repeat theirs.
          u[w] = u[w - 1];
          l[w] = l[w - 1];
        } else {
          u[w] = ChernoffBounds.upper(k, n, logInverseLevel);
          l[w] = ChernoffBounds.lower(k, n, logInverseLevel);
        }
        previous = k;
      }
      if (certificates != null) {
        // Tail w + 1 is the share at or beyond window w's end (windowTails).
        lowerQ = new double[windows + 2];
        upperQ = new double[windows + 2];
        for (int w = 0; w < windows; w++) {
          lowerQ[w + 1] = Math.max(0, 1 - u[w] - tailSlack);
          upperQ[w + 1] = Math.min(1, 1 - l[w] + tailSlack);
        }
      } else {
        lowerQ = null;
        upperQ = null;
      }
    }

    /** Point k's own bounds: the tightest of every window's and of its certificate families. */
    void compute(int k) {
      if (computed[k]) {
        return;
      }
      computed[k] = true;
      if (k == points.length - 1) {
        // F is 1 at the domain's end.
        rawUpper[k] = 1;
        rawLower[k] = 1;
        return;
      }
      double up = 1;
      double down = 0;
      for (int w = 0, i = k * windows; w < windows; w++, i++) {
        double fromU = coefficients[4 * i] * u[w] + coefficients[4 * i + 1];
        double fromL = coefficients[4 * i + 2] * l[w] + coefficients[4 * i + 3];
        if (upperFromU[i]) {
          up = Math.min(up, fromU);
        } else {
          down = Math.max(down, fromU);
        }
        if (upperFromL[i]) {
          up = Math.min(up, fromL);
        } else {
          down = Math.max(down, fromL);
        }
      }
      if (certificates != null && k % FAMILY_STRIDE == 0) {
        int j = k / FAMILY_STRIDE;
        up = Math.min(up, certificates.upper(j, lowerQ, upperQ));
        down = Math.max(down, 1 - certificates.upperOfComplement(j, lowerQ, upperQ));
      }
      rawUpper[k] = Math.max(0, up);
      rawLower[k] = Math.min(1, down);
    }

    /**
     * The monotone band from the points computed so far: at each point the least upper bound at or
     * after it and the largest lower bound at or before it (a point not computed lends nothing).
     */
    void envelope() {
      double least = 1;
      for (int k = points.length - 1; k >= 0; k--) {
        if (computed[k]) {
          least = Math.min(least, rawUpper[k]);
        }
        upper[k] = least;
      }
      double largest = 0;
      for (int k = 0; k < points.length; k++) {
        if (computed[k]) {
          largest = Math.max(largest, rawLower[k]);
        }
        lower[k] = largest;
      }
    }
  }
}
