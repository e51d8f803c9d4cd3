package io.ogpm.estimate;

import io.ogpm.mechanism.Mechanism;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the end-tail statistics of {@link LinearMeanBounds} for a piecewise mechanism on a
 * classical domain whose mean function is affine in the middle but not up to an end: for each such
 * end, a {@link BinStatistic} per threshold, the output bin edges nearest to half and a quarter of
 * the flat end's width from the end. Their expectations come from one pass over the identification
 * grid, one exact binned kernel per input ({@link BinnedKernel}).
 */
final class TailStatistics {
  /**
   * Where the tails start: these fractions of the flat end's width d from the end of the domain.
   */
  static final double[] FRACTIONS = {0.5, 0.25};

  private TailStatistics() {}

  /**
   * {@code [upper-end statistics, lower-end statistics]}, each possibly empty (the mean function is
   * affine up to that end, the thresholds leave the output bins, or an expectation is not
   * monotone).
   */
  static BinStatistic[][] of(Mechanism mechanism, FieldBinning binning, AffinePart affine) {
    BinStatistic[][] none = {new BinStatistic[0], new BinStatistic[0]};
    if (!mechanism.resolvesDistributions() || binning.circular() || !affine.exists()) {
      return none;
    }
    double lo = mechanism.domain().lo();
    double hi = mechanism.domain().hi();
    BinnedKernel kernel = new BinnedKernel(mechanism, binning);
    int bins = kernel.bins();
    double[] centre = new double[bins];
    for (int o = 0; o < bins; o++) {
      centre[o] = 0.5 * (binning.outputBinLo(o) + binning.outputBinHi(o));
    }
    double b = affine.slope();
    double[] tLo = kernel.upperTails(lo);
    double[] tHi = kernel.upperTails(hi);
    double[] tMid = kernel.upperTails(0.5 * (lo + hi));
    List<double[]> values = new ArrayList<>();
    List<Boolean> upperEnd = new ArrayList<>();
    double flatUpper = hi - affine.to();
    if (flatUpper > 0) {
      double rise =
          b * flatUpper
              - (expectation(centre, tHi) - expectation(centre, kernel.upperTails(affine.to())));
      for (int o : edges(binning, hi, -flatUpper)) {
        double kappa = rise / (tHi[o] - tMid[o]);
        if (kappa > 0 && Double.isFinite(kappa)) {
          double[] v = centre.clone();
          for (int k = o; k < bins; k++) {
            v[k] += kappa;
          }
          values.add(v);
          upperEnd.add(true);
        }
      }
    }
    double flatLower = affine.from() - lo;
    if (flatLower > 0) {
      double rise =
          b * flatLower
              - (expectation(centre, kernel.upperTails(affine.from())) - expectation(centre, tLo));
      for (int o : edges(binning, lo, flatLower)) {
        // The lower tail [y~ below edge o] has expectation 1 - t[o], largest at lo.
        double kappa = rise / (tMid[o] - tLo[o]);
        if (kappa > 0 && Double.isFinite(kappa)) {
          double[] v = centre.clone();
          for (int k = 0; k < o; k++) {
            v[k] -= kappa;
          }
          values.add(v);
          upperEnd.add(false);
        }
      }
    }
    if (values.isEmpty()) {
      return none;
    }
    // Expectations and mean squares on the identification grid, and bin probabilities at every
    // 256th of its points for the statistics' shape and the references of the error split.
    double[][] expectations = new double[values.size()][MeanIdentification.POINTS + 1];
    double[][] squares = new double[values.size()][MeanIdentification.POINTS + 1];
    double[][] centred = new double[values.size()][];
    for (int s = 0; s < values.size(); s++) {
      double[] v = values.get(s);
      double r = BinStatistic.reference(v);
      centred[s] = new double[v.length];
      for (int o = 0; o < v.length; o++) {
        centred[s][o] = (v[o] - r) * (v[o] - r);
      }
    }
    for (int j = 0; j <= MeanIdentification.POINTS; j++) {
      double[] t = kernel.upperTails(MeanIdentification.inputAt(lo, hi, j));
      for (int s = 0; s < values.size(); s++) {
        expectations[s][j] = expectation(values.get(s), t);
        squares[s][j] = expectation(centred[s], t);
      }
    }
    double[][] probabilities = new double[NormalApproximation.INPUTS + 1][];
    for (int i = 0; i <= NormalApproximation.INPUTS; i++) {
      double x =
          i == NormalApproximation.INPUTS ? hi : lo + (hi - lo) * i / NormalApproximation.INPUTS;
      double[] t = kernel.upperTails(x);
      double[] p = new double[bins];
      for (int o = 0; o < bins; o++) {
        p[o] = t[o] - t[o + 1];
      }
      probabilities[i] = p;
    }
    List<BinStatistic> upper = new ArrayList<>();
    List<BinStatistic> lower = new ArrayList<>();
    for (int s = 0; s < values.size(); s++) {
      BinStatistic statistic =
          BinStatistic.of(
              lo,
              hi,
              values.get(s),
              expectations[s],
              squares[s],
              probabilities,
              kernel.edgeSlack());
      if (statistic != null) {
        (upperEnd.get(s) ? upper : lower).add(statistic);
      }
    }
    return new BinStatistic[][] {
      upper.toArray(new BinStatistic[0]), lower.toArray(new BinStatistic[0])
    };
  }

  /**
   * The output bin edges nearest to {@code end + d f} for each of {@link #FRACTIONS}, as the index
   * of the bin that starts there, without repeats and strictly inside the output bins.
   */
  static int[] edges(FieldBinning binning, double end, double d) {
    java.util.LinkedHashSet<Integer> found = new java.util.LinkedHashSet<>();
    for (double f : FRACTIONS) {
      int o = edge(binning, end + d * f);
      if (o > 0) {
        found.add(o);
      }
    }
    return found.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * The output bin edge nearest to c strictly inside the output bins, as the index of the bin that
   * starts there: the first or last inner edge when c lies beyond it (a flat end narrower than a
   * bin still gets the edge nearest to it); 0 when there is no inner edge.
   */
  static int edge(FieldBinning binning, double c) {
    double first = binning.outputBinLo(0);
    double h = binning.outputBinHi(0) - first;
    long o = Math.round((c - first) / h);
    int bins = binning.outputBins();
    return bins < 2 ? 0 : (int) Math.max(1, Math.min(bins - 1, o));
  }

  /** {@code sum_o value[o] P(bin o)} from the at-or-beyond probabilities. */
  static double expectation(double[] value, double[] tails) {
    double e = 0;
    for (int o = 0; o < value.length; o++) {
      e += value[o] * (tails[o] - tails[o + 1]);
    }
    return e;
  }
}
