package io.ogpm.estimate;

import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.PiecewiseDistribution;

/**
 * Where one output of a piecewise mechanism falls among a field's output bins, for a given input:
 * the probability of each output bin ({@link #probabilities}) and, on an interval, at-or-beyond
 * each bin's lower edge ({@link #upperTails}), exact from the pieces and atoms ({@link
 * PiecewiseDistribution#mass}), counted as {@link FieldBinning#outputBin} counts outputs: on an
 * interval the end bins take everything beyond them; on a circle every piece and atom counts where
 * it falls on the circle.
 *
 * <p>The accumulator bins the snapped output, the centre of the grid cell that holds the continuous
 * draw (moved at most half a cell). The snapped output lands in another bin than the draw only when
 * the draw is within half a cell of an edge, so each edge's at-or-beyond probability differs from
 * the continuous one by at most {@link #edgeSlack()}: the largest density times half a cell (atoms
 * sit at the ends of the domain and never straddle an interior edge).
 */
final class BinnedKernel {
  private final Mechanism mechanism;
  private final FieldBinning binning;
  private final int bins;
  private final double[] edges;
  private final double edgeSlack;
  private final double maxDensity;

  BinnedKernel(Mechanism mechanism, FieldBinning binning) {
    if (!mechanism.isPiecewise()) {
      throw new IllegalArgumentException(
          "a binned kernel needs a piecewise mechanism, not " + mechanism.spec().type().id());
    }
    this.mechanism = mechanism;
    this.binning = binning;
    this.bins = binning.outputBins();
    this.edges = new double[bins];
    for (int o = 1; o < bins; o++) {
      edges[o] = binning.outputBinLo(o);
    }
    this.maxDensity = maxDensity(mechanism);
    this.edgeSlack = maxDensity * mechanism.cellWidth() / 2;
  }

  /** Number of output bins. */
  int bins() {
    return bins;
  }

  /** The continuous output distribution for an input. */
  PiecewiseDistribution distribution(double x) {
    return mechanism.distribution(x);
  }

  /** {@code p[o] = P(output in bin o | x)}. */
  double[] probabilities(double x) {
    PiecewiseDistribution d = mechanism.distribution(x);
    if (binning.circular()) {
      return circularMasses(d);
    }
    double[] p = new double[bins];
    for (int o = 0; o < bins; o++) {
      p[o] =
          d.mass(
              o == 0 ? Double.NEGATIVE_INFINITY : binning.outputBinLo(o),
              o == bins - 1 ? Double.POSITIVE_INFINITY : binning.outputBinHi(o));
    }
    return p;
  }

  /**
   * The masses of the output bins on a circle for one input's distribution: every piece and atom
   * counted where it falls on the circle, as {@link FieldBinning#outputBin} counts outputs. So the
   * outputs of pm and sw beyond [lo, hi) and staircase's unbounded tails wrap around; an atom at
   * the top of the output domain (t-pm and t-sw truncate onto [lo, hi]) is reported just below it,
   * in the last bin.
   */
  private double[] circularMasses(PiecewiseDistribution d) {
    double lo = binning.lo();
    double w = binning.width();
    double[] mass = new double[bins];
    for (PiecewiseDistribution.Piece piece : d.pieces()) {
      // Bin by bin along the piece; unwrapped bin j is [lo + j w / m, lo + (j + 1) w / m).
      double from = piece.from();
      for (long j = (long) Math.floor((from - lo) / w * bins); from < piece.to(); j++) {
        double edge = Math.min(lo + (double) (j + 1) * w / bins, piece.to());
        if (edge > from) {
          mass[Math.floorMod(j, bins)] += piece.density() * (edge - from);
          from = edge;
        }
      }
    }
    double outHi = mechanism.outputHi();
    for (PiecewiseDistribution.Atom atom : d.atoms()) {
      mass[binning.outputBin(atom.at() < outHi ? atom.at() : Math.nextDown(outHi))] += atom.mass();
    }
    return mass;
  }

  /**
   * {@code t[o] = P(output in bin o or beyond | x)} for o = 0..bins: {@code t[0] = 1}, {@code
   * t[bins] = 0}, non-increasing in o. Intervals only: on a circle nothing is beyond.
   */
  double[] upperTails(double x) {
    if (binning.circular()) {
      throw new IllegalStateException("no tails on a circle: " + binning.id());
    }
    PiecewiseDistribution d = mechanism.distribution(x);
    double[] t = new double[bins + 1];
    t[0] = 1;
    for (int o = 1; o < bins; o++) {
      t[o] = Math.min(1, d.mass(edges[o], Double.POSITIVE_INFINITY));
    }
    t[bins] = 0;
    return t;
  }

  /**
   * The largest density of an output, for how fast a window's probability can change with the
   * input.
   */
  double maxDensity() {
    return maxDensity;
  }

  /**
   * How far a snapped output's at-or-beyond probability at one edge can be from the continuous one.
   */
  double edgeSlack() {
    return edgeSlack;
  }

  /**
   * The largest density of the continuous part over the inputs: the pieces' densities at 65 equally
   * spaced inputs. Every mechanism here has two or three density levels that do not depend on the
   * input (only the pieces' ends move), so this is the largest density anywhere.
   */
  private static double maxDensity(Mechanism mechanism) {
    double lo = mechanism.domain().lo();
    double w = mechanism.domain().width();
    double max = 0;
    for (int i = 0; i <= 64; i++) {
      double x = i == 64 ? mechanism.domain().hi() : lo + w * i / 64;
      for (PiecewiseDistribution.Piece p : mechanism.distribution(x).pieces()) {
        max = Math.max(max, p.density());
      }
    }
    return max;
  }
}
