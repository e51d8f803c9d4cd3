package io.ogpm.jobs.reproduce;

import io.ogpm.estimate.Reconstruction;
import io.ogpm.estimate.TransitionMatrix;
import java.util.Arrays;

/**
 * How well EM-type reconstruction could do at best, for judging the shipped stopping rule and the
 * 3x target: the smallest L1 error against the truth over every iterate of EM and of EMS (EM with a
 * smoothing step after each iteration, Silverman et al. 1990, as in Li et al.'s SIGMOD 2020 EMS),
 * for the smoothing weights {@link #WEIGHTS} and up to {@link #ITERATIONS} iterations each, all
 * started from the uniform distribution. The choice is made knowing the truth, so no data-driven
 * stopping or smoothing rule over this family can be better; evaluation only.
 * The shipped estimate ({@link Reconstruction#em}) is included too, since after many iterations it
 * may leave this family (it drops the smoothing when the smoothed iteration settles too early).
 */
final class ReconstructionCeiling {
  static final double[] WEIGHTS = {0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5};
  static final int ITERATIONS = 1000;

  private ReconstructionCeiling() {}

  /** The smallest L1 error to {@code truth} over the iterates of EM and EMS and the shipped estimate. */
  static double bestError(long[] counts, TransitionMatrix t, boolean circular, double[] truth) {
    long n = 0;
    for (long c : counts) {
      n += c;
    }
    int k = t.columns();
    double best = l1(Reconstruction.em(counts, t).frequencies(), truth);
    for (double w : WEIGHTS) {
      double[] theta = new double[k];
      Arrays.fill(theta, 1.0 / k);
      best = Math.min(best, l1(theta, truth));
      for (int it = 0; it < ITERATIONS; it++) {
        double[] next = Reconstruction.smooth(Reconstruction.step(counts, n, t, theta), w, circular);
        best = Math.min(best, l1(next, truth));
        boolean converged = l1(next, theta) < 1e-9;
        theta = next;
        if (converged) {
          break;
        }
      }
    }
    return best;
  }

  static double l1(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += Math.abs(a[i] - b[i]);
    }
    return s;
  }
}
