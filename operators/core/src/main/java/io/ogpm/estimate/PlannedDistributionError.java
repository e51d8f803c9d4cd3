package io.ogpm.estimate;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.Mechanism;
import org.hipparchus.exception.MathIllegalArgumentException;
import org.hipparchus.linear.MatrixUtils;
import org.hipparchus.linear.QRDecomposition;
import org.hipparchus.linear.RealMatrix;

/**
 * How well a window's outputs tell its input distribution, before any data: the expected squared
 * error of the least-squares inversion of the outputs' histogram into {@value #BINS} input bins,
 * per output (a window of n outputs has 1/n of it). What choosing a mechanism for window
 * distributions weighs ({@code mechanism: auto}).
 *
 * <p>With T the transition matrix (output bin j given input bin i), T+ its least-squares inverse
 * and q = T p the output bins' probabilities for input shares p, the inversion {@code T+ q^} of the
 * observed output shares is unbiased, and its expected squared error is {@code trace(T+ Cov(q^)
 * T+') = (sum_j q_j c_j - |p|^2) / n}, {@code c_j} the squared norm of column j of T+ (Cov(q^) is
 * multinomial, {@code (diag q - q q') / n}). Exact up to the transition matrix's quadrature. The
 * reconstruction the aggregation runs (EMS, with its smoothing) does better than the plain
 * inversion, but for every mechanism alike: what a mechanism's outputs lose, the inversion shows.
 * Few bins, because that is what a window's outputs can tell: at 50 bins the inversion's error is
 * dominated by detail no mechanism resolves at the epsilons that matter.
 */
@Internal
public final class PlannedDistributionError {
  /** The input bins of the inversion. */
  public static final int BINS = 10;

  private final TransitionMatrix transition;
  private final double[] columnNorms;

  private PlannedDistributionError(TransitionMatrix transition) {
    this.transition = transition;
    int m = transition.rows();
    int k = transition.columns();
    double[][] t = new double[m][k];
    for (int j = 0; j < m; j++) {
      for (int i = 0; i < k; i++) {
        t[j][i] = transition.get(j, i);
      }
    }
    RealMatrix pseudoInverse;
    try {
      pseudoInverse =
          new QRDecomposition(MatrixUtils.createRealMatrix(t), 0).getSolver().getInverse();
    } catch (MathIllegalArgumentException e) {
      // Singular: some input shares leave no trace in the outputs.
      this.columnNorms = null;
      return;
    }
    this.columnNorms = new double[m];
    for (int j = 0; j < m; j++) {
      for (int i = 0; i < k; i++) {
        double v = pseudoInverse.getEntry(i, j);
        columnNorms[j] += v * v;
      }
    }
  }

  /**
   * The planner for a mechanism; null when its outputs carry no distribution ({@link
   * Mechanism#resolvesDistributions()}).
   */
  public static PlannedDistributionError of(Mechanism mechanism) {
    if (!mechanism.resolvesDistributions()) {
      return null;
    }
    return new PlannedDistributionError(
        TransitionMatrix.of(mechanism, FieldBinning.of(mechanism, BINS)));
  }

  /**
   * The expected squared error, summed over the {@value #BINS} bins, of one output's inversion for
   * inputs with these shares of the bins (summing to 1); infinite where the inversion is singular.
   */
  public double error(double[] shares) {
    if (columnNorms == null) {
      return Double.POSITIVE_INFINITY;
    }
    double[] q = transition.apply(shares);
    double sum = 0;
    double square = 0;
    for (int j = 0; j < q.length; j++) {
      sum += q[j] * columnNorms[j];
    }
    for (double p : shares) {
      square += p * p;
    }
    double error = sum - square;
    return Double.isFinite(error) ? Math.max(error, 0) : Double.POSITIVE_INFINITY;
  }
}
