package io.ogpm.mechanism.catalog;

import io.ogpm.annotation.PublicEvolving;
import io.ogpm.mechanism.CircularOgpm;
import io.ogpm.mechanism.ClassicalOgpm;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.OgpmShape;
import io.ogpm.mechanism.UnbiasedOgpm;
import io.ogpm.mechanism.UnitMechanism;
import io.ogpm.mechanism.baseline.BoundedLaplace;
import io.ogpm.mechanism.baseline.HybridMechanism;
import io.ogpm.mechanism.baseline.PiecewiseMechanism;
import io.ogpm.mechanism.baseline.Purkayastha;
import io.ogpm.mechanism.baseline.SquareWave;
import io.ogpm.mechanism.baseline.Staircase;
import io.ogpm.mechanism.baseline.TruncatedLaplace;
import io.ogpm.mechanism.baseline.Truncation;

/**
 * Every shipped mechanism by its {@link io.ogpm.mechanism.MechanismType}: the one place that knows
 * both the optimal mechanisms of {@code io.ogpm.mechanism} and the paper's baselines of {@code
 * io.ogpm.mechanism.baseline}, so neither package depends on the other's users.
 */
@PublicEvolving
public final class MechanismCatalog {
  private MechanismCatalog() {}

  /** Builds the mechanism a spec describes. */
  public static Mechanism of(MechanismSpec spec) {
    return Mechanism.of(spec, unitMechanism(spec));
  }

  /** The unit-domain mechanism for a spec (classical mechanisms on a circle act on [lo, hi)). */
  public static UnitMechanism unitMechanism(MechanismSpec spec) {
    boolean circle = spec.domain().isCircular();
    double eps = spec.epsilon();
    return switch (spec.type()) {
      case OGPM -> circle ? CircularOgpm.optimal(eps, spec.objective()) : classicalOgpm(spec);
      case OGPM_U -> UnbiasedOgpm.of(eps);
      case PM -> PiecewiseMechanism.of(eps, PiecewiseMechanism.Output.ORIGINAL);
      case PM_C -> PiecewiseMechanism.of(eps, PiecewiseMechanism.Output.COMPRESSED);
      case T_PM ->
          Truncation.of(PiecewiseMechanism.of(eps, PiecewiseMechanism.Output.ORIGINAL), "T-PM");
      case SW -> SquareWave.of(eps, SquareWave.Output.ORIGINAL);
      case SW_C -> SquareWave.of(eps, SquareWave.Output.COMPRESSED);
      case T_SW -> Truncation.of(SquareWave.of(eps, SquareWave.Output.ORIGINAL), "T-SW");
      case HM -> HybridMechanism.of(eps);
      case STAIRCASE -> Staircase.optimal(eps, spec.objective());
      case T_LAPLACE -> TruncatedLaplace.of(eps);
      case B_LAPLACE -> BoundedLaplace.of(eps);
      case PURKAYASTHA -> Purkayastha.of(eps);
    };
  }

  /**
   * The worst-case optimum, or with {@code optimize-at} the three-piece mechanism that minimises
   * the error at x0 ({@link OgpmShape#optimalAt}), which the m-piece solver ({@code
   * io.ogpm.mechanism.solve}) confirms is optimal among m-piece GPMs.
   */
  private static ClassicalOgpm classicalOgpm(MechanismSpec spec) {
    if (spec.optimizeAt().isEmpty()) {
      return ClassicalOgpm.optimal(spec.epsilon(), spec.objective());
    }
    double z =
        Math.min(1, (spec.optimizeAt().getAsDouble() - spec.domain().lo()) / spec.domain().width());
    return ClassicalOgpm.withShape(
        OgpmShape.optimalAt(spec.epsilon(), z, spec.objective().metric()));
  }
}
