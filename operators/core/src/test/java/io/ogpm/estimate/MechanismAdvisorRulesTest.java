package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.util.List;
import java.util.SplittableRandom;
import org.hipparchus.linear.MatrixUtils;
import org.hipparchus.linear.RealMatrix;
import org.hipparchus.linear.SingularValueDecomposition;
import org.junit.jupiter.api.Test;

/**
 * The advisor's rules on few candidates (fast enough for mutation testing; the whole catalog is
 * {@link MechanismAdvisorTest}'s): regrets, the minimax choice and its ties, the questions, and the
 * two planners' formulas against direct computations.
 */
class MechanismAdvisorRulesTest {
  static final MechanismSpec UNIT =
      MechanismSpec.builder().domain(Domain.classical(0, 1)).epsilon(1).build();

  static Mechanism mechanism(MechanismType type, double eps) {
    return MechanismCatalog.of(UNIT.toBuilder().type(type).epsilon(eps).build());
  }

  /** Above OGPM's largest epsilon auto chooses among the mechanisms offered there. */
  @Test
  void aboveTheLargestEpsilonOfMostMechanismsAutoChoosesAmongThoseOffered() {
    for (Domain domain : List.of(Domain.classical(0, 1), Domain.circular(0, 1))) {
      MechanismSpec field =
          MechanismSpec.builder()
              .type(MechanismType.autoPlaceholder(30))
              .domain(domain)
              .epsilon(30)
              .build();
      MechanismType choice =
          MechanismAdvisor.advise(field, OptimizeFor.AGGREGATION, 1_000).choice();
      assertThat(choice.maxEpsilon()).as("%s", domain).isGreaterThanOrEqualTo(30);
      assertThat(MechanismAdvisor.candidates(field))
          .as("%s", domain)
          .allSatisfy(c -> assertThat(c.type().maxEpsilon()).isGreaterThanOrEqualTo(30));
    }
  }

  @Test
  void aRegretIsTheLossOverTheBestForTheSameInputsAtItsWorst() {
    double inf = Double.POSITIVE_INFINITY;
    assertThat(
            MechanismAdvisor.regrets(
                new double[][] {{1, 2, inf}, {4, 2, 3}, {inf, inf, inf}, {0, 0, 1}}))
        .containsExactly(2, 2, inf);
  }

  @Test
  void meansGoToTheNarrowestAtItsWorstValuesToTheSmallestErrorAndTheAggregationToTheWorseRegret() {
    List<MechanismType> three = List.of(MechanismType.OGPM, MechanismType.PM, MechanismType.HM);
    MechanismAdvisor.Advice means = MechanismAdvisor.advise(UNIT, OptimizeFor.MEANS, 20_000, three);
    assertThat(means.choice()).isEqualTo(MechanismType.HM);
    assertThat(means.question()).isEqualTo(OptimizeFor.MEANS);
    assertThat(means.records()).isEqualTo(20_000);
    assertThat(means.reason())
        .isEqualTo(
            "hm: the narrowest window-mean interval at its worst (1.08 times the best candidate's"
                + " for the least favourable inputs; next pm, 1.10)");
    MechanismAdvisor.Row hm = means.rows().get(2);
    MechanismAdvisor.Row ogpm = means.rows().get(0);
    // hm's interval is the same for every input: 0.0289 wide at eps 1 and n 20,000
    assertThat(hm.meanWidthUniform()).isCloseTo(0.0289, within(5e-5));
    assertThat(hm.meanWidthWorst()).isCloseTo(hm.meanWidthMiddle(), within(1e-12));
    assertThat(hm.meanWidthEnds()).isCloseTo(hm.meanWidthMiddle(), within(1e-12));
    // ogpm: narrow in the middle, wide at the ends and at its worst, where the end bands lie
    assertThat(ogpm.meanWidthMiddle()).isLessThan(hm.meanWidthMiddle() * 1.1);
    assertThat(ogpm.meanWidthEnds()).isGreaterThan(5 * hm.meanWidthEnds());
    assertThat(ogpm.meanWidthWorst()).isGreaterThanOrEqualTo(ogpm.meanWidthEnds());
    // at a point mass on an end hm's interval is clipped to half, ogpm's spans the end band
    assertThat(ogpm.meanRegret()).isGreaterThan(ogpm.meanWidthWorst() / hm.meanWidthWorst());
    // studentised, pm's interval in the middle is 8 % narrower than hm's, the same everywhere
    assertThat(hm.meanRegret()).isCloseTo(1.08, within(0.005));
    for (MechanismAdvisor.Row r : means.rows()) {
      assertThat(r.regret(OptimizeFor.AGGREGATION))
          .isEqualTo(Math.max(r.meanRegret(), r.distributionRegret()));
      assertThat(r.regret(OptimizeFor.VALUES)).isEqualTo(r.valueRegret());
      assertThat(r.regret(OptimizeFor.DISTRIBUTIONS)).isEqualTo(r.distributionRegret());
    }
    MechanismSpec squares = UNIT.toBuilder().objective(Objective.L2).build();
    // pm and hm have no square-error variant: not candidates under objective l2
    MechanismAdvisor.Advice values = MechanismAdvisor.advise(squares, OptimizeFor.VALUES, 1, three);
    assertThat(values.rows()).hasSize(1);
    values =
        MechanismAdvisor.advise(
            squares, OptimizeFor.VALUES, 1, List.of(MechanismType.OGPM, MechanismType.STAIRCASE));
    assertThat(values.choice()).isEqualTo(MechanismType.OGPM);
    assertThat(values.rows().get(0).valueRegret()).isEqualTo(1);
    assertThat(values.rows().get(1).valueRegret())
        .isEqualTo(values.rows().get(1).valueError() / values.rows().get(0).valueError());
    assertThat(values.reason()).startsWith("ogpm: the smallest worst-case error of one value (");
    assertThat(MechanismAdvisor.advise(UNIT, OptimizeFor.DISTRIBUTIONS, 1, three).reason())
        .startsWith("pm: the smallest distribution error at its worst (1.00 times");
    assertThat(MechanismAdvisor.advise(UNIT, OptimizeFor.AGGREGATION, 1, three).reason())
        .startsWith("pm: the smallest worst regret over window means and distributions (");
  }

  @Test
  void tiesGoToTheFirstCandidate() {
    // Under absolute error pm and hm err the same at an end, their worst case (0.95952 at eps 1),
    // up to rounding: equal within the tie's tolerance.
    for (List<MechanismType> order :
        List.of(
            List.of(MechanismType.PM, MechanismType.HM),
            List.of(MechanismType.HM, MechanismType.PM))) {
      MechanismAdvisor.Advice advice = MechanismAdvisor.advise(UNIT, OptimizeFor.VALUES, 1, order);
      assertThat(advice.rows().get(0).valueError())
          .isCloseTo(advice.rows().get(1).valueError(), within(1e-12));
      assertThat(advice.choice()).isEqualTo(order.get(0));
    }
  }

  @Test
  void onACircleOnlyValuesAreWeighedAndAWindowNeedsARecord() {
    MechanismSpec circle = UNIT.toBuilder().domain(Domain.circular(0, 360)).build();
    MechanismAdvisor.Advice advice =
        MechanismAdvisor.advise(
            circle, OptimizeFor.MEANS, 100, List.of(MechanismType.PM, MechanismType.OGPM));
    assertThat(advice.question()).isEqualTo(OptimizeFor.VALUES);
    assertThat(advice.choice()).isEqualTo(MechanismType.OGPM);
    assertThat(advice.rows().get(0).meanWidthUniform()).isNaN();
    assertThat(advice.rows().get(0).meanRegret()).isNaN();
    assertThat(PlannedMeanInterval.of(MechanismCatalog.of(circle), 10, new double[] {1})).isNull();
    assertThatThrownBy(() -> MechanismAdvisor.advise(UNIT, OptimizeFor.MEANS, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("records per window must be at least 1, got 0");
    assertThatThrownBy(
            () -> MechanismAdvisor.advise(circle, OptimizeFor.MEANS, 1, List.of(MechanismType.HM)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("no mechanism builds for ");
  }

  @Test
  void anUnbiasedMechanismsPlannedWidthIsItsOutputMeanIntervalForEveryMix() {
    Mechanism pm = mechanism(MechanismType.PM, 1);
    double[] points = {0, 0.3, 1};
    PlannedMeanInterval planner = PlannedMeanInterval.of(pm, 20, points);
    LinearMeanBounds bounds = FieldEstimator.of(pm, 20).linearBounds();
    for (long n : new long[] {10, 1000, 100_000}) {
      for (double[] w : new double[][] {{1, 0, 0}, {0.2, 0.5, 0.3}, {0, 0, 1}}) {
        double g = 0;
        double square = 0;
        for (int i = 0; i < 3; i++) {
          g += w[i] * pm.outputMean(points[i]);
          square +=
              w[i] * bounds.meanSquare(pm.outputMean(points[i]), pm.outputVariance(points[i]));
        }
        LinearMeanBounds.Bounds b = bounds.outputMeanBounds(n, g, square);
        // away from the ends, where the identification clips nothing
        if (b.lower() > 0 && b.upper() < 1) {
          assertThat(planner.width(n, w)).isCloseTo(b.upper() - b.lower(), within(1e-12));
        }
      }
    }
  }

  @Test
  void theInversionsErrorIsTheTraceOfItsCovariance() {
    Mechanism pm = mechanism(MechanismType.PM, 2);
    PlannedDistributionError planner = PlannedDistributionError.of(pm);
    TransitionMatrix t =
        TransitionMatrix.of(pm, FieldBinning.of(pm, PlannedDistributionError.BINS));
    int m = t.rows();
    int k = t.columns();
    double[][] entries = new double[m][k];
    for (int j = 0; j < m; j++) {
      for (int i = 0; i < k; i++) {
        entries[j][i] = t.get(j, i);
      }
    }
    RealMatrix inverse =
        new SingularValueDecomposition(MatrixUtils.createRealMatrix(entries))
            .getSolver()
            .getInverse();
    SplittableRandom random = new SplittableRandom(7);
    for (int trial = 0; trial < 5; trial++) {
      double[] p = new double[k];
      double sum = 0;
      for (int i = 0; i < k; i++) {
        p[i] = random.nextDouble();
        sum += p[i];
      }
      for (int i = 0; i < k; i++) {
        p[i] /= sum;
      }
      double[] q = t.apply(p);
      RealMatrix cov = MatrixUtils.createRealMatrix(m, m);
      for (int a = 0; a < m; a++) {
        for (int b = 0; b < m; b++) {
          cov.setEntry(a, b, (a == b ? q[a] : 0) - q[a] * q[b]);
        }
      }
      double trace = inverse.multiply(cov).multiply(inverse.transpose()).getTrace();
      assertThat(planner.error(p)).isCloseTo(trace, within(1e-9 * trace));
    }
    // two outputs carry no distribution; a singular inversion has no finite error
    assertThat(PlannedDistributionError.of(mechanism(MechanismType.HM, 0.5))).isNull();
    assertThat(PlannedDistributionError.of(mechanism(MechanismType.OGPM, 0.5)).error(uniform(k)))
        .isInfinite();
  }

  static double[] uniform(int k) {
    double[] p = new double[k];
    java.util.Arrays.fill(p, 1.0 / k);
    return p;
  }
}
