package io.ogpm.mechanism;

import java.util.ArrayList;
import java.util.List;

/** The mechanisms under test, by name, across objectives and domains. */
final class Mechanisms {
  private Mechanisms() {}

  /** A named unit mechanism for parameterised tests. */
  record Named(String name, PiecewiseUnitMechanism mechanism) {
    @Override
    public String toString() {
      return name + " eps=" + mechanism.epsilon();
    }
  }

  static final double[] EPSILONS = {0.001, 0.01, 0.1, 0.5, 1, 2, 3, 4, 6, 8, 12, 16, 20, 30};

  /** Every optimal mechanism the library builds, at one epsilon. */
  static List<Named> all(double eps) {
    List<Named> out = new ArrayList<>();
    out.add(new Named("ogpm-classical-l1", ClassicalOgpm.optimal(eps, Objective.L1)));
    out.add(new Named("ogpm-classical-l2", ClassicalOgpm.optimal(eps, Objective.L2)));
    out.add(new Named("ogpm-circular-l1", CircularOgpm.optimal(eps, Objective.L1)));
    out.add(new Named("ogpm-circular-l2", CircularOgpm.optimal(eps, Objective.L2)));
    out.add(new Named("ogpm-u", UnbiasedOgpm.of(eps)));
    out.add(
        new Named(
            "ogpm-classical-l1-at-0.2",
            ClassicalOgpm.withShape(OgpmShape.optimalAt(eps, 0.2, ErrorMetric.L1))));
    out.add(
        new Named(
            "ogpm-classical-l2-at-0.7",
            ClassicalOgpm.withShape(OgpmShape.optimalAt(eps, 0.7, ErrorMetric.L2))));
    return out;
  }

  /** Every mechanism at every test epsilon. */
  static List<Named> allEpsilons() {
    List<Named> out = new ArrayList<>();
    for (double eps : EPSILONS) {
      out.addAll(all(eps));
    }
    return out;
  }
}
