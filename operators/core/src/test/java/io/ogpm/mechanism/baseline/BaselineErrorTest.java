package io.ogpm.mechanism.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.ClassicalOgpm;
import io.ogpm.mechanism.ContinuousUnitMechanism;
import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.PiecewiseDistribution;
import io.ogpm.mechanism.PiecewiseUnitMechanism;
import io.ogpm.mechanism.UnitMechanism;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Each baseline's exact error against an independent computation: a composite Simpson rule over its
 * own density (pdf of the pieces, or the continuous density) plus its atoms, on a grid fine enough
 * that the rule's error is far below the tolerance.
 */
class BaselineErrorTest {
  static final double[] EPSILONS = {0.5, 1, 2, 4, 8};
  static final double[] INPUTS = {0, 0.1, 0.37, 0.5, 0.9, 1};

  @Test
  void exactErrorsMatchIndependentIntegration() {
    for (double eps : EPSILONS) {
      for (UnitMechanism m : Baselines.all(eps)) {
        for (double z : INPUTS) {
          double zz = m.circular() && z == 1 ? 0 : z;
          for (ErrorMetric metric : ErrorMetric.values()) {
            for (Distance distance : Distance.values()) {
              double exact = m.expectedError(zz, metric, distance);
              double numeric = integrate(m, zz, metric, distance);
              assertThat(exact)
                  .as("%s z=%s %s %s", m, zz, metric, distance)
                  .isCloseTo(numeric, within(2e-7 * Math.max(1, numeric)));
            }
          }
        }
      }
    }
  }

  /** Simpson on [lo, hi] split at the density's discontinuities, plus atoms. */
  static double integrate(UnitMechanism m, double z, ErrorMetric metric, Distance distance) {
    int k = metric.exponent();
    DoubleUnaryOperator loss =
        y -> {
          double d = distance == Distance.LINEAR ? Math.abs(y - z) : circular(y, z);
          return k == 1 ? d : d * d;
        };
    double total = 0;
    if (m instanceof PiecewiseUnitMechanism p) {
      PiecewiseDistribution d = p.distribution(z);
      for (PiecewiseDistribution.Piece piece : d.pieces()) {
        // Split each piece further at the kinks of the loss.
        double[] cuts = kinksBetween(piece.from(), piece.to(), z, distance);
        for (int i = 0; i + 1 < cuts.length; i++) {
          total += piece.density() * simpson(loss, cuts[i], cuts[i + 1], 64);
        }
      }
      for (PiecewiseDistribution.Atom atom : d.atoms()) {
        total += atom.mass() * loss.applyAsDouble(atom.at());
      }
      return total;
    }
    ContinuousUnitMechanism c = (ContinuousUnitMechanism) m;
    double[] cuts = kinksBetween(c.outputLo(), c.outputHi(), z, distance);
    for (int i = 0; i + 1 < cuts.length; i++) {
      // Densities are defined on [lo, hi): evaluate the closing endpoint as a limit from inside.
      double from = cuts[i];
      double to = cuts[i + 1];
      total +=
          simpson(
              y -> loss.applyAsDouble(y) * c.density(Math.min(y, Math.nextDown(to)), z),
              from,
              to,
              20_000);
    }
    for (PiecewiseDistribution.Atom atom : c.atoms(z)) {
      total += atom.mass() * loss.applyAsDouble(atom.at());
    }
    return total;
  }

  static double[] kinksBetween(double a, double b, double z, Distance distance) {
    java.util.TreeSet<Double> cuts = new java.util.TreeSet<>();
    cuts.add(a);
    cuts.add(b);
    double step = distance == Distance.LINEAR ? Double.NaN : 0.5;
    if (z > a && z < b) {
      cuts.add(z);
    }
    if (!Double.isNaN(step)) {
      for (double c = z - Math.ceil(z - a) - 1; c < b; c += step) {
        if (c > a && c < b) {
          cuts.add(c);
        }
      }
    }
    return cuts.stream().mapToDouble(Double::doubleValue).toArray();
  }

  static double simpson(DoubleUnaryOperator f, double a, double b, int n) {
    if (!(b > a)) {
      return 0;
    }
    double h = (b - a) / n;
    double s = f.applyAsDouble(a) + f.applyAsDouble(b);
    for (int i = 1; i < n; i++) {
      s += f.applyAsDouble(a + i * h) * (i % 2 == 1 ? 4 : 2);
    }
    return s * h / 3;
  }

  static double circular(double y, double z) {
    double d = Math.abs(y - z) % 1;
    return Math.min(d, 1 - d);
  }

  @Test
  void checkedExamplesOfPaperNotes() {
    assertThat(TruncatedLaplace.of(2).expectedError(0, ErrorMetric.L1, Distance.LINEAR))
        .isCloseTo(0.216166, within(5e-7));
    assertThat(
            Staircase.optimal(2, Objective.L1).expectedError(0.3, ErrorMetric.L1, Distance.LINEAR))
        .isCloseTo(0.425459, within(5e-7));
    // Geng and Viswanath's Theorem 3: e^(eps/2) / (e^eps - 1).
    for (double eps : EPSILONS) {
      assertThat(
              Staircase.optimal(eps, Objective.L1).worstCaseError(ErrorMetric.L1, Distance.LINEAR))
          .isCloseTo(Math.exp(eps / 2) / Math.expm1(eps), within(1e-12));
    }
    // On [0, 2pi): scale the unit circle's error by 2pi.
    assertThat(2 * Math.PI * Purkayastha.of(1).worstCaseError(ErrorMetric.L1, Distance.CIRCULAR))
        .isCloseTo(1.313259, within(5e-7));
    // At the endpoints OGPM and PM-C coincide (docs/mechanisms.md, "Checked examples").
    assertThat(
            PiecewiseMechanism.of(2, PiecewiseMechanism.Output.COMPRESSED)
                .worstCaseError(ErrorMetric.L1, Distance.LINEAR))
        .isCloseTo(0.268941, within(5e-7))
        .isCloseTo(
            ClassicalOgpm.optimal(2, Objective.L1).worstCaseError(ErrorMetric.L1, Distance.LINEAR),
            within(1e-12));
  }

  @Test
  void staircaseSquareErrorGammaIsTheNumericalOptimum() {
    for (double eps : EPSILONS) {
      double best = Staircase.optimalGamma(eps, Objective.L2);
      double at = mse(eps, best);
      for (double delta : new double[] {-0.01, 0.01}) {
        double g = best * (1 + delta);
        assertThat(mse(eps, g)).as("eps=%s gamma=%s", eps, g).isGreaterThan(at);
      }
      assertThat(at).isLessThan(mse(eps, Staircase.optimalGamma(eps, Objective.L1)));
    }
  }

  private static double mse(double eps, double gamma) {
    // E X^2 of the staircase density, summed independently of the class.
    double b = Math.exp(-eps);
    double a = (1 - b) / (2 * (gamma + (1 - gamma) * b));
    double s = 0;
    for (int j = 0; j < 20_000; j++) {
      double level = a * Math.pow(b, j);
      s +=
          level * (Math.pow(j + gamma, 3) - Math.pow(j, 3)) / 3
              + level * b * (Math.pow(j + 1, 3) - Math.pow(j + gamma, 3)) / 3;
    }
    return 2 * s;
  }

  @Test
  void theWholeDomainRatiosOfThePaperAreReproduced() {
    // "OGPM's average error is 94.2 % of PM-C and 92.3 % of SW-C (eps = 2); 90.5 % and 74.7 % (eps
    // = 4)".
    double[][] expected = {{2, 0.942, 0.923}, {4, 0.905, 0.747}};
    for (double[] row : expected) {
      double eps = row[0];
      double ogpm = average(ClassicalOgpm.optimal(eps, Objective.L1));
      assertThat(ogpm / average(PiecewiseMechanism.of(eps, PiecewiseMechanism.Output.COMPRESSED)))
          .isCloseTo(row[1], within(0.005));
      assertThat(ogpm / average(SquareWave.of(eps, SquareWave.Output.COMPRESSED)))
          .isCloseTo(row[2], within(0.005));
    }
  }

  private static double average(UnitMechanism m) {
    double s = 0;
    int n = 1000;
    for (int i = 0; i <= n; i++) {
      s += m.expectedError(i / (double) n, ErrorMetric.L1, Distance.LINEAR);
    }
    return s / (n + 1);
  }
}
