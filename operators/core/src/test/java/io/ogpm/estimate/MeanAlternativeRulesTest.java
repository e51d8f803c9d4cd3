package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import org.junit.jupiter.api.Test;

/**
 * When a window names an alternative, and which (small windows: fast enough for mutation testing;
 * {@link MeanAlternativeTest} checks the widths on large ones).
 */
class MeanAlternativeRulesTest {
  static final int N = 3_000;

  static LinearMeans window(MechanismType type, double x) {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().type(type).epsilon(1).domain(Domain.classical(0, 1)).build());
    FieldEstimator estimator = FieldEstimator.of(m, 10);
    FieldAccumulator acc = estimator.newAccumulator();
    AesCtrSource bits = AesCtrSource.seeded(5);
    for (int i = 0; i < N; i++) {
      acc.add(m.perturb(x, bits), estimator.binning());
    }
    return estimator.estimate(acc, false).linear();
  }

  @Test
  void anEndBandsReadingsNameTheNarrowestUnbiasedMechanismAtTheWindowsCount() {
    LinearMeans band = window(MechanismType.OGPM, 0.0);
    double width = band.mean().upper() - band.mean().lower();
    assertThat(band.identifiedWidth())
        .isGreaterThanOrEqualTo(FieldEstimator.UNIDENTIFIED_SHARE * width)
        .isLessThanOrEqualTo(width);
    assertThat(band.alternative()).isNotNull();
    assertThat(band.alternative().mechanism()).isEqualTo(MechanismType.HM);
    Mechanism hm =
        MechanismCatalog.of(
            MechanismSpec.builder()
                .type(MechanismType.HM)
                .epsilon(1)
                .domain(Domain.classical(0, 1))
                .build());
    // hm's noise is the same at every input: its planned width is the same wherever the readings.
    assertThat(band.alternative().expectedWidth())
        .isCloseTo(
            PlannedMeanInterval.of(hm, 10, new double[] {0.5}).width(N, new double[] {1}),
            within(1e-12))
        .isLessThan(width);
  }

  @Test
  void theMiddleAndAnUnbiasedMechanismNameNone() {
    LinearMeans middle = window(MechanismType.OGPM, 0.5);
    assertThat(middle.identifiedWidth())
        .isLessThan(
            FieldEstimator.UNIDENTIFIED_SHARE * (middle.mean().upper() - middle.mean().lower()));
    assertThat(middle.alternative()).isNull();
    LinearMeans hm = window(MechanismType.HM, 0.0);
    assertThat(hm.alternative()).isNull();
    // pm at the end: its own interval is wider than hm's, but nothing is unidentified
    LinearMeans pm = window(MechanismType.PM, 0.0);
    assertThat(pm.identifiedWidth()).isLessThan(0.01);
    assertThat(pm.alternative()).isNull();
  }
}
