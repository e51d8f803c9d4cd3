package io.ogpm.estimate;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.Mechanism;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The 95 % interval for a window's linear mean that a field's estimator is expected to give, before
 * any data, for windows of n outputs whose inputs are a given mix of points: what choosing a
 * mechanism for window means weighs ({@code mechanism: auto}).
 *
 * <p>Expected: every statistic of {@link LinearMeanBounds} at its expectation for the mix (the
 * window's variance estimate too, a linear function of its mean and mean square), a tail
 * statistic's spread at the mixture's ({@code sum w E[psi^2 | x] - (sum w E[psi | x])^2}), at the
 * error-level shares the count chooses. So the width is that of the interval's own bounds (the
 * normal or Bernstein margin, the identification of the mean function and of each tail statistic),
 * including what the mechanism leaves unidentified: for OGPM, inputs in an end band give outputs
 * the output mean cannot place, and the width keeps that part however large n is. Exact given the
 * mechanism's moments; the points' output masses are computed once, so a search over many mixes of
 * the same points is cheap.
 */
@Internal
public final class PlannedMeanInterval {
  private final LinearMeanBounds bounds;
  private final double[] means;
  private final double[] squares;
  private final Map<BinStatistic, double[][]> tailMoments = new IdentityHashMap<>();

  private PlannedMeanInterval(
      Mechanism mechanism, FieldBinning binning, LinearMeanBounds bounds, double[] points) {
    this.bounds = bounds;
    this.means = new double[points.length];
    this.squares = new double[points.length];
    for (int i = 0; i < points.length; i++) {
      means[i] = mechanism.outputMean(points[i]);
      squares[i] = bounds.meanSquare(means[i], mechanism.outputVariance(points[i]));
    }
    BinStatistic[] upper = bounds.upperTails();
    BinStatistic[] lower = bounds.lowerTails();
    if (upper.length + lower.length > 0) {
      BinnedKernel kernel = new BinnedKernel(mechanism, binning);
      double[][] probabilities = new double[points.length][];
      for (int i = 0; i < points.length; i++) {
        probabilities[i] = kernel.probabilities(points[i]);
      }
      for (BinStatistic[] side : new BinStatistic[][] {upper, lower}) {
        for (BinStatistic s : side) {
          double[][] m = new double[points.length][];
          for (int i = 0; i < points.length; i++) {
            m[i] = s.rawMoments(probabilities[i]);
          }
          tailMoments.put(s, m);
        }
      }
    }
  }

  /**
   * The planner for the interval of {@link FieldEstimator#of(Mechanism, int) an estimator with k
   * bins}, over these input points (in the field's units, within its domain); null when the field
   * is circular or its mechanism gives no linear mean interval.
   */
  public static PlannedMeanInterval of(Mechanism mechanism, int bins, double[] points) {
    if (mechanism.domain().isCircular()) {
      return null;
    }
    FieldBinning binning = FieldBinning.of(mechanism, bins);
    LinearMeanBounds bounds = LinearMeanBounds.of(mechanism, binning, AffinePart.of(mechanism));
    return bounds.exists()
        ? new PlannedMeanInterval(mechanism, binning, bounds, points.clone())
        : null;
  }

  /**
   * The expected interval's width for windows of n outputs whose inputs are the points with these
   * weights (summing to 1); infinite where the interval is not expected to exist (staircase's
   * unbounded outputs below the normal regime).
   */
  public double width(long n, double[] weights) {
    double g = 0;
    double square = 0;
    for (int i = 0; i < weights.length; i++) {
      g += weights[i] * means[i];
      square += weights[i] * squares[i];
    }
    double[] interval =
        bounds.expectedInterval(
            n,
            g,
            square,
            s -> {
              double[][] m = tailMoments.get(s);
              double first = 0;
              double second = 0;
              for (int i = 0; i < weights.length; i++) {
                first += weights[i] * m[i][0];
                second += weights[i] * m[i][1];
              }
              return new double[] {first, Math.max(0, second - first * first)};
            });
    double width = interval[1] - interval[0];
    return Double.isNaN(width) ? Double.POSITIVE_INFINITY : Math.max(0, width);
  }
}
