package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.random.AesCtrSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact integer sampler: its cell probabilities, their privacy, and its draws. */
class TwoLevelCellSamplerTest {
  private static final double[] INPUTS = PrivacyCheck.evenInputs(97);

  private static TwoLevelCellSampler sampler(TwoLevelMechanism m, int bits) {
    return new TwoLevelCellSampler(m, OutputGrid.of(bits, m));
  }

  private static List<TwoLevelMechanism> mechanisms(double eps) {
    return List.of(
        ClassicalOgpm.optimal(eps, Objective.L1),
        ClassicalOgpm.optimal(eps, Objective.L2),
        CircularOgpm.optimal(eps, Objective.L1),
        CircularOgpm.optimal(eps, Objective.L2),
        UnbiasedOgpm.of(eps));
  }

  @Test
  void cellProbabilitiesAreTheContinuousMassesOfTheCells() {
    for (double eps : new double[] {0.01, 1, 4, 12}) {
      for (TwoLevelMechanism m : mechanisms(eps)) {
        OutputGrid grid = OutputGrid.of(6, m);
        TwoLevelCellSampler s = new TwoLevelCellSampler(m, grid);
        for (double z : INPUTS) {
          double[] discrete = s.cellProbabilities(z);
          PiecewiseDistribution d = m.distribution(z);
          double total = 0;
          for (int i = 0; i < discrete.length; i++) {
            long cell = grid.minCell() + i;
            double from = Math.max(cell / 64.0, m.outputLo());
            double to = Math.min((cell + 1) / 64.0, m.outputHi());
            double continuous = d.mass(from, to);
            assertThat(discrete[i])
                .as("%s z=%s cell=%s", m, z, cell)
                .isCloseTo(continuous, within(1e-9));
            total += discrete[i];
          }
          assertThat(total).isCloseTo(1, within(1e-12));
        }
      }
    }
  }

  @Test
  void discreteOutputsAreExactlyRealizedEpsilonPrivate() {
    for (double eps : Mechanisms.EPSILONS) {
      for (TwoLevelMechanism m : mechanisms(eps)) {
        TwoLevelCellSampler s = sampler(m, 8);
        double[] max = null;
        double[] min = null;
        for (double z : INPUTS) {
          double[] p = s.cellProbabilities(z);
          if (max == null) {
            max = p.clone();
            min = p.clone();
          }
          for (int i = 0; i < p.length; i++) {
            max[i] = Math.max(max[i], p[i]);
            min[i] = Math.min(min[i], p[i]);
          }
        }
        double worst = 1;
        for (int i = 0; i < max.length; i++) {
          assertThat(min[i]).as("%s cell %s reachable from every input", m, i).isPositive();
          worst = Math.max(worst, max[i] / min[i]);
        }
        assertThat(Math.log(worst))
            .as("%s", m)
            .isLessThanOrEqualTo(s.realizedEpsilon() * (1 + 1e-9));
      }
    }
  }

  @Test
  void realizedEpsilonNeverExceedsTheMechanismsEpsilon() {
    for (double eps : Mechanisms.EPSILONS) {
      for (TwoLevelMechanism m : mechanisms(eps)) {
        for (int bits : new int[] {8, 16, 32, 40}) {
          double realized = sampler(m, bits).realizedEpsilon();
          assertThat(realized).as("%s bits=%s", m, bits).isLessThanOrEqualTo(eps);
          assertThat(realized)
              .as("%s bits=%s: budget not wasted", m, bits)
              .isGreaterThan(eps * (1 - 1e-6));
        }
      }
    }
  }

  @Test
  void refusesAMechanismWhoseDensitiesSpendMoreThanItsEpsilon() {
    // Theorem 3 at eps 1 with its bump 10 % too short (its high density too high): the sampler
    // rounds the mechanism's integers, it does not repair the mechanism into a different one.
    ClassicalOgpm ogpm = ClassicalOgpm.optimal(1, Objective.L1);
    TwoLevelMechanism shortBump =
        new TwoLevelMechanism() {
          @Override
          public double backgroundMass() {
            return ogpm.backgroundMass();
          }

          @Override
          public double bumpLength() {
            return 0.9 * ogpm.bumpLength();
          }

          @Override
          public double bumpStart(double z) {
            return Math.min(Math.max(z - bumpLength() / 2, 0), 1 - bumpLength());
          }

          @Override
          public double epsilon() {
            return 1;
          }

          @Override
          public boolean circular() {
            return false;
          }

          @Override
          public double outputLo() {
            return 0;
          }

          @Override
          public double outputHi() {
            return 1;
          }

          @Override
          public String toString() {
            return "short bump";
          }
        };
    assertThatThrownBy(() -> sampler(shortBump, 16))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("short bump")
        .hasMessageContaining("not e^1.0");
  }

  @Test
  void drawsFollowTheCellProbabilities() {
    AesCtrSource bits = AesCtrSource.seeded(11);
    int n = 200_000;
    for (TwoLevelMechanism m : mechanisms(2)) {
      TwoLevelCellSampler s = sampler(m, 4);
      OutputGrid grid = OutputGrid.of(4, m);
      for (double z : new double[] {0, 0.3, 1}) {
        double[] p = s.cellProbabilities(z);
        long[] counts = new long[p.length];
        for (int i = 0; i < n; i++) {
          counts[(int) (s.sampleCell(z, bits) - grid.minCell())]++;
        }
        double chi = 0;
        int df = -1;
        for (int i = 0; i < p.length; i++) {
          if (p[i] > 0) {
            double expected = n * p[i];
            chi += (counts[i] - expected) * (counts[i] - expected) / expected;
            df++;
          } else {
            assertThat(counts[i]).isZero();
          }
        }
        // Chi-square critical values at p = 0.001 for the degrees of freedom met here.
        double critical = df <= 15 ? 37.70 : df <= 20 ? 45.31 : df <= 40 ? 73.40 : 149.45;
        assertThat(df).isLessThanOrEqualTo(100);
        assertThat(chi).as("%s z=%s df=%s", m, z, df).isLessThan(critical);
      }
    }
  }

  @Test
  void atHighEpsilonEveryCellStaysReachable() {
    // The naive sampler (53-bit uniform through the 1/q slope, then snapped) skips cells at eps 30;
    // the integer sampler gives every cell positive probability for every input.
    for (TwoLevelMechanism m : mechanisms(30)) {
      TwoLevelCellSampler s = sampler(m, 12);
      for (double z : new double[] {0, 0.25, 1}) {
        for (double p : s.cellProbabilities(z)) {
          assertThat(p).isPositive();
        }
      }
    }
  }
}
