package io.ogpm.mechanism.audit;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.CellSampler;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.OutputGrid;
import io.ogpm.mechanism.PiecewiseDistribution;
import io.ogpm.mechanism.UnitMechanism;
import io.ogpm.mechanism.random.RandomBits;

/** Samplers to audit, from a {@link Mechanism}. */
@Internal
public final class MechanismSamplers {
  private MechanismSamplers() {}

  /** The production sampler: outputs snapped to the grid, the same value set for every input. */
  public static AuditedSampler snapped(Mechanism m) {
    return new Base(m) {
      @Override
      public double sample(double x, RandomBits bits) {
        return m.perturb(x, bits);
      }
    };
  }

  /**
   * The negative control: the raw inverse-cdf double {@code lo + w * y(u)} for a 53-bit uniform u,
   * not snapped. For piecewise mechanisms, {@link #producible} answers exactly: u is recovered as
   * {@code cdf_x(y)} to within a few steps of 2^-53, and the neighbouring steps are tried.
   */
  public static AuditedSampler unsnapped(Mechanism m) {
    return new Base(m) {
      @Override
      public double sample(double x, RandomBits bits) {
        return m.perturbUnsnapped(x, bits.nextUniform());
      }

      @Override
      public boolean producible(double x, double y) {
        if (!m.isPiecewise()) {
          return true;
        }
        PiecewiseDistribution d = m.distribution(x);
        long j = (long) Math.floor(d.cdf(y) * 0x1.0p53);
        for (long k = j - 4; k <= j + 4; k++) {
          if (k >= 0 && k < (1L << 53) && m.perturbUnsnapped(x, k * 0x1.0p-53) == y) {
            return true;
          }
        }
        return false;
      }
    };
  }

  /**
   * A unit mechanism's exact grid sampler, outputs in unit coordinates (cell midpoints): for
   * auditing mechanisms that no {@code MechanismSpec} names, such as deliberately broken ones.
   */
  public static AuditedSampler snapped(UnitMechanism unit, int gridBits) {
    OutputGrid grid = OutputGrid.of(gridBits, unit);
    CellSampler cells = unit.cellSampler(grid);
    return new AuditedSampler() {
      @Override
      public double sample(double x, RandomBits bits) {
        return grid.unitValue(cells.sampleCell(x, bits));
      }

      @Override
      public double outputLo() {
        return unit.outputLo();
      }

      @Override
      public double outputHi() {
        return unit.outputHi();
      }

      @Override
      public double inputLo() {
        return 0;
      }

      @Override
      public double inputHi() {
        return unit.circular() ? Math.nextDown(1.0) : 1;
      }
    };
  }

  private abstract static class Base implements AuditedSampler {
    final Mechanism m;

    Base(Mechanism m) {
      this.m = m;
    }

    @Override
    public double outputLo() {
      double w = m.domain().width();
      return Double.isFinite(m.outputLo()) ? m.outputLo() : m.domain().lo() - w;
    }

    @Override
    public double outputHi() {
      double w = m.domain().width();
      return Double.isFinite(m.outputHi()) ? m.outputHi() : m.domain().hi() + w;
    }

    @Override
    public double inputLo() {
      return m.domain().lo();
    }

    @Override
    public double inputHi() {
      return m.domain().isCircular() ? Math.nextDown(m.domain().hi()) : m.domain().hi();
    }
  }
}
