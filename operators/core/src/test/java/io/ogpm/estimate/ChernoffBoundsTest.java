package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.audit.ClopperPearson;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomBits;
import org.junit.jupiter.api.Test;

/**
 * Chernoff's bounds: the equation they solve, beside the exact binomial ones, and their coverage
 * with unequal probabilities.
 */
class ChernoffBoundsTest {
  @Test
  void theUpperBoundSolvesTheChernoffEquationAndIsNeverBelowClopperPearson() {
    // A band's level too: at n = 5 its roots lie near 1, where Newton's steps are short far from
    // the root.
    for (double level : new double[] {Math.log(1000), Math.log(2 * 49 / 0.05)}) {
      upperBoundsSolveTheChernoffEquation(level);
    }
    double level = Math.log(1000);
    assertThat(ChernoffBounds.upper(0, 100, level))
        .isCloseTo(1 - Math.exp(-level / 100), within(1e-11));
    assertThat(ChernoffBounds.upper(100, 100, level)).isEqualTo(1);
  }

  private static void upperBoundsSolveTheChernoffEquation(double level) {
    for (long n : new long[] {5, 10, 100, 1000, 1_000_000}) {
      for (long k : new long[] {0, 1, n / 10, n / 2, n - 1}) {
        double u = ChernoffBounds.upper(k, n, level);
        double p = (double) k / n;
        assertThat(u).as("n %s k %s", n, k).isGreaterThan(p);
        // On the root (up to the margin for rounding), from above.
        assertThat(n * ChernoffBounds.kl(p, Math.min(u, Math.nextDown(1.0))))
            .as("n %s k %s", n, k)
            .isGreaterThanOrEqualTo(level * (1 - 1e-9));
        // And no further above it than the margin for rounding (1 only where no u < 1 solves it).
        assertThat(
                (u == 1 && n * ChernoffBounds.kl(p, Math.nextDown(1.0)) < level)
                    || n * ChernoffBounds.kl(p, p + (u - p) * (1 - 1e-6)) <= level)
            .as("n %s k %s u %s", n, k, u)
            .isTrue();
        // The exact binomial bound at the same level is inside it: Chernoff's is the looser, valid
        // for unequal trials.
        assertThat(u).isGreaterThanOrEqualTo(ClopperPearson.upper(k, n, 1e-3));
      }
    }
  }

  @Test
  void theFloorIsNeverAboveTheBoundAndTellsMoreThanTheShare() {
    for (double level : new double[] {Math.log(20), Math.log(6000), Math.log(1e6)}) {
      for (long n : new long[] {1, 7, 100, 1000, 123_457, 10_000_000}) {
        for (long k = 0; k <= n; k += Math.max(1, n / 97)) {
          double floor = ChernoffBounds.upperFloor(k, n, level);
          double p = (double) k / n;
          assertThat(floor)
              .as("n %s k %s", n, k)
              .isLessThanOrEqualTo(ChernoffBounds.upper(k, n, level))
              .isGreaterThanOrEqualTo(p);
          if (k < n) {
            // Half-way or more from the share to the bound: the skipping it serves has something to
            // skip.
            assertThat(floor - p)
                .as("n %s k %s", n, k)
                .isGreaterThan(0.5 * (ChernoffBounds.upper(k, n, level) - p));
          }
        }
      }
    }
  }

  @Test
  void theLowerBoundMirrorsTheUpper() {
    double level = Math.log(40);
    for (long k : new long[] {0, 3, 50, 97, 100}) {
      assertThat(ChernoffBounds.lower(k, 100, level))
          .isEqualTo(1 - ChernoffBounds.upper(100 - k, 100, level));
      assertThat(ChernoffBounds.lower(k, 100, level))
          .isLessThanOrEqualTo(ClopperPearson.lower(k, 100, 1.0 / 40));
    }
  }

  @Test
  void unequalProbabilitiesAreCoveredAtTheLevel() {
    // 50 trials with probabilities from 0 to 0.98: the upper bound at 5 % misses their mean at
    // most 5 % of the time; here far less, Chernoff being loose. A bound at a tenth of the level
    // would miss more than 5 %, so the check can fail.
    RandomBits bits = AesCtrSource.seeded(17);
    int trials = 20_000;
    int misses = 0;
    int missesTooTight = 0;
    double mean = 0;
    double[] p = new double[50];
    for (int i = 0; i < p.length; i++) {
      p[i] = 0.02 * i;
      mean += p[i] / p.length;
    }
    for (int t = 0; t < trials; t++) {
      long k = 0;
      for (double pi : p) {
        k += bits.nextUniform() < pi ? 1 : 0;
      }
      misses += ChernoffBounds.upper(k, p.length, Math.log(20)) < mean ? 1 : 0;
      missesTooTight += ChernoffBounds.upper(k, p.length, Math.log(20) / 10) < mean ? 1 : 0;
    }
    assertThat(ClopperPearson.lower(misses, trials, 1e-4)).isLessThan(0.05);
    assertThat(ClopperPearson.lower(missesTooTight, trials, 1e-4)).isGreaterThan(0.05);
  }
}
