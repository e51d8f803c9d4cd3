package io.ogpm.estimate;

import io.ogpm.mechanism.Mechanism;

/**
 * Certified least and largest probabilities of runs of output bins over runs of inputs, on a grid
 * of cells over the domain: what the cumulative band ({@link CumulativeBands}) bounds a window's
 * shares with. A bound over a cell holds for every input in it, not only the cell's ends: on an
 * interval the window probability is a difference of two at-or-beyond probabilities, each
 * non-decreasing in the input (the output is stochastically non-decreasing in it), so on a cell it
 * lies between the differences of their values at the cell's ends taken crosswise; on a circle a
 * rotation-invariant mechanism's window probability moves with the input by at most the largest
 * density per unit, so on a cell it stays within that times half the cell of the ends' mean.
 */
final class KernelCells {
  /** About this many grid cells over the domain, a whole number per input bin. */
  static final int CELLS = 4096;

  /**
   * Most bins with a band. Finer bins are far finer than any mechanism's resolution (its central
   * piece), where a band says little, and its grid of kernels grows with the square of the bins.
   */
  static final int MAX_BINS = 500;

  private KernelCells() {}

  /**
   * Cells per input bin: at least {@link #CELLS} over the domain, a multiple of {@link
   * CumulativeBands#POINTS_PER_BIN}, so that the cumulative band's points fall on cells at even
   * fractions of a bin.
   */
  static int perBin(int bins) {
    int step = CumulativeBands.POINTS_PER_BIN;
    return step * Math.max(1, (CELLS + step * bins - 1) / (step * bins));
  }

  /**
   * Whether a mechanism's kernel can be bounded over cells at this binning: piecewise, on a circle
   * rotation invariant, and between 2 and {@link #MAX_BINS} bins.
   */
  static boolean bounds(Mechanism mechanism, FieldBinning binning) {
    return mechanism.resolvesDistributions()
        && (!binning.circular() || mechanism.isRotationInvariant())
        && binning.bins() >= 2
        && binning.bins() <= MAX_BINS;
  }

  /**
   * The grid of {@link #perBin} cells per input bin for a mechanism's kernel; null where there is
   * none (on an interval, at-or-beyond probabilities that decrease with the input).
   */
  static Cells of(BinnedKernel kernel, FieldBinning binning) {
    int perBin = perBin(binning.bins());
    try {
      return binning.circular()
          ? new CircleCells(kernel, binning, perBin)
          : new IntervalCells(kernel, binning, perBin);
    } catch (NotMonotone e) {
      return null;
    }
  }

  /** Thrown where the at-or-beyond probabilities decrease with the input: no certified band. */
  static final class NotMonotone extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotMonotone() {
      super(null, null, false, false);
    }
  }

  /** The grid: certified least and largest window probabilities over runs of cells. */
  interface Cells {
    /**
     * {@code {least, largest}} probability of the output window {@code [from, from + length)}
     * (wrapping on a circle) over every input in cells {@code [first, last)}.
     */
    double[] windowRange(int from, int length, int first, int last);
  }

  /** An interval's grid: at-or-beyond probabilities at the cells' ends. */
  static final class IntervalCells implements Cells {
    /**
     * {@code tails[g][o]}: P(output at or beyond output bin o's lower edge | the grid's point g).
     */
    private final double[][] tails;

    IntervalCells(BinnedKernel kernel, FieldBinning binning, int perBin) {
      int total = binning.bins() * perBin;
      double lo = binning.lo();
      double w = binning.width();
      this.tails = new double[total + 1][];
      for (int g = 0; g <= total; g++) {
        tails[g] = kernel.upperTails(g == total ? lo + w : lo + w * g / total);
        if (g > 0) {
          for (int o = 0; o < tails[g].length; o++) {
            if (tails[g][o] < tails[g - 1][o] - 1e-12) {
              throw new NotMonotone();
            }
          }
        }
      }
    }

    /** The at-or-beyond probabilities at the grid's points (not copied: callers only read). */
    double[][] tails() {
      return tails;
    }

    @Override
    public double[] windowRange(int from, int length, int first, int last) {
      int to = from + length;
      double least = Double.POSITIVE_INFINITY;
      double largest = Double.NEGATIVE_INFINITY;
      for (int g = first; g < last; g++) {
        // On [x_g, x_g+1]: T(from) rises and T(to) rises, so T(from) - T(to) lies between these.
        least = Math.min(least, tails[g][from] - tails[g + 1][to]);
        largest = Math.max(largest, tails[g + 1][from] - tails[g][to]);
      }
      return new double[] {least, largest};
    }
  }

  /**
   * A circle's grid: bin probabilities at the cells' ends, with the rotation-invariant Lipschitz
   * bound.
   */
  static final class CircleCells implements Cells {
    /**
     * {@code prefix[g][i]}: the probability of output bins {@code [0, i)} at the grid's point g, so
     * that a window's probability is one or two differences.
     */
    private final double[][] prefix;

    private final double drift;

    CircleCells(BinnedKernel kernel, FieldBinning binning, int perBin) {
      int total = binning.bins() * perBin;
      double lo = binning.lo();
      double w = binning.width();
      this.prefix = new double[total + 1][];
      for (int g = 0; g < total; g++) {
        double[] p = kernel.probabilities(lo + w * g / total);
        prefix[g] = new double[p.length + 1];
        for (int i = 0; i < p.length; i++) {
          prefix[g][i + 1] = prefix[g][i] + p[i];
        }
      }
      prefix[total] = prefix[0];
      // d/dx P(W | x) = f(a - x) - f(b - x) for a window [a, b): at most the largest density. The
      // sums' rounding (a few units in the last place of 1) is covered by ROUNDING.
      this.drift = kernel.maxDensity() * w / total / 2 + ROUNDING;
    }

    /** More than the rounding of a window's probability taken as a difference of prefix sums. */
    private static final double ROUNDING = 1e-12;

    @Override
    public double[] windowRange(int from, int length, int first, int last) {
      double least = Double.POSITIVE_INFINITY;
      double largest = Double.NEGATIVE_INFINITY;
      double previous = sum(prefix[first], from, length);
      for (int g = first; g < last; g++) {
        double next = sum(prefix[g + 1], from, length);
        double mean = 0.5 * (previous + next);
        least = Math.min(least, Math.min(Math.min(previous, next) - ROUNDING, mean - drift));
        largest = Math.max(largest, Math.max(Math.max(previous, next) + ROUNDING, mean + drift));
        previous = next;
      }
      return new double[] {least, largest};
    }

    /** Output bins {@code [from, from + length)}, wrapping. */
    private static double sum(double[] prefix, int from, int length) {
      int m = prefix.length - 1;
      int to = from + length;
      return to <= m ? prefix[to] - prefix[from] : prefix[m] - prefix[from] + prefix[to - m];
    }
  }
}
