package io.ogpm.reproduce;

import io.ogpm.estimate.Histograms;
import io.ogpm.estimate.Reconstruction;
import io.ogpm.estimate.TransitionMatrix;
import java.util.Arrays;

/**
 * How well EM-type reconstruction could do at best, for judging the shipped stopping rule and the
 * 3x target: the smallest L1 error against the truth over every iterate of EM and of EMS (EM with a
 * smoothing step after each iteration, Silverman et al. 1990, as in Li et al.'s SIGMOD 2020 EMS),
 * for the smoothing weights {@link #WEIGHTS} and up to {@link #ITERATIONS} iterations each, all
 * started from the uniform distribution. The choice is made knowing the truth, so no data-driven
 * stopping or smoothing rule over this family can be better; evaluation only. The shipped estimate
 * ({@link Reconstruction#em}) is included too, since it may leave this family (it halves its
 * smoothing weight when the smoothed fit settles far from the counts).
 */
final class ReconstructionCeiling {
  static final double[] WEIGHTS = {0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5};
  static final int ITERATIONS = 1000;

  private ReconstructionCeiling() {}

  /**
   * The smallest L1 error to {@code truth} over the iterates of EM and EMS on {@code counts}, and
   * the shipped estimate {@code shipped} (the caller's {@link Reconstruction#em} of the same
   * counts).
   */
  static double bestError(long[] counts, TransitionMatrix t, double[] truth, double[] shipped) {
    long n = 0;
    for (long c : counts) {
      n += c;
    }
    int k = t.columns();
    double best = Histograms.l1(shipped, truth);
    for (double w : WEIGHTS) {
      double[] theta = new double[k];
      Arrays.fill(theta, 1.0 / k);
      best = Math.min(best, Histograms.l1(theta, truth));
      for (int it = 0; it < ITERATIONS; it++) {
        double[] next =
            Reconstruction.smooth(Reconstruction.step(counts, n, t, theta), w, t.circular());
        best = Math.min(best, Histograms.l1(next, truth));
        boolean converged = Histograms.l1(next, theta) < 1e-9;
        theta = next;
        if (converged) {
          break;
        }
      }
    }
    return best;
  }
}
