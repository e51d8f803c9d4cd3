package io.ogpm.mechanism.baseline;

import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.UnitMechanism;
import java.util.List;

/** The baselines under test at one epsilon. */
final class Baselines {
  private Baselines() {}

  static List<UnitMechanism> classical(double eps) {
    return List.of(
        PiecewiseMechanism.of(eps, PiecewiseMechanism.Output.ORIGINAL),
        PiecewiseMechanism.of(eps, PiecewiseMechanism.Output.COMPRESSED),
        Truncation.of(PiecewiseMechanism.of(eps, PiecewiseMechanism.Output.ORIGINAL), "T-PM"),
        SquareWave.of(eps, SquareWave.Output.ORIGINAL),
        SquareWave.of(eps, SquareWave.Output.COMPRESSED),
        Truncation.of(SquareWave.of(eps, SquareWave.Output.ORIGINAL), "T-SW"),
        HybridMechanism.of(eps),
        Staircase.optimal(eps, Objective.L1),
        Staircase.optimal(eps, Objective.L2),
        TruncatedLaplace.of(eps),
        BoundedLaplace.of(eps));
  }

  static List<UnitMechanism> all(double eps) {
    List<UnitMechanism> out = new java.util.ArrayList<>(classical(eps));
    out.add(Purkayastha.of(eps));
    return out;
  }
}
