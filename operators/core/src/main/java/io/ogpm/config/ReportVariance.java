package io.ogpm.config;

import io.ogpm.estimate.MechanismAdvisor;
import io.ogpm.estimate.RecentResults;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.UnitMechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;

/**
 * The variance of one report's unbiased estimate of its input, at its worst over the domain and in
 * units of the domain: what one record adds to the error of a field's mean, which {@code auto}
 * field sampling weighs against how many records report the field ({@link FieldSampling}); and the
 * variance of the inputs themselves, in the same units, which a mean over the records that report a
 * field misses of the mean over all of them.
 *
 * <ul>
 *   <li>On an interval (and for a mechanism that is not rotation invariant on a circle, which works
 *       on the flattened range): the mean output {@code g(x)} moves with the input at the slope b
 *       of its middle, where every mechanism here is affine (the secant over the middle tenth of
 *       the domain), so {@code (y - g(lo)) / b} estimates x without bias there with variance {@code
 *       Var[M(x)] / b^2}: {@code maxOutputVariance / (b w)^2}, w the domain's width.
 *   <li>On a circle (rotation invariant): {@code e^{iy} / rho1} estimates {@code e^{ix}} without
 *       bias, each component with variance at most {@code max((1 - rho2) / 2, (1 + rho2) / 2 -
 *       rho1^2) / rho1^2} ({@code rho_k} the noise's cosine moments), which is the variance of the
 *       direction's estimate, in radians, of inputs all in one direction: over {@code (2 pi)^2}.
 * </ul>
 *
 * Exact up to the quadrature and the maximisation the mechanism's moments use.
 *
 * <p>The inputs' variance is not known before the data: {@link #ofInputs} is the largest that
 * {@code auto} weighs, that of inputs spread evenly over the domain, 1/12 of its width (or period)
 * squared. The worst case, 1/4 (half the inputs at each end), would weigh the records a sampled
 * field leaves out as if every window were split between the ends of its domain.
 */
final class ReportVariance {
  private ReportVariance() {}

  /**
   * The variance for a field at another epsilon: its mechanism's, or for {@code mechanism: auto}
   * the smallest of the mechanisms it chooses among (the choice is made once K is, at the epsilon K
   * gives: weighing K with the best candidate's variance does not favour a K for a mechanism the
   * choice may not take).
   */
  static double of(FieldConfig field, double epsilon) {
    if (field.choice().isEmpty()) {
      return of(field.spec(), epsilon);
    }
    boolean circular = field.domain().isCircular();
    // In units of the domain: the same for every domain of a kind, so one unit domain serves all.
    MechanismSpec unit =
        field.spec().toBuilder()
            .domain(circular ? Domain.circular(0, 1) : Domain.classical(0, 1))
            .optimizeAt(Double.NaN)
            .epsilon(epsilon)
            .build();
    double best = Double.POSITIVE_INFINITY;
    for (MechanismSpec candidate : MechanismAdvisor.candidates(unit)) {
      best = Math.min(best, cached(candidate, epsilon));
    }
    return best;
  }

  private record Key(MechanismSpec spec, double epsilon) {}

  /** Variances already computed for auto's candidates, the most recent 1,024 (pure function). */
  private static final RecentResults<Key, Double> CACHE = new RecentResults<>(1024);

  private static double cached(MechanismSpec spec, double epsilon) {
    return CACHE.get(new Key(spec, epsilon), k -> of(spec, epsilon));
  }

  /**
   * The variance for a field's mechanism at another epsilon, in units of its domain: computed on
   * the unit mechanism, which carries every moment it needs and, unlike a {@link
   * io.ogpm.mechanism.Mechanism}, builds no certified sampler (the costly part of building one, and
   * this is asked for every candidate at every K).
   */
  static double of(MechanismSpec spec, double epsilon) {
    UnitMechanism u = MechanismCatalog.unitMechanism(spec.toBuilder().epsilon(epsilon).build());
    if (spec.domain().isCircular() && u.circular()) {
      double r1 = u.noiseCosineMoment(0, 1);
      double r2 = u.noiseCosineMoment(0, 2);
      double component = Math.max((1 - r2) / 2, (1 + r2) / 2 - r1 * r1);
      return component / (r1 * r1) / (4 * Math.PI * Math.PI);
    }
    // The secant over the middle tenth: g is affine there for every mechanism offered.
    double slope = (u.outputMean(0.55) - u.outputMean(0.45)) / 0.1;
    return u.maxOutputVariance() / (slope * slope);
  }

  /**
   * The largest inputs' variance auto weighs: inputs spread evenly over a field's domain, 1/12 in
   * its units.
   */
  static double ofInputs() {
    return 1.0 / 12;
  }
}
