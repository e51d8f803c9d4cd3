package io.ogpm.reproduce;

import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.report.Series;
import java.util.function.DoubleFunction;
import java.util.function.DoubleUnaryOperator;

/** Exact error curves: over the inputs of a domain, or worst cases over a range of epsilons. */
final class ErrorCurves {
  private ErrorCurves() {}

  /** {@code n + 1} equally spaced points from a to b, both included. */
  static double[] grid(double a, double b, int n) {
    double[] x = new double[n + 1];
    for (int i = 0; i <= n; i++) {
      x[i] = i == n ? b : a + (b - a) * i / n;
    }
    return x;
  }

  static Mechanism mechanism(MechanismType type, Domain domain, double eps, Objective objective) {
    return MechanismCatalog.of(
        MechanismSpec.builder()
            .type(type)
            .domain(domain)
            .epsilon(eps)
            .objective(objective)
            .build());
  }

  static Mechanism mechanism(MechanismType type, Domain domain, double eps) {
    return mechanism(type, domain, eps, Objective.L1);
  }

  /** The expected error at every input of a grid over the mechanism's domain. */
  static double[] wholeDomain(Mechanism m, ErrorMetric metric, Distance distance, double[] xs) {
    double[] y = new double[xs.length];
    for (int i = 0; i < xs.length; i++) {
      y[i] = m.expectedError(xs[i], metric, distance);
    }
    return y;
  }

  static Series wholeDomainSeries(
      String name, Mechanism m, ErrorMetric metric, Distance distance, double[] xs) {
    return Series.of(name, xs, wholeDomain(m, metric, distance, xs));
  }

  /** The worst-case error of the mechanism built for each epsilon. */
  static double[] worstCase(
      DoubleFunction<Mechanism> byEpsilon,
      ErrorMetric metric,
      Distance distance,
      double[] epsilons) {
    double[] y = new double[epsilons.length];
    for (int i = 0; i < epsilons.length; i++) {
      y[i] = byEpsilon.apply(epsilons[i]).worstCaseError(metric, distance);
    }
    return y;
  }

  static Series worstCaseSeries(
      String name,
      DoubleFunction<Mechanism> byEpsilon,
      ErrorMetric metric,
      Distance distance,
      double[] epsilons) {
    return Series.of(name, epsilons, worstCase(byEpsilon, metric, distance, epsilons));
  }

  /** Mean of a curve. */
  static double mean(double[] values) {
    double s = 0;
    for (double v : values) {
      s += v;
    }
    return s / values.length;
  }

  /** Largest value of f(i) - g(i). */
  static double maxDifference(double[] f, double[] g) {
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < f.length; i++) {
      max = Math.max(max, f[i] - g[i]);
    }
    return max;
  }

  static double[] map(double[] xs, DoubleUnaryOperator f) {
    double[] y = new double[xs.length];
    for (int i = 0; i < xs.length; i++) {
      y[i] = f.applyAsDouble(xs[i]);
    }
    return y;
  }
}
