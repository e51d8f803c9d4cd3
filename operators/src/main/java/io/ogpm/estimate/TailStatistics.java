package io.ogpm.estimate;

import io.ogpm.mechanism.Mechanism;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the end-tail statistics of {@link LinearMeanBounds} for a piecewise mechanism on a
 * classical domain whose mean function is affine in the middle but not up to an end: for each such
 * end, a {@link BinStatistic} whose tail starts at the output bin edge nearest to the middle of the
 * flat end. Their expectations come from one pass over the identification grid, one exact binned
 * kernel per input ({@link BinnedKernel}).
 */
final class TailStatistics {
  private TailStatistics() {}

  /**
   * {@code [upper-end statistic, lower-end statistic]}, either null where that end has none (its
   * mean function is affine up to it, or the expectation is not monotone).
   */
  static BinStatistic[] of(Mechanism mechanism, FieldBinning binning, AffinePart affine) {
    BinStatistic[] none = new BinStatistic[2];
    if (!mechanism.isPiecewise() || binning.circular() || !affine.exists()) {
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
    int upperCount = 0;
    double flatUpper = hi - affine.to();
    if (flatUpper > 0) {
      double rise = b * flatUpper - (expectation(centre, tHi) - expectation(centre, kernel.upperTails(affine.to())));
      int o = edge(binning, hi - flatUpper / 2);
      if (o > 0) {
        double kappa = rise / (tHi[o] - tMid[o]);
        if (kappa > 0 && Double.isFinite(kappa)) {
          double[] v = centre.clone();
          for (int k = o; k < bins; k++) {
            v[k] += kappa;
          }
          values.add(v);
          upperCount++;
        }
      }
    }
    double flatLower = affine.from() - lo;
    if (flatLower > 0) {
      double rise = b * flatLower - (expectation(centre, kernel.upperTails(affine.from())) - expectation(centre, tLo));
      int o = edge(binning, lo + flatLower / 2);
      if (o > 0) {
        // The lower tail [y~ below edge o] has expectation 1 - t[o], largest at lo.
        double kappa = rise / (tMid[o] - tLo[o]);
        if (kappa > 0 && Double.isFinite(kappa)) {
          double[] v = centre.clone();
          for (int k = 0; k < o; k++) {
            v[k] -= kappa;
          }
          values.add(v);
        }
      }
    }
    if (values.isEmpty()) {
      return none;
    }
    // Expectations on the identification grid, and bin probabilities at a few inputs for the
    // normal regime.
    double[][] expectations = new double[values.size()][MeanIdentification.POINTS + 1];
    for (int j = 0; j <= MeanIdentification.POINTS; j++) {
      double[] t = kernel.upperTails(MeanIdentification.inputAt(lo, hi, j));
      for (int s = 0; s < values.size(); s++) {
        expectations[s][j] = expectation(values.get(s), t);
      }
    }
    double[][] probabilities = new double[NormalApproximation.INPUTS + 1][];
    for (int i = 0; i <= NormalApproximation.INPUTS; i++) {
      double x = i == NormalApproximation.INPUTS ? hi : lo + (hi - lo) * i / NormalApproximation.INPUTS;
      double[] t = kernel.upperTails(x);
      double[] p = new double[bins];
      for (int o = 0; o < bins; o++) {
        p[o] = t[o] - t[o + 1];
      }
      probabilities[i] = p;
    }
    BinStatistic[] statistics = new BinStatistic[2];
    for (int s = 0; s < values.size(); s++) {
      statistics[s < upperCount ? 0 : 1] = BinStatistic.of(lo, hi, values.get(s), expectations[s], probabilities,
          kernel.edgeSlack());
    }
    return statistics;
  }

  /**
   * The output bin edge nearest to c, as the index of the bin that starts there; 0 when it is not
   * strictly inside the output bins.
   */
  static int edge(FieldBinning binning, double c) {
    double first = binning.outputBinLo(0);
    double h = binning.outputBinHi(0) - first;
    long o = Math.round((c - first) / h);
    return o >= 1 && o < binning.outputBins() ? (int) o : 0;
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
