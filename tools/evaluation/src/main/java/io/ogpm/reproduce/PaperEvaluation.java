package io.ogpm.reproduce;

import static io.ogpm.reproduce.ErrorCurves.grid;
import static io.ogpm.reproduce.ErrorCurves.mean;
import static io.ogpm.reproduce.ErrorCurves.mechanism;
import static io.ogpm.reproduce.ErrorCurves.wholeDomain;
import static io.ogpm.reproduce.ErrorCurves.wholeDomainSeries;
import static io.ogpm.reproduce.ErrorCurves.worstCase;
import static io.ogpm.reproduce.ErrorCurves.worstCaseSeries;

import io.ogpm.mechanism.Distance;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.ErrorMetric;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.baseline.BoundedLaplace;
import io.ogpm.report.Series;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * The paper's evaluation of expected errors (section "Expected Errors" and appendix "Comparison
 * under small eps"), recomputed exactly: every curve is an exact expected error, no sampling.
 *
 * <p>Grids: inputs are 1001 equally spaced points of the domain (both ends included); epsilons are
 * the paper's 15 values 1, 1.5, ..., 8. "Average error" is the mean over the grid, and a ratio of
 * averages is reported, which is what reproduces the paper's figures.
 */
public final class PaperEvaluation {
  static final Domain UNIT = Domain.classical(0, 1);
  static final Domain CIRCLE = Domain.circular(0, 2 * Math.PI);
  static final Domain FLAT_CIRCLE = Domain.classical(0, 2 * Math.PI);
  static final double[] EPSILONS = grid(1, 8, 14);
  static final int INPUTS = 1000;

  private final List<Figure> figures = new ArrayList<>();
  private final List<Claim> claims = new ArrayList<>();

  /** Computes every figure and claim. */
  public static PaperEvaluation compute() {
    PaperEvaluation e = new PaperEvaluation();
    e.classicalWholeDomain();
    e.classicalWorstCase();
    e.circularWholeDomain();
    e.circularWorstCase();
    e.originalAndTruncated();
    e.laplaceFamily();
    e.purkayastha();
    e.smallEpsilon();
    e.checkedValues();
    return e;
  }

  public List<Figure> figures() {
    return figures;
  }

  public List<Claim> claims() {
    return claims;
  }

  private void classicalWholeDomain() {
    double[] xs = grid(0, 1, INPUTS);
    double[][] paper = {{2, 0.942, 0.923}, {4, 0.905, 0.747}};
    for (double[] row : paper) {
      double eps = row[0];
      double[][] errors = classicalAbsoluteErrors(eps, xs);
      double[] ogpm = errors[0];
      double[] pmc = errors[1];
      double[] swc = errors[2];
      figures.add(
          classicalAbsoluteFigure(
              "classical-whole-domain-eps" + (int) eps, String.valueOf((int) eps), xs, errors));
      String where =
          "Expected errors, classical domain (Fig. whole-domain, eps = " + (int) eps + ")";
      claims.add(
          new Claim(
              where,
              "OGPM's average absolute error relative to PM-C",
              row[1],
              mean(ogpm) / mean(pmc),
              true,
              "exact errors on 1001 inputs"));
      claims.add(
          new Claim(
              where,
              "OGPM's average absolute error relative to SW-C",
              row[2],
              mean(ogpm) / mean(swc),
              true,
              "exact errors on 1001 inputs"));
    }
  }

  private void classicalWorstCase() {
    for (ErrorMetric metric : ErrorMetric.values()) {
      DoubleFunction<Mechanism> ogpm = eps -> mechanism(MechanismType.OGPM, UNIT, eps);
      DoubleFunction<Mechanism> ogpmL2 =
          eps -> mechanism(MechanismType.OGPM, UNIT, eps, Objective.L2);
      DoubleFunction<Mechanism> pmc = eps -> mechanism(MechanismType.PM_C, UNIT, eps);
      DoubleFunction<Mechanism> swc = eps -> mechanism(MechanismType.SW_C, UNIT, eps);
      List<Series> series = new ArrayList<>();
      series.add(
          worstCaseSeries("OGPM (closed form, l1)", ogpm, metric, Distance.LINEAR, EPSILONS));
      if (metric == ErrorMetric.L2) {
        series.add(worstCaseSeries("OGPM (l2 optimum)", ogpmL2, metric, Distance.LINEAR, EPSILONS));
      }
      series.add(worstCaseSeries("PM-C", pmc, metric, Distance.LINEAR, EPSILONS));
      series.add(worstCaseSeries("SW-C", swc, metric, Distance.LINEAR, EPSILONS));
      figures.add(
          Figure.of(
              "classical-worst-case-" + metric.id(),
              "Classical domain [0,1), worst-case " + errorName(metric),
              "epsilon",
              "worst-case " + lossLabel(metric, "|y - x|"),
              series));
      if (metric == ErrorMetric.L2) {
        double[] best = worstCase(ogpmL2, metric, Distance.LINEAR, EPSILONS);
        double[] closed = worstCase(ogpm, metric, Distance.LINEAR, EPSILONS);
        double[] p = worstCase(pmc, metric, Distance.LINEAR, EPSILONS);
        double[] s = worstCase(swc, metric, Distance.LINEAR, EPSILONS);
        String where = "Expected errors, classical domain (Fig. worst-case, square error)";
        String note =
            "OGPM as the square-error optimum (docs/mechanisms.md#the-square-error-optimum; the paper's curve came from its solver). With the"
                + " closed form the ratio to PM-C is "
                + pct(mean(closed) / mean(p))
                + ": at the endpoints the closed form and PM-C coincide";
        claims.add(
            new Claim(
                where,
                "OGPM's average worst-case square error relative to PM-C",
                0.899,
                mean(best) / mean(p),
                true,
                note));
        claims.add(
            new Claim(
                where,
                "OGPM's average worst-case square error relative to SW-C",
                0.617,
                mean(best) / mean(s),
                true,
                note));
      }
    }
  }

  private void circularWholeDomain() {
    double[] xs = grid(0, 2 * Math.PI, INPUTS);
    double[][] paper = {{2, 0.475, 0.430}, {4, 0.413, 0.246}};
    for (double[] row : paper) {
      double eps = row[0];
      Mechanism ogpm = mechanism(MechanismType.OGPM, CIRCLE, eps, Objective.L2);
      Mechanism closed = mechanism(MechanismType.OGPM, CIRCLE, eps);
      Mechanism pmc = mechanism(MechanismType.PM_C, CIRCLE, eps);
      Mechanism swc = mechanism(MechanismType.SW_C, CIRCLE, eps);
      double[] o = wholeDomain(ogpm, ErrorMetric.L2, Distance.CIRCULAR, xs);
      double[] pLinear = wholeDomain(pmc, ErrorMetric.L2, Distance.LINEAR, xs);
      double[] sLinear = wholeDomain(swc, ErrorMetric.L2, Distance.LINEAR, xs);
      double[] pCircular = wholeDomain(pmc, ErrorMetric.L2, Distance.CIRCULAR, xs);
      double[] sCircular = wholeDomain(swc, ErrorMetric.L2, Distance.CIRCULAR, xs);
      figures.add(
          Figure.of(
              "circular-whole-domain-eps" + (int) eps,
              "Circular domain [0,2pi), square error, eps = " + (int) eps,
              "x",
              "E d(y, x)^2",
              List.of(
                  Series.of("OGPM (l2 optimum)", xs, o),
                  wholeDomainSeries(
                      "OGPM (closed form)", closed, ErrorMetric.L2, Distance.CIRCULAR, xs),
                  Series.of("PM-C, circular distance", xs, pCircular),
                  Series.of("SW-C, circular distance", xs, sCircular),
                  Series.of("PM-C, linear distance (paper)", xs, pLinear),
                  Series.of("SW-C, linear distance (paper)", xs, sLinear))));
      String where =
          "Expected errors, circular domain (Fig. whole-domain, eps = " + (int) eps + ")";
      claims.add(
          new Claim(
              where,
              "OGPM's average square error relative to PM-C",
              row[1],
              mean(o) / mean(pLinear),
              true,
              "as the paper measured: PM-C with linear distance on the flattened circle (docs/mechanisms.md#circular-comparisons-and-distance); with circular"
                  + " distance for both: "
                  + pct(mean(o) / mean(pCircular))));
      claims.add(
          new Claim(
              where,
              "OGPM's average square error relative to SW-C",
              row[2],
              mean(o) / mean(sLinear),
              true,
              "linear distance for SW-C as in the paper; with circular distance: "
                  + pct(mean(o) / mean(sCircular))));
    }
  }

  private void circularWorstCase() {
    double[][] paper = {{1, 0.500, 0.416}, {2, 0.224, 0.154}};
    for (double[] row : paper) {
      ErrorMetric metric = row[0] == 1 ? ErrorMetric.L1 : ErrorMetric.L2;
      Objective objective = metric == ErrorMetric.L1 ? Objective.L1 : Objective.L2;
      DoubleFunction<Mechanism> ogpm = eps -> mechanism(MechanismType.OGPM, CIRCLE, eps, objective);
      DoubleFunction<Mechanism> pmc = eps -> mechanism(MechanismType.PM_C, CIRCLE, eps);
      DoubleFunction<Mechanism> swc = eps -> mechanism(MechanismType.SW_C, CIRCLE, eps);
      double[] o = worstCase(ogpm, metric, Distance.CIRCULAR, EPSILONS);
      double[] pLinear = worstCase(pmc, metric, Distance.LINEAR, EPSILONS);
      double[] sLinear = worstCase(swc, metric, Distance.LINEAR, EPSILONS);
      double[] pCircular = worstCase(pmc, metric, Distance.CIRCULAR, EPSILONS);
      double[] sCircular = worstCase(swc, metric, Distance.CIRCULAR, EPSILONS);
      String ogpmName = objective == Objective.L1 ? "OGPM (closed form)" : "OGPM (l2 optimum)";
      figures.add(
          Figure.of(
              "circular-worst-case-" + metric.id(),
              "Circular domain [0,2pi), worst-case " + errorName(metric),
              "epsilon",
              "worst-case " + lossLabel(metric, "d(y, x)"),
              List.of(
                  Series.of(ogpmName, EPSILONS, o),
                  Series.of("PM-C, circular distance", EPSILONS, pCircular),
                  Series.of("SW-C, circular distance", EPSILONS, sCircular),
                  Series.of("PM-C, linear distance (paper)", EPSILONS, pLinear),
                  Series.of("SW-C, linear distance (paper)", EPSILONS, sLinear))));
      String where =
          "Expected errors, circular domain (Fig. worst-case, " + errorName(metric) + ")";
      claims.add(
          new Claim(
              where,
              "OGPM's average worst-case " + errorName(metric) + " relative to PM-C",
              row[1],
              mean(o) / mean(pLinear),
              true,
              ogpmName
                  + "; PM-C with linear distance as in the paper (docs/mechanisms.md#circular-comparisons-and-distance); with circular distance: "
                  + pct(mean(o) / mean(pCircular))));
      claims.add(
          new Claim(
              where,
              "OGPM's average worst-case " + errorName(metric) + " relative to SW-C",
              row[2],
              mean(o) / mean(sLinear),
              true,
              "SW-C with linear distance as in the paper; with circular distance: "
                  + pct(mean(o) / mean(sCircular))));
    }
  }

  private void originalAndTruncated() {
    double eps = 2;
    Domain pmDomain = Domain.classical(-1, 1);
    double[] xs = grid(-1, 1, INPUTS);
    figures.add(
        Figure.of(
            "pm-original-truncated-eps2",
            "PM and T-PM on [-1,1), square error, eps = 2",
            "x",
            "E(y - x)^2",
            List.of(
                wholeDomainSeries(
                    "OGPM (closed form)",
                    mechanism(MechanismType.OGPM, pmDomain, eps),
                    ErrorMetric.L2,
                    Distance.LINEAR,
                    xs),
                wholeDomainSeries(
                    "OGPM (l2 optimum)",
                    mechanism(MechanismType.OGPM, pmDomain, eps, Objective.L2),
                    ErrorMetric.L2,
                    Distance.LINEAR,
                    xs),
                wholeDomainSeries(
                    "PM",
                    mechanism(MechanismType.PM, pmDomain, eps),
                    ErrorMetric.L2,
                    Distance.LINEAR,
                    xs),
                wholeDomainSeries(
                    "T-PM",
                    mechanism(MechanismType.T_PM, pmDomain, eps),
                    ErrorMetric.L2,
                    Distance.LINEAR,
                    xs))));
    double[] us = grid(0, 1, INPUTS);
    figures.add(
        Figure.of(
            "sw-original-truncated-eps2",
            "SW and T-SW on [0,1), square error, eps = 2",
            "x",
            "E(y - x)^2",
            List.of(
                wholeDomainSeries(
                    "OGPM (closed form)",
                    mechanism(MechanismType.OGPM, UNIT, eps),
                    ErrorMetric.L2,
                    Distance.LINEAR,
                    us),
                wholeDomainSeries(
                    "OGPM (l2 optimum)",
                    mechanism(MechanismType.OGPM, UNIT, eps, Objective.L2),
                    ErrorMetric.L2,
                    Distance.LINEAR,
                    us),
                wholeDomainSeries(
                    "SW",
                    mechanism(MechanismType.SW, UNIT, eps),
                    ErrorMetric.L2,
                    Distance.LINEAR,
                    us),
                wholeDomainSeries(
                    "T-SW",
                    mechanism(MechanismType.T_SW, UNIT, eps),
                    ErrorMetric.L2,
                    Distance.LINEAR,
                    us))));
  }

  private void laplaceFamily() {
    double[] xs = grid(0, 1, INPUTS);
    for (double eps : new double[] {2, 4}) {
      figures.add(
          Figure.of(
              "laplace-family-whole-domain-eps" + (int) eps,
              "Staircase, T-Laplace, B-Laplace on [0,1), absolute error, eps = " + (int) eps,
              "x",
              "E|y - x|",
              List.of(
                  wholeDomainSeries(
                      "OGPM",
                      mechanism(MechanismType.OGPM, UNIT, eps),
                      ErrorMetric.L1,
                      Distance.LINEAR,
                      xs),
                  wholeDomainSeries(
                      "Staircase",
                      mechanism(MechanismType.STAIRCASE, UNIT, eps),
                      ErrorMetric.L1,
                      Distance.LINEAR,
                      xs),
                  wholeDomainSeries(
                      "T-Laplace",
                      mechanism(MechanismType.T_LAPLACE, UNIT, eps),
                      ErrorMetric.L1,
                      Distance.LINEAR,
                      xs),
                  wholeDomainSeries(
                      "B-Laplace",
                      mechanism(MechanismType.B_LAPLACE, UNIT, eps),
                      ErrorMetric.L1,
                      Distance.LINEAR,
                      xs),
                  Series.of(
                      "B-Laplace, paper's formula (not a distribution)",
                      xs,
                      ErrorCurves.map(xs, x -> BoundedLaplace.paperAbsoluteError(eps, x)),
                      Series.Style.DASHED_LINE))));
    }
    figures.add(
        Figure.of(
            "laplace-family-worst-case",
            "Staircase, T-Laplace, B-Laplace on [0,1), worst-case absolute error",
            "epsilon",
            "worst-case E|y - x|",
            List.of(
                worstCaseSeries(
                    "OGPM",
                    e -> mechanism(MechanismType.OGPM, UNIT, e),
                    ErrorMetric.L1,
                    Distance.LINEAR,
                    EPSILONS),
                worstCaseSeries(
                    "Staircase",
                    e -> mechanism(MechanismType.STAIRCASE, UNIT, e),
                    ErrorMetric.L1,
                    Distance.LINEAR,
                    EPSILONS),
                worstCaseSeries(
                    "T-Laplace",
                    e -> mechanism(MechanismType.T_LAPLACE, UNIT, e),
                    ErrorMetric.L1,
                    Distance.LINEAR,
                    EPSILONS),
                worstCaseSeries(
                    "B-Laplace",
                    e -> mechanism(MechanismType.B_LAPLACE, UNIT, e),
                    ErrorMetric.L1,
                    Distance.LINEAR,
                    EPSILONS))));
  }

  private void purkayastha() {
    for (ErrorMetric metric : ErrorMetric.values()) {
      Objective objective = metric == ErrorMetric.L1 ? Objective.L1 : Objective.L2;
      figures.add(
          Figure.of(
              "purkayastha-worst-case-" + metric.id(),
              "OGPM and Purkayastha on the circle [0,2pi), " + errorName(metric),
              "epsilon",
              lossLabel(metric, "d(y, x)"),
              List.of(
                  worstCaseSeries(
                      objective == Objective.L1 ? "OGPM (closed form)" : "OGPM (l2 optimum)",
                      e -> mechanism(MechanismType.OGPM, CIRCLE, e, objective),
                      metric,
                      Distance.CIRCULAR,
                      EPSILONS),
                  worstCaseSeries(
                      "Purkayastha",
                      e -> mechanism(MechanismType.PURKAYASTHA, CIRCLE, e),
                      metric,
                      Distance.CIRCULAR,
                      EPSILONS))));
    }
  }

  /**
   * OGPM's, PM-C's and SW-C's expected absolute errors on the classical domain [0,1) at each of
   * {@code xs}: the paper's whole-domain comparison, at any epsilon.
   */
  private static double[][] classicalAbsoluteErrors(double eps, double[] xs) {
    MechanismType[] types = {MechanismType.OGPM, MechanismType.PM_C, MechanismType.SW_C};
    double[][] errors = new double[types.length][];
    for (int i = 0; i < types.length; i++) {
      errors[i] = wholeDomain(mechanism(types[i], UNIT, eps), ErrorMetric.L1, Distance.LINEAR, xs);
    }
    return errors;
  }

  /** {@link #classicalAbsoluteErrors} as a figure; {@code eps} as the title shows it. */
  private static Figure classicalAbsoluteFigure(
      String name, String eps, double[] xs, double[][] errors) {
    return Figure.of(
        name,
        "Classical domain [0,1), absolute error, eps = " + eps,
        "x",
        "E|y - x|",
        List.of(
            Series.of("OGPM", xs, errors[0]),
            Series.of("PM-C", xs, errors[1]),
            Series.of("SW-C", xs, errors[2])));
  }

  private void smallEpsilon() {
    double[] xs = grid(0, 1, INPUTS);
    double[][] paper = {{0.4, 0.008}, {0.8, 0.015}};
    for (double[] row : paper) {
      double eps = row[0];
      double[][] errors = classicalAbsoluteErrors(eps, xs);
      double[] o = errors[0];
      double[] p = errors[1];
      double[] s = errors[2];
      String tag = String.valueOf(eps).replace('.', '_');
      figures.add(
          classicalAbsoluteFigure("small-epsilon-eps" + tag, String.valueOf(eps), xs, errors));
      claims.add(
          new Claim(
              "Appendix, comparison under small eps (eps = " + eps + ")",
              "OGPM's error is at most this much smaller than PM-C's and SW-C's",
              row[1],
              Math.max(ErrorCurves.maxDifference(p, o), ErrorCurves.maxDifference(s, o)),
              false,
              "largest difference over 1001 inputs, against either baseline"));
    }
  }

  private void checkedValues() {
    String notes = "docs/mechanisms.md#checked-examples";
    claims.add(
        new Claim(
            "Theorem 3, worst case",
            "OGPM worst-case absolute error, eps = 2",
            0.268941,
            mechanism(MechanismType.OGPM, UNIT, 2).worstCaseError(ErrorMetric.L1, Distance.LINEAR),
            false,
            notes + "; equal to PM-C's"));
    claims.add(
        new Claim(
            "Theorem 4",
            "Circular OGPM absolute error on [0,2pi), eps = 1",
            1.186079,
            mechanism(MechanismType.OGPM, CIRCLE, 1)
                .worstCaseError(ErrorMetric.L1, Distance.CIRCULAR),
            false,
            notes));
    claims.add(
        new Claim(
            "Comparison with Purkayastha",
            "Purkayastha absolute error on [0,2pi), eps = 1",
            1.313259,
            mechanism(MechanismType.PURKAYASTHA, CIRCLE, 1)
                .worstCaseError(ErrorMetric.L1, Distance.CIRCULAR),
            false,
            notes));
    claims.add(
        new Claim(
            "Comparison with T-Laplace",
            "T-Laplace absolute error at x = 0, eps = 2",
            0.216166,
            mechanism(MechanismType.T_LAPLACE, UNIT, 2)
                .expectedError(0, ErrorMetric.L1, Distance.LINEAR),
            false,
            notes));
    claims.add(
        new Claim(
            "Comparison with the staircase mechanism",
            "Staircase absolute error, eps = 2 (e^(eps/2)/(e^eps - 1))",
            0.425459,
            mechanism(MechanismType.STAIRCASE, UNIT, 2)
                .worstCaseError(ErrorMetric.L1, Distance.LINEAR),
            false,
            notes));
    claims.add(
        new Claim(
            "Appendix, MSE of the optimal GPM",
            "Worst-case square error at eps = 1 (paper: 0.22, closed form)",
            0.220872,
            mechanism(MechanismType.OGPM, UNIT, 1, Objective.L2)
                .worstCaseError(ErrorMetric.L2, Distance.LINEAR),
            false,
            "ours is the square-error optimum (docs/mechanisms.md#the-square-error-optimum); the closed form gives 0.220872"));
    claims.add(
        new Claim(
            "Appendix, expected error of B-Laplace",
            "B-Laplace absolute error at x = 1/2, eps = 2",
            BoundedLaplace.paperAbsoluteError(2, 0.5),
            mechanism(MechanismType.B_LAPLACE, UNIT, 2)
                .expectedError(0.5, ErrorMetric.L1, Distance.LINEAR),
            false,
            "the paper's normaliser does not depend on x, so its density has mass 2/(1 + e^-1) = 1.462 at x = 1/2; ours"
                + " is normalised for every x (and exactly eps-LDP with b = 1/eps)"));
  }

  static String errorName(ErrorMetric metric) {
    return metric == ErrorMetric.L1 ? "absolute error" : "square error";
  }

  static String lossLabel(ErrorMetric metric, String distance) {
    return metric == ErrorMetric.L1 ? "E " + distance : "E " + distance + "^2";
  }

  static String pct(double ratio) {
    return String.format(java.util.Locale.ROOT, "%.1f %%", 100 * ratio);
  }
}
