package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A window whose readings sit where the field's mechanism cannot place them says so: OGPM at eps 1
 * on [0, 1] with readings just inside its end band (0.9 of s/2), and, for comparison, in the
 * middle.
 */
@Tag("slow") // simulated windows of 20,000: run by surefire, left out of mutation testing
class MeanAlternativeTest {
  static final int N = 20_000;

  static LinearMeans window(MechanismType type, double x, long seed) {
    Mechanism m =
        MechanismCatalog.of(
            MechanismSpec.builder().type(type).epsilon(1).domain(Domain.classical(0, 1)).build());
    FieldEstimator estimator = FieldEstimator.of(m, 50);
    FieldAccumulator acc = estimator.newAccumulator();
    AesCtrSource bits = AesCtrSource.seeded(seed);
    for (int i = 0; i < N; i++) {
      acc.add(m.perturb(x, bits), estimator.binning());
    }
    return estimator.estimate(acc, false).linear();
  }

  @Test
  void readingsInAnEndBandNameTheNarrowerMechanismAndTheMiddleDoesNot() {
    double inside = 0.9 * MechanismAdvisorTest.endBand(1);
    LinearMeans band = window(MechanismType.OGPM, inside, 1);
    double width = band.mean().upper() - band.mean().lower();
    // The band's readings are unidentified: most of the 0.205-wide interval stays whatever n.
    assertThat(band.identifiedWidth()).isGreaterThan(FieldEstimator.UNIDENTIFIED_SHARE * width);
    assertThat(band.alternative()).isNotNull();
    assertThat(band.alternative().mechanism()).isEqualTo(MechanismType.HM);
    // hm's interval at this count, the same for every input, within its planned width
    LinearMeans hm = window(MechanismType.HM, inside, 2);
    assertThat(band.alternative().expectedWidth())
        .isCloseTo(
            hm.mean().upper() - hm.mean().lower(),
            org.assertj.core.data.Percentage.withPercentage(1));
    assertThat(band.alternative().expectedWidth()).isLessThan(width / 5);

    LinearMeans middle = window(MechanismType.OGPM, 0.5, 3);
    assertThat(middle.identifiedWidth())
        .isLessThan(
            FieldEstimator.UNIDENTIFIED_SHARE * (middle.mean().upper() - middle.mean().lower()));
    assertThat(middle.alternative()).isNull();
    // An unbiased mechanism identifies every mean: nothing to name.
    assertThat(hm.identifiedWidth()).isLessThan(1e-3); // the identification grid's step
    assertThat(hm.alternative()).isNull();
  }
}
