package io.ogpm.estimate;

import io.ogpm.mechanism.Mechanism;

/**
 * A simultaneous 95 % band for the histogram of a window's inputs ({@link HistogramBand}), for a
 * piecewise mechanism on an interval, or a rotation-invariant one on a circle.
 *
 * <p><b>How.</b> Each input bin j has a window W_j of output bins: those that the inputs in bin j
 * reach with more probability than the inputs far from it (half the largest such excess, around its
 * peak; for OGPM the stretch all of bin j's central pieces cover), no longer than the typical
 * window, around the bin (at the ends of an interval a whole flat end shares one long run); and its
 * halves and quarters at either end, whose far side from inputs nearby the bin still tells apart.
 * The share {@code theta_j} of inputs in bin j then drives the window's expected share of outputs,
 * {@code E_P[K(W_j | x)] >= theta_j m_in + (1 - theta_j) m_out}, with {@code m_in} and {@code
 * m_out} the least window probability of an input inside and outside the bin: the dual of the
 * linear program {@code max theta_j} over all input distributions whose expected window share is at
 * most an upper confidence bound U gives {@code theta_j <= (U - m_out) / (m_in - m_out)} (weak
 * duality: this dual point bounds the program, whatever the inputs). The lower bound mirrors it
 * with the largest window probabilities, and both are sharpened by the shares summing to 1: {@code
 * theta_j >= 1 - sum of the other upper bounds}, and the other way round.
 *
 * <p><b>Simultaneous.</b> The window counts' bounds are Chernoff's ({@link ChernoffBounds}), valid
 * for inputs of different probabilities, each at {@code 5 % / F}, F the number of bounds that can
 * say anything (a window with {@code m_in <= m_out} bounds nothing and costs nothing): all hold at
 * once in at least 95 % of windows (Bonferroni), and then so does the band.
 *
 * <p><b>Certified.</b> {@code m_in}, {@code m_out} and their maxima are {@link KernelCells}' bounds
 * over every input, not only grid points. Snapping moves each edge's probability by at most {@link
 * BinnedKernel#edgeSlack()}; the bounds are widened by that at both edges.
 *
 * <p><b>Why so wide.</b> A mechanism spreads each input over its central piece, s wide (0.38 of the
 * domain at eps 1 for OGPM): bins closer than that are hard to tell apart, so the upper bound of a
 * bin near the data is about the share of inputs within s/2 of it, and a lower bound is rarely
 * above 0. Far from the data the band is narrow. It tells where inputs cannot be, at the resolution
 * the privacy allows.
 */
final class HistogramBands {
  /** The band's error level. */
  static final double ALPHA = 0.05;

  private final int bins;
  private final int outputBins;
  private final boolean circular;

  /**
   * Every bound that can say anything, with what it needs at an emission, bin by bin (bin j's from
   * {@code binStart[j]} to {@code binStart[j + 1]}), each bin's upper bounds before its lower one.
   */
  private final Bound[] bounds;

  private final int[] binStart;

  /** The most bounds of one bin. */
  private final int mostPerBin;

  private final double logInverseLevel;

  /**
   * One bound on one bin's share from one window's count: an upper bound from the least window
   * probabilities inside and outside the bin, or a lower one from the largest.
   */
  private record Bound(int bin, int from, int length, double in, double out, boolean upper) {
    /**
     * The bin's share that a bound c on the window's expected share gives: {@code (c - out) / (in -
     * out)}.
     */
    double share(double c) {
      return (c - out) / (in - out);
    }
  }

  private HistogramBands(BinnedKernel kernel, FieldBinning binning, KernelCells.Cells cells) {
    this.bins = binning.bins();
    this.outputBins = binning.outputBins();
    this.circular = binning.circular();
    int perBin = KernelCells.perBin(bins);
    double slack = 2 * kernel.edgeSlack();
    int[][] windows = new int[bins][];
    int[] lengths = new int[bins];
    int found = 0;
    double[][] atEdges = new double[bins + 1][];
    for (int j = 0; j <= bins; j++) {
      atEdges[j] =
          kernel.probabilities(
              Math.min(binning.lo() + binning.width() * j / bins, binning.lo() + binning.width()));
    }
    for (int j = 0; j < bins; j++) {
      windows[j] = window(atEdges, j);
      if (windows[j] != null) {
        lengths[found++] = windows[j][1];
      }
    }
    int typical = found == 0 ? 0 : medianOf(java.util.Arrays.copyOf(lengths, found));
    java.util.List<Bound> kept = new java.util.ArrayList<>();
    for (int j = 0; j < bins; j++) {
      int[] window = windows[j];
      if (window == null) {
        continue;
      }
      if (window[1] > typical) {
        window = centredOn(window, binning.inputBinCentre(j), binning, typical);
      }
      for (int[] part : parts(window, outputBins)) {
        double in = cells.windowRange(part[0], part[1], j * perBin, (j + 1) * perBin)[0] - slack;
        double out = outside(cells, part, j, perBin)[0] - slack;
        if (in > out) {
          kept.add(new Bound(j, part[0], part[1], in, out, true));
        }
      }
      double in = cells.windowRange(window[0], window[1], j * perBin, (j + 1) * perBin)[1] + slack;
      double out = outside(cells, window, j, perBin)[1] + slack;
      if (in > out) {
        kept.add(new Bound(j, window[0], window[1], in, out, false));
      }
    }
    this.bounds = kept.toArray(new Bound[0]);
    this.binStart = new int[bins + 1];
    for (Bound b : bounds) {
      binStart[b.bin() + 1]++;
    }
    int most = 0;
    for (int j = 0; j < bins; j++) {
      most = Math.max(most, binStart[j + 1]);
      binStart[j + 1] += binStart[j];
    }
    this.mostPerBin = most;
    this.logInverseLevel = Math.log(Math.max(1, bounds.length) / ALPHA);
  }

  /**
   * A window and its halves and quarters at either end. Where the window's whole stretch is reached
   * by the window's own bin alone, the whole is the strongest; where other inputs nearby reach part
   * of it, the part on the far side from them still tells their outputs from the bin's.
   */
  private static java.util.List<int[]> parts(int[] window, int outputBins) {
    java.util.List<int[]> parts = new java.util.ArrayList<>();
    parts.add(window);
    for (int share : new int[] {2, 4}) {
      int length = (window[1] + share - 1) / share;
      if (length < window[1]) {
        parts.add(new int[] {window[0], length});
        parts.add(new int[] {Math.floorMod(window[0] + window[1] - length, outputBins), length});
      }
    }
    return parts;
  }

  /**
   * The band's machinery for a mechanism and binning; null where there is none (not piecewise, or
   * on a circle not rotation invariant, or on an interval not stochastically monotone).
   */
  static HistogramBands of(Mechanism mechanism, FieldBinning binning) {
    if (!KernelCells.bounds(mechanism, binning)) {
      return null;
    }
    BinnedKernel kernel = new BinnedKernel(mechanism, binning);
    return of(kernel, binning, KernelCells.of(kernel, binning));
  }

  /** The band's machinery on a grid of cells already built; null where there is none. */
  static HistogramBands of(BinnedKernel kernel, FieldBinning binning, KernelCells.Cells cells) {
    return cells == null ? null : new HistogramBands(kernel, binning, cells);
  }

  /** The band for a window of n outputs with these bin counts; null for an empty window. */
  HistogramBand band(long[] counts, long n) {
    return band(counts, n, true);
  }

  /**
   * The band, computing each Chernoff bound ({@link ChernoffBounds}, a root found by Newton's
   * method: most of the band's cost) only where it can tighten its bin's bound, or, without {@code
   * skip}, every one (the reference the skipping is tested against: the two are equal bit for bit).
   *
   * <p>A window's confidence bound lies beyond a floor known without solving ({@link
   * ChernoffBounds#upperFloor}), so a bound gives its bin at least {@code (floor - out) / (in -
   * out)}. A bin's upper bounds are tried from the least such floor up, and the rest are skipped
   * once their floors reach the tightest bound found: each could only give more. The lower bound
   * mirrors it with the ceiling {@code 1 - floor(n - k)}.
   */
  HistogramBand band(long[] counts, long n, boolean skip) {
    if (n <= 0) {
      return null;
    }
    WindowCounts outputs = new WindowCounts(counts);
    double[] upper = new double[bins];
    double[] lower = new double[bins];
    long[] windowCounts = new long[mostPerBin];
    double[] floors = new double[mostPerBin];
    for (int j = 0; j < bins; j++) {
      upper[j] = 1;
      int count = 0;
      for (int b = binStart[j]; b < binStart[j + 1]; b++) {
        Bound bound = bounds[b];
        long k = outputs.of(bound.from(), bound.length());
        if (!bound.upper()) {
          // The bin's one lower bound: computed where its ceiling could lift the bin above 0.
          double ceiling =
              skip ? bound.share(1 - ChernoffBounds.upperFloor(n - k, n, logInverseLevel)) : 1;
          if (ceiling > 0) {
            lower[j] =
                Math.max(lower[j], clamp(bound.share(ChernoffBounds.lower(k, n, logInverseLevel))));
          }
          continue;
        }
        windowCounts[count] = k;
        floors[count] = skip ? bound.share(ChernoffBounds.upperFloor(k, n, logInverseLevel)) : 0;
        count++;
      }
      // The upper bounds come first among the bin's bounds: the i-th of them is bounds[binStart[j]
      // + i].
      for (int tried = 0; tried < count; tried++) {
        int next = -1;
        for (int i = 0; i < count; i++) {
          if (floors[i] < upper[j] && (next < 0 || floors[i] < floors[next])) {
            next = i;
          }
        }
        if (next < 0) {
          break;
        }
        Bound bound = bounds[binStart[j] + next];
        double u = ChernoffBounds.upper(windowCounts[next], n, logInverseLevel);
        upper[j] = Math.min(upper[j], clamp(bound.share(u)));
        floors[next] = Double.POSITIVE_INFINITY;
      }
    }
    double sumUpper = 0;
    double sumLower = 0;
    for (int j = 0; j < bins; j++) {
      sumUpper += upper[j];
      sumLower += lower[j];
    }
    double[] finalLower = new double[bins];
    double[] finalUpper = new double[bins];
    for (int j = 0; j < bins; j++) {
      finalLower[j] = Math.max(lower[j], clamp(1 - (sumUpper - upper[j])));
      finalUpper[j] = Math.min(upper[j], clamp(1 - (sumLower - lower[j])));
    }
    return new HistogramBand(finalLower, finalUpper);
  }

  private static int medianOf(int[] values) {
    java.util.Arrays.sort(values);
    return values[values.length / 2];
  }

  /**
   * A run longer than the typical window cut to the typical length around the output bin nearest
   * the input bin's centre. Near the ends of an interval, where the mechanism clamps, every input
   * of the flat end shares one long run; a run as long as elsewhere, around the bin itself, keeps
   * outputs of inputs further in out of it.
   */
  private int[] centredOn(int[] window, double centre, FieldBinning binning, int length) {
    int nearest = binning.outputBin(centre);
    int offset = Math.floorMod(nearest - window[0], outputBins);
    int start = offset - length / 2;
    start = Math.max(0, Math.min(window[1] - length, start));
    return new int[] {index(window[0] + start), length};
  }

  private static double clamp(double v) {
    return Math.min(1, Math.max(0, v));
  }

  /**
   * The window of input bin j, {@code {first output bin, length}}: the run of output bins around
   * the one that the bin's inputs reach with the most probability above the inputs far from it,
   * while the excess stays at least half that; null when no output bin has an excess. A choice only
   * (what the window's bounds are is certified over every input afterwards): the bin's inputs by
   * its two edges, far inputs by the domain's ends (or, on a circle, the far side), as a bump's
   * probability for one output bin rises and falls with the input.
   */
  private int[] window(double[][] atEdges, int j) {
    double[] excess = new double[outputBins];
    int best = -1;
    double[] far = circular ? atEdges[Math.floorMod(j + bins / 2, bins)] : null;
    for (int o = 0; o < outputBins; o++) {
      double in = Math.min(atEdges[j][o], atEdges[j + 1][o]);
      double out = circular ? far[o] : Math.min(atEdges[0][o], atEdges[bins][o]);
      excess[o] = in - out;
      if (excess[o] > 0 && (best < 0 || excess[o] > excess[best])) {
        best = o;
      }
    }
    if (best < 0) {
      return null;
    }
    double keep = excess[best] / 2;
    int from = best;
    int length = 1;
    while (length < outputBins && excess[index(from - 1)] >= keep && (circular || from > 0)) {
      from = index(from - 1);
      length++;
    }
    while (length < outputBins
        && excess[index(from + length)] >= keep
        && (circular || from + length < outputBins)) {
      length++;
    }
    return new int[] {from, length};
  }

  private int index(int o) {
    return Math.floorMod(o, outputBins);
  }

  /** {@code {least, largest}} window probability over the inputs outside bin j. */
  private double[] outside(KernelCells.Cells cells, int[] window, int j, int perBin) {
    int total = bins * perBin;
    double[] before = j == 0 ? null : cells.windowRange(window[0], window[1], 0, j * perBin);
    double[] after =
        j == bins - 1 ? null : cells.windowRange(window[0], window[1], (j + 1) * perBin, total);
    if (before == null) {
      return after;
    }
    if (after == null) {
      return before;
    }
    return new double[] {Math.min(before[0], after[0]), Math.max(before[1], after[1])};
  }
}
