package io.ogpm.mechanism;

import io.ogpm.annotation.Internal;
import java.util.List;
import java.util.TreeSet;

/**
 * A unit mechanism with a continuous output density (plus point masses where outputs are clamped),
 * such as the Laplace variants and the Purkayastha mechanism. Its expected error defaults to
 * Gauss-Legendre quadrature ({@link Quadrature}, Hipparchus) split at every kink of the integrand,
 * with an absolute tolerance of {@link #QUADRATURE_TOLERANCE}; implementations override it with
 * closed forms where they have them.
 */
@Internal
public interface ContinuousUnitMechanism extends UnitMechanism {
  /** Absolute error tolerance of the default quadrature. */
  double QUADRATURE_TOLERANCE = 1e-13;

  /** The density of the continuous part at output y for input z. */
  double density(double y, double z);

  /** Point masses for input z (none by default). */
  default List<PiecewiseDistribution.Atom> atoms(double z) {
    return List.of();
  }

  /** Outputs where the density has a kink for input z, besides z itself and the domain's ends. */
  default double[] kinks(double z) {
    return new double[0];
  }

  /** {@code integral of f(y) density(y, z) dy} plus the atoms, by quadrature split at the kinks. */
  default double expectation(double z, java.util.function.DoubleUnaryOperator f) {
    TreeSet<Double> cuts = new TreeSet<>();
    cuts.add(outputLo());
    cuts.add(outputHi());
    if (z > outputLo() && z < outputHi()) {
      cuts.add(z);
    }
    for (double c : kinks(z)) {
      if (c > outputLo() && c < outputHi()) {
        cuts.add(c);
      }
    }
    double total = 0;
    Double previous = null;
    for (double c : cuts) {
      if (previous != null) {
        total +=
            Quadrature.integrate(
                    y -> f.applyAsDouble(y) * density(y, z), previous, c, QUADRATURE_TOLERANCE)
                .value();
      }
      previous = c;
    }
    for (PiecewiseDistribution.Atom atom : atoms(z)) {
      total += atom.mass() * f.applyAsDouble(atom.at());
    }
    return total;
  }

  @Override
  default double outputMean(double z) {
    return expectation(z, y -> y);
  }

  @Override
  default double outputVariance(double z) {
    double mean = outputMean(z);
    return Math.max(0, expectation(z, y -> (y - mean) * (y - mean)));
  }

  @Override
  default double noiseCosineMoment(double z, int k) {
    return expectation(z, y -> Math.cos(2 * Math.PI * k * (y - z)));
  }

  @Override
  default double expectedError(double z, ErrorMetric metric, Distance distance) {
    int k = metric.exponent();
    TreeSet<Double> cuts = new TreeSet<>();
    double lo = outputLo();
    double hi = outputHi();
    cuts.add(lo);
    cuts.add(hi);
    if (z > lo && z < hi) {
      cuts.add(z);
    }
    for (double c : kinks(z)) {
      if (c > lo && c < hi) {
        cuts.add(c);
      }
    }
    if (distance == Distance.CIRCULAR) {
      for (double c = z - Math.ceil(z - lo) - 0.5; c < hi; c += 0.5) {
        if (c > lo) {
          cuts.add(c);
        }
      }
    }
    double total = 0;
    Double previous = null;
    for (double c : cuts) {
      if (previous != null) {
        double a = previous;
        total +=
            Quadrature.integrate(
                    y -> {
                      double d =
                          distance == Distance.LINEAR
                              ? Math.abs(y - z)
                              : LossIntegrals.circularDistance(y, z, 1);
                      return (k == 1 ? d : d * d) * density(y, z);
                    },
                    a,
                    c,
                    QUADRATURE_TOLERANCE / cuts.size())
                .value();
      }
      previous = c;
    }
    for (PiecewiseDistribution.Atom atom : atoms(z)) {
      double d =
          distance == Distance.LINEAR
              ? Math.abs(atom.at() - z)
              : LossIntegrals.circularDistance(atom.at(), z, 1);
      total += atom.mass() * (k == 1 ? d : d * d);
    }
    return total;
  }
}
