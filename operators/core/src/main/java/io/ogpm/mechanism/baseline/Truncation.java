package io.ogpm.mechanism.baseline;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.AbstractUnitMechanism;
import io.ogpm.mechanism.CellSampler;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.OutputGrid;
import io.ogpm.mechanism.PiecewiseDistribution;
import io.ogpm.mechanism.PiecewiseUnitMechanism;
import io.ogpm.mechanism.random.RandomBits;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * A piecewise mechanism with an enlarged output domain, truncated into the input domain [0, 1):
 * outputs below 0 are reported at 0 and outputs at or above 1 at 1 (the paper's T-PM and T-SW).
 * Truncation is post-processing, so eps is kept; the output distribution gains atoms at both ends
 * (docs/mechanisms.md, "Truncated baselines"), which the expected error includes. Sampling draws
 * the base mechanism's cell exactly on its own enlarged grid and clamps the cell.
 */
@Internal
public final class Truncation extends AbstractUnitMechanism implements PiecewiseUnitMechanism {
  private final PiecewiseUnitMechanism base;
  private final String name;

  private Truncation(PiecewiseUnitMechanism base, String name) {
    super(base.epsilon());
    this.base = base;
    this.name = name;
  }

  /** Truncates a mechanism whose output domain contains [0, 1). */
  public static Truncation of(PiecewiseUnitMechanism base, String name) {
    Checks.notNull("base", base);
    if (base.circular() || base.outputLo() > 0 || base.outputHi() < 1) {
      throw new IllegalArgumentException(
          "truncation needs a classical output domain containing [0, 1), got " + base);
    }
    return new Truncation(base, name);
  }

  public PiecewiseUnitMechanism base() {
    return base;
  }

  @Override
  public PiecewiseDistribution distribution(double z) {
    PiecewiseDistribution d = base.distribution(z);
    List<PiecewiseDistribution.Piece> pieces = new ArrayList<>();
    for (PiecewiseDistribution.Piece p : d.pieces()) {
      double from = Math.max(p.from(), 0);
      double to = Math.min(p.to(), 1);
      if (to > from) {
        pieces.add(new PiecewiseDistribution.Piece(from, to, p.density()));
      }
    }
    double below = d.mass(Double.NEGATIVE_INFINITY, 0);
    double above = d.mass(1, Double.POSITIVE_INFINITY);
    return PiecewiseDistribution.of(
        pieces,
        List.of(
            new PiecewiseDistribution.Atom(0, below), new PiecewiseDistribution.Atom(1, above)));
  }

  @Override
  public double inverseCdf(double z, double u) {
    return clampToUnit(base.inverseCdf(z, u));
  }

  @Override
  public CellSampler cellSampler(OutputGrid grid) {
    return new Clamped(base.cellSampler(OutputGrid.of(grid.bits(), base)), grid.maxCell());
  }

  /**
   * The base sampler's cell clamped into {@code [0, last]}: a fixed function of the cell, so the
   * base sampler's certified epsilon carries over (a clamped cell's probability is a sum over base
   * cells, and a ratio of sums is at most the largest ratio of their terms).
   */
  private record Clamped(CellSampler enlarged, long last) implements CellSampler {
    @Override
    public long sampleCell(double z, RandomBits bits) {
      return Math.min(Math.max(enlarged.sampleCell(z, bits), 0), last);
    }

    @Override
    public OptionalDouble certifiedEpsilon() {
      return enlarged.certifiedEpsilon();
    }
  }

  @Override
  public String toString() {
    return name + "{" + base + "}";
  }
}
