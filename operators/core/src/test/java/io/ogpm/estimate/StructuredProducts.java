package io.ogpm.estimate;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import java.util.ArrayList;
import java.util.List;

/**
 * Shared by the tests that hold the run-structured products ({@link RunRows}) against the dense
 * ones: the matrices of every mechanism an estimator reconstructs with, random inputs from fixed
 * seeds, the dense products' own rounding bounds, and the rounding bound of one EMS step.
 */
final class StructuredProducts {
  static final double U = 0x1p-53;

  private StructuredProducts() {}

  /** A mechanism, its binning and its matrix, named for messages. */
  record Case(String name, Mechanism mechanism, FieldBinning binning, TransitionMatrix matrix) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Mechanism mechanism(MechanismType type, double eps, boolean circular) {
    return MechanismCatalog.of(
        MechanismSpec.builder()
            .type(type)
            .epsilon(eps)
            .domain(circular ? Domain.circular(-Math.PI, Math.PI) : Domain.classical(-3, 3))
            .build());
  }

  /**
   * Every piecewise mechanism (the ones {@link FieldEstimator} reconstructs with) on every domain
   * it supports, at the given epsilons, with the estimator's binning (k bins, output bins as wide)
   * and with 7 bins and output bins 4 times finer.
   */
  static List<Case> cases(double[] epsilons, int bins) {
    List<Case> out = new ArrayList<>();
    for (MechanismType type : MechanismType.values()) {
      for (boolean circular : new boolean[] {false, true}) {
        if (circular ? !type.supportsCircular() : !type.supportsClassical()) {
          continue;
        }
        for (double eps : epsilons) {
          Mechanism m = mechanism(type, eps, circular);
          if (!m.resolvesDistributions()) {
            continue;
          }
          for (FieldBinning b :
              new FieldBinning[] {FieldBinning.of(m, bins), FieldBinning.of(m, 7, 4)}) {
            String name =
                type.id()
                    + (circular ? " circle" : " interval")
                    + " eps "
                    + eps
                    + ", "
                    + b.bins()
                    + " bins x "
                    + b.outputBins();
            out.add(new Case(name, m, b, TransitionMatrix.of(m, b)));
          }
        }
      }
    }
    return out;
  }

  /** A random non-negative vector: Exp(1) entries, some set to zero, sometimes one spike. */
  static double[] randomVector(int length, AesCtrSource bits) {
    double[] x = new double[length];
    for (int i = 0; i < length; i++) {
      double u = bits.nextUniform();
      x[i] = u < 0.2 ? 0 : -Math.log(1 - bits.nextUniform());
    }
    if (bits.nextUniform() < 0.3) {
      x[(int) (bits.nextUniform() * length)] += 1e3;
    }
    return x;
  }

  /** Dense {@code A x} rounding bound for non-negative A and x: {@code (k + 1) u (A x)_j}. */
  static double denseBound(int terms, double exact) {
    return (terms + 1) * U * exact;
  }

  /**
   * {@code kappa = max_j A_j / min_i T_ji}: how far row j's magnitude (background plus absolute
   * excesses) exceeds its smallest entry. The structured products' errors, relative to the
   * products, are at most their {@link RunRows} bounds' coefficients times kappa (every product of
   * a non-negative vector is at least the smallest entry of its row times the vector's sum).
   */
  static double kappa(RunRows runs, TransitionMatrix t, boolean meanSquare) {
    double kappa = 0;
    for (int j = 0; j < t.rows(); j++) {
      double min = Double.POSITIVE_INFINITY;
      for (int i = 0; i < t.columns(); i++) {
        min = Math.min(min, meanSquare ? t.meanSquare(j, i) : t.get(j, i));
      }
      kappa = Math.max(kappa, runs.magnitude(j) / min);
    }
    return kappa;
  }

  /**
   * A bound on the relative difference, entry by entry, between one EMS step (EM step, then
   * smoothing) with the structured products and the same step with the dense ones, from the same
   * iterate: the fitted distribution {@code pi = T theta} differs by at most the two products'
   * relative bounds ({@code (2k + R + 5) u kappa} and {@code (k + 1) u}), which the ratios {@code
   * c_j / (n pi_j)} carry (plus 2 u) and the back-projection {@code T^T r}, a positive combination,
   * passes on unchanged while adding its own ({@code (m + 4N + 4) u kappa} and {@code (m + 1) u});
   * multiplying by theta and smoothing (a convex combination of non-negative numbers) add at most 6
   * u more. Infinite if some row has a zero entry (then no relative bound holds).
   */
  static double stepBound(TransitionMatrix t) {
    RunRows runs = t.runs();
    int k = t.columns();
    int m = t.rows();
    int maxRowRuns = 0;
    for (int j = 0; j < m; j++) {
      maxRowRuns = Math.max(maxRowRuns, runs.runsInRow(j));
    }
    double kappa = kappa(runs, t, false);
    double apply = (2.0 * k + maxRowRuns + 5) * U * kappa + (k + 1) * U;
    double transposed = (m + 4.0 * runs.runs() + 4) * U * kappa + (m + 1) * U;
    return apply + 2 * U + transposed + 6 * U;
  }
}
