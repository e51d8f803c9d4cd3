package io.ogpm.mechanism.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.CellSampler;
import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.OutputGrid;
import io.ogpm.mechanism.UnitMechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import org.junit.jupiter.api.Test;

/**
 * The baselines' samplers: Monte Carlo errors against the exact errors, and on a coarse (8-bit)
 * grid the exact geometric-noise samplers' probability mass functions (computed here in doubles,
 * independently of the samplers) against their draws (chi-square) and against e^eps. The exact
 * ratio claims are decided in exact arithmetic by {@link ExactNoiseEpsilonTest}.
 */
class BaselineSamplerTest {
  static final double Z = 4.0;

  @Test
  void monteCarloErrorsMatchExactErrors() {
    AesCtrSource bits = AesCtrSource.seeded(42);
    for (MechanismType type : MechanismType.values()) {
      if (type == MechanismType.OGPM || type == MechanismType.OGPM_U) {
        continue;
      }
      for (double eps : new double[] {1, 4}) {
        Domain domain =
            type == MechanismType.PURKAYASTHA ? Domain.circular(0, 1) : Domain.classical(0, 1);
        Mechanism m =
            MechanismCatalog.of(
                MechanismSpec.builder().type(type).epsilon(eps).domain(domain).build());
        Distance distance = domain.naturalDistance();
        for (double x : new double[] {0, 0.3, 1}) {
          int n = 40_000;
          double sum = 0;
          double sumSq = 0;
          for (int i = 0; i < n; i++) {
            double y = m.perturb(x, bits);
            double d =
                distance == Distance.LINEAR ? Math.abs(y - x) : BaselineErrorTest.circular(y, x);
            sum += d;
            sumSq += d * d;
          }
          double mean = sum / n;
          double sd = Math.sqrt(sumSq / n - mean * mean);
          // Rounding the input to its cell and reporting cell midpoints moves an output by < 2
          // cells.
          double bound = Z * sd / Math.sqrt(n) + 2 * m.cellWidth();
          assertThat(mean)
              .as("%s eps=%s x=%s", type.id(), eps, x)
              .isCloseTo(m.expectedError(x, ErrorMetric.L1, distance), within(bound));
        }
      }
    }
  }

  static final int BITS = 8;
  static final long D = 1L << BITS;

  @Test
  void truncatedLaplaceOnTheGridIsExactlyPrivate() {
    for (double eps : new double[] {0.5, 2, 8}) {
      double r = Math.exp(-eps / D);
      double g0 = (1 - r) / (1 + r);
      checkDiscrete(
          TruncatedLaplace.of(eps),
          eps,
          (xc, c) -> {
            // Two-sided geometric g(k) = g0 r^|k|, clamped into [0, D - 1].
            if (c == 0) {
              return tailAtMost(-xc, g0, r);
            }
            if (c == D - 1) {
              return tailAtLeast(D - 1 - xc, g0, r);
            }
            return g0 * Math.pow(r, Math.abs(c - xc));
          },
          0,
          D - 1);
    }
  }

  /** P(K <= k) for k <= 0 under g(k) = g0 r^|k|: g0 r^|k| / (1 - r). */
  private static double tailAtMost(long k, double g0, double r) {
    return g0 * Math.pow(r, -k) / (1 - r);
  }

  /** P(K >= m): by symmetry P(K <= -m) for m >= 0, else 1 - P(K <= m - 1). */
  private static double tailAtLeast(long m, double g0, double r) {
    return m >= 0 ? tailAtMost(-m, g0, r) : 1 - tailAtMost(m - 1, g0, r);
  }

  @Test
  void boundedLaplaceOnTheGridIsExactlyPrivate() {
    for (double eps : new double[] {0.5, 2, 8}) {
      double r = Math.exp(-eps / D);
      checkDiscrete(
          BoundedLaplace.of(eps),
          eps,
          (xc, c) -> {
            double total = 0;
            for (long k = 0; k < D; k++) {
              total += Math.pow(r, Math.abs(k - xc));
            }
            return Math.pow(r, Math.abs(c - xc)) / total;
          },
          0,
          D - 1);
    }
  }

  @Test
  void purkayasthaOnTheGridIsExactlyPrivate() {
    for (double eps : new double[] {0.5, 2, 8}) {
      double r = Math.exp(-2 * eps / D);
      checkDiscrete(
          Purkayastha.of(eps),
          eps,
          (xc, c) -> {
            double total = 0;
            for (long k = -D / 2; k < D / 2; k++) {
              total += Math.pow(r, Math.abs(k));
            }
            long offset = Math.floorMod(c - xc + D / 2, D) - D / 2;
            return Math.pow(r, Math.abs(offset)) / total;
          },
          0,
          D - 1);
    }
  }

  @Test
  void staircaseOnTheGridIsExactlyPrivate() {
    for (double eps : new double[] {0.5, 2, 8}) {
      for (Objective objective : Objective.values()) {
        Staircase s = Staircase.optimal(eps, objective);
        long first = Math.min(Math.max(Math.round(s.gamma() * D), 0), D);
        double b = Math.exp(-eps);
        double share = first / (first + (D - first) * b);
        checkDiscrete(
            s,
            eps,
            (xc, c) -> {
              long noise = c - xc;
              long magnitude = noise >= 0 ? noise : -noise - 1;
              long block = magnitude / D;
              long offset = magnitude % D;
              double blockMass = (1 - b) * Math.pow(b, block);
              double inBlock = offset < first ? share / first : (1 - share) / (D - first);
              return 0.5 * blockMass * inBlock;
            },
            -blocks(eps) * D,
            (blocks(eps) + 1) * D);
      }
    }
  }

  /** Blocks each side holding all but e^-16 of the staircase's mass. */
  private static long blocks(double eps) {
    return (long) Math.ceil(16 / eps);
  }

  /** Cell probabilities for an input cell: {@code pmf(xc, c)}. */
  interface Pmf {
    double at(long inputCell, long cell);
  }

  /**
   * For every input cell in [0, D], the pmf is a distribution (on the window, for unbounded ones:
   * at least 1 - 1e-6 of it), its ratio across inputs is at most e^eps exactly, and for two inputs
   * the sampler's draws follow it (chi-square, p = 1e-5 each).
   */
  private static void checkDiscrete(UnitMechanism m, double eps, Pmf pmf, long lo, long hi) {
    int inputs = (int) (m.circular() ? D : D + 1);
    int cells = (int) (hi - lo + 1);
    double[][] p = new double[inputs][cells];
    for (int xc = 0; xc < inputs; xc++) {
      double total = 0;
      for (long c = lo; c <= hi; c++) {
        p[xc][(int) (c - lo)] = pmf.at(xc, c);
        total += p[xc][(int) (c - lo)];
      }
      assertThat(total).as("%s mass at input cell %s", m, xc).isBetween(1 - 1e-6, 1 + 1e-12);
    }
    double worst = 1;
    for (int c = 0; c < cells; c++) {
      double max = 0;
      double min = Double.POSITIVE_INFINITY;
      for (int xc = 0; xc < inputs; xc++) {
        max = Math.max(max, p[xc][c]);
        min = Math.min(min, p[xc][c]);
      }
      worst = Math.max(worst, max / min);
    }
    assertThat(worst).as("%s", m).isLessThanOrEqualTo(Math.exp(eps) * (1 + 1e-9));
    OutputGrid grid = OutputGrid.of(BITS, m);
    CellSampler sampler = m.cellSampler(grid);
    AesCtrSource bits = AesCtrSource.seeded((long) (eps * 1000));
    for (long xc : new long[] {0, D / 3, m.circular() ? D - 1 : D}) {
      double z = (double) xc / D;
      long[] counts = new long[cells];
      long outside = 0;
      int n = 60_000;
      for (int i = 0; i < n; i++) {
        long c = sampler.sampleCell(z, bits);
        if (c < lo || c > hi) {
          outside++;
        } else {
          counts[(int) (c - lo)]++;
        }
      }
      assertThat(outside).as("%s draws outside the window", m).isLessThanOrEqualTo(5);
      io.ogpm.mechanism.ChiSquare.assertFits(counts, p[(int) xc], m + " input cell " + xc);
    }
  }
}
