package io.ogpm.mechanism.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.ContinuousUnitMechanism;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.PiecewiseDistribution;
import io.ogpm.mechanism.PiecewiseUnitMechanism;
import io.ogpm.mechanism.PrivacyCheck;
import io.ogpm.mechanism.TwoLevelMechanism;
import io.ogpm.mechanism.UnitMechanism;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every baseline passes an LDP ratio check: exact on pieces, a fine grid for continuous densities.
 */
class BaselinePrivacyTest {
  static final double[] EPSILONS = {0.5, 1, 2, 4, 8, 16};
  static final double ROUNDING = 1e-12;

  @Test
  void piecewiseBaselinesPassTheExactRatioCheck() {
    for (double eps : EPSILONS) {
      for (UnitMechanism m : Baselines.all(eps)) {
        if (!(m instanceof PiecewiseUnitMechanism p)) {
          continue;
        }
        double[] inputs = PrivacyCheck.evenInputs(120);
        // The staircase's represented pieces end at z +- blocks: compare where all inputs have
        // them.
        PrivacyCheck.Result r =
            m instanceof Staircase s
                ? PrivacyCheck.worstRatio(
                    p, inputs, 2 - s.representedBlocks(), s.representedBlocks() - 2)
                : PrivacyCheck.worstRatio(p, inputs);
        assertThat(r.worstRatio())
            .as("%s at y=%s", m, r.output())
            .isLessThanOrEqualTo(Math.exp(eps) * (1 + ROUNDING));
        assertThat(r.worstRatio())
            .as("%s uses its budget", m)
            .isGreaterThan(Math.exp(eps) * (1 - 1e-9));
      }
    }
  }

  @Test
  void pmAndSwParametersSpendTheirEpsilonUpToTheLargestAllowed() {
    // ln((1 - w) (hi - lo) / (w s)) = ln(e^eps - 1), in logs (the ratio overflows a double near
    // 700).
    // PM's bump once came from C - 1 recomputed from a rounded C (zero from eps = 75), SW's b from
    // a
    // product that overflows from eps = 355.
    for (double eps : new double[] {1, 20, 49, 75, 100, 355, 500, 700}) {
      for (TwoLevelMechanism m :
          List.of(
              PiecewiseMechanism.of(eps, PiecewiseMechanism.Output.ORIGINAL),
              PiecewiseMechanism.of(eps, PiecewiseMechanism.Output.COMPRESSED),
              SquareWave.of(eps, SquareWave.Output.ORIGINAL),
              SquareWave.of(eps, SquareWave.Output.COMPRESSED))) {
        double w = m.backgroundMass();
        double logRatio =
            Math.log1p(-w)
                + Math.log(m.outputHi() - m.outputLo())
                - Math.log(w)
                - Math.log(m.bumpLength());
        double expected = eps + Math.log(-Math.expm1(-eps));
        assertThat(logRatio).as("%s", m).isCloseTo(expected, within(1e-9));
      }
    }
  }

  @Test
  void continuousBaselinesPassAFineGridDensityRatioCheck() {
    for (double eps : EPSILONS) {
      for (ContinuousUnitMechanism m :
          List.of(TruncatedLaplace.of(eps), BoundedLaplace.of(eps), Purkayastha.of(eps))) {
        double[] inputs = PrivacyCheck.evenInputs(200);
        double worst = 1;
        for (int j = 0; j <= 2000; j++) {
          double y = Math.min(j / 2000.0, Math.nextDown(1.0));
          double max = 0;
          double min = Double.POSITIVE_INFINITY;
          for (double z : inputs) {
            double d = m.density(y, m.circular() && z == 1 ? 0 : z);
            max = Math.max(max, d);
            min = Math.min(min, d);
          }
          worst = Math.max(worst, max / min);
        }
        // Atoms (T-Laplace's ends): the same check on their masses.
        for (int atom = 0; atom < m.atoms(0).size(); atom++) {
          double max = 0;
          double min = Double.POSITIVE_INFINITY;
          for (double z : inputs) {
            double mass = m.atoms(z).get(atom).mass();
            max = Math.max(max, mass);
            min = Math.min(min, mass);
          }
          worst = Math.max(worst, max / min);
        }
        assertThat(worst).as("%s", m).isLessThanOrEqualTo(Math.exp(eps) * (1 + 1e-9));
        assertThat(worst).as("%s uses its budget", m).isGreaterThan(Math.exp(eps) * (1 - 1e-6));
      }
    }
  }

  @Test
  void boundedLaplaceWithTheInputDependentNormaliserIsADistributionAndThePapersIsNot() {
    for (double eps : EPSILONS) {
      BoundedLaplace m = BoundedLaplace.of(eps);
      for (double z : new double[] {0, 0.5, 1}) {
        double mass =
            BaselineErrorTest.simpson(
                    y -> m.density(Math.min(y, Math.nextDown(1.0)), z), 0, z, 20_000)
                + BaselineErrorTest.simpson(
                    y -> m.density(Math.min(y, Math.nextDown(1.0)), z), z, 1, 20_000);
        assertThat(mass).isCloseTo(1, within(1e-9));
      }
      // The appendix's constant normaliser (1 - e^-eps)/2 with scale 1/eps gives mass 2/(1 +
      // e^(-eps/2)) at z = 1/2.
      double paperMass =
          BaselineErrorTest.simpson(
              y -> eps / -Math.expm1(-eps) * Math.exp(-eps * Math.abs(y - 0.5)), 0, 1, 20_000);
      assertThat(paperMass)
          .isCloseTo(2 / (1 + Math.exp(-eps / 2)), within(1e-9))
          .isGreaterThan(1.1);
    }
  }

  @Test
  void staircaseDensityRepresentsAllButItsTail() {
    for (double eps : new double[] {0.5, 2}) {
      for (Objective o : Objective.values()) {
        PiecewiseDistribution d = Staircase.optimal(eps, o).distribution(0.3);
        assertThat(1 - d.totalMass()).isLessThanOrEqualTo(Staircase.TAIL_MASS * 2 + 1e-15);
      }
    }
  }
}
