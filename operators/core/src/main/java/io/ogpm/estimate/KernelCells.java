package io.ogpm.estimate;

import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.PiecewiseDistribution;

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
     * {@code tails[g][o]}: P(output at or beyond output bin o's lower edge | the grid's point g),
     * made non-decreasing in g (the true ones are: the output is stochastically non-decreasing in
     * the input); each within {@link #tolerance} of the true value.
     */
    private final double[][] tails;

    /**
     * How far a tail here may be from the true one: three times the largest rounding of a
     * distribution's masses on the grid ({@link PiecewiseDistribution#massTolerance}), once for the
     * computed value and twice for lifting it to a running maximum where rounding made it fall.
     */
    private final double tolerance;

    IntervalCells(BinnedKernel kernel, FieldBinning binning, int perBin) {
      int total = binning.bins() * perBin;
      double lo = binning.lo();
      double w = binning.width();
      this.tails = new double[total + 1][];
      double rounding = 0;
      for (int g = 0; g <= total; g++) {
        double x = g == total ? lo + w : lo + w * g / total;
        tails[g] = kernel.upperTails(x);
        rounding = Math.max(rounding, kernel.distribution(x).massTolerance());
      }
      for (int g = 1; g <= total; g++) {
        for (int o = 0; o < tails[g].length; o++) {
          if (tails[g][o] < tails[g - 1][o] - 2 * rounding) {
            throw new NotMonotone();
          }
          tails[g][o] = Math.max(tails[g][o], tails[g - 1][o]);
        }
      }
      this.tolerance = 3 * rounding;
    }

    /** The at-or-beyond probabilities at the grid's points (not copied: callers only read). */
    double[][] tails() {
      return tails;
    }

    /** How far each of {@link #tails} may be from the true probability. */
    double tolerance() {
      return tolerance;
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
      return new double[] {least - 2 * tolerance, largest + 2 * tolerance};
    }
  }

  /**
   * A circle's grid, for a rotation-invariant mechanism: an input x sees the output window [a, b)
   * as the input {@code lo} sees [a - (x - lo), b - (x - lo)). Over a cell of inputs the shifted
   * windows all hold their intersection and lie in their union, so the window's probability lies
   * between the masses of those two arcs at {@code lo}: exact, whatever the mechanism's density (a
   * bound by the largest density times the cell's width says nothing once the central piece is
   * narrower than a cell).
   */
  static final class CircleCells implements Cells {
    private final PiecewiseDistribution atStart;
    private final double lo;
    private final double width;
    private final double outputWidth;
    private final double cell;
    private final double margin;

    /**
     * Where every output edge is a cell edge: {@code cells[i]}, the mass at {@code lo} of [lo, lo +
     * i cells), so that an arc between cell edges is a difference; else null.
     */
    private final double[] cumulative;

    private final int cellsPerOutputBin;

    CircleCells(BinnedKernel kernel, FieldBinning binning, int perBin) {
      this.lo = binning.lo();
      this.width = binning.width();
      this.atStart = kernel.distribution(lo);
      int total = binning.bins() * perBin;
      this.outputWidth = width / binning.outputBins();
      this.cell = width / total;
      // The masses' rounding: each a sum of a few pieces' products, or of up to a few thousand
      // cells' masses.
      this.margin = atStart.massTolerance() + 1e-12;
      if (total % binning.outputBins() == 0) {
        this.cellsPerOutputBin = total / binning.outputBins();
        this.cumulative = new double[total + 1];
        for (int i = 0; i < total; i++) {
          cumulative[i + 1] = cumulative[i] + arcMass(lo + i * cell, lo + (i + 1) * cell);
        }
      } else {
        this.cellsPerOutputBin = 0;
        this.cumulative = null;
      }
    }

    @Override
    public double[] windowRange(int from, int length, int first, int last) {
      if (cumulative != null) {
        int a = from * cellsPerOutputBin;
        int b = a + length * cellsPerOutputBin;
        // Shifts s = x - lo over cells [first, last): from first to last cells.
        double least = Math.max(0, cellArc(a - first, b - last) - margin);
        double largest = Math.min(1, cellArc(a - last, b - first) + margin);
        return new double[] {least, largest};
      }
      double a = lo + from * outputWidth;
      double b = a + length * outputWidth;
      double least = Math.max(0, arcMass(a - first * cell, b - last * cell) - margin);
      double largest = Math.min(1, arcMass(a - last * cell, b - first * cell) + margin);
      return new double[] {least, largest};
    }

    /** The mass of the arc of cells [u, v), in cell units, wrapping; as {@link #arcMass}. */
    private double cellArc(int u, int v) {
      int total = cumulative.length - 1;
      if (v - u >= total) {
        return 1;
      }
      if (v <= u) {
        return 0;
      }
      return around(v) - around(u);
    }

    /** The mass of [lo, lo + i cells), counting whole turns: periodic beyond one. */
    private double around(int i) {
      int total = cumulative.length - 1;
      return Math.floorDiv(i, total) + cumulative[Math.floorMod(i, total)];
    }

    /** The mass at {@code lo} of the arc [u, v) (empty where v <= u, the whole circle from w). */
    private double arcMass(double u, double v) {
      if (v - u >= width) {
        return 1;
      }
      if (v <= u) {
        return 0;
      }
      double mass = 0;
      for (PiecewiseDistribution.Piece piece : atStart.pieces()) {
        // The arc's copies [u + k w, v + k w) that meet the piece.
        long k = (long) Math.floor((piece.from() - v) / width);
        for (; u + k * width < piece.to(); k++) {
          double overlap =
              Math.min(piece.to(), v + k * width) - Math.max(piece.from(), u + k * width);
          if (overlap > 0) {
            mass += piece.density() * overlap;
          }
        }
      }
      for (PiecewiseDistribution.Atom atom : atStart.atoms()) {
        double at = u + mod(atom.at() - u, width);
        if (at < v) {
          mass += atom.mass();
        }
      }
      return mass;
    }

    private static double mod(double x, double m) {
      double r = x % m;
      return r < 0 ? r + m : r;
    }
  }
}
