package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import org.junit.jupiter.api.Test;

/**
 * Bin edges: k input bins over [lo, hi), output bins {@code resolution} times finer, on the same
 * grid, covering the output domain (the range [lo - 2w, hi + 2w) for unbounded outputs, whose tails
 * go to the end bins). The domain [-8, 8) with 4 bins and resolution 4 has output bins of width 1
 * and exact arithmetic at every edge.
 */
class FieldBinningTest {
  private static Mechanism mechanism(MechanismType type, double eps, Domain domain) {
    return MechanismCatalog.of(
        MechanismSpec.builder().type(type).epsilon(eps).domain(domain).build());
  }

  private static final Mechanism OGPM = mechanism(MechanismType.OGPM, 2, Domain.classical(-8, 8));

  @Test
  void countsAreValidatedWithTheBadValueInTheMessage() {
    for (int bad : new int[] {0, -3, 100_001}) {
      assertThatThrownBy(() -> FieldBinning.of(OGPM, bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("bins must be in [1, 100000], got " + bad);
    }
    for (int bad : new int[] {0, 65}) {
      assertThatThrownBy(() -> FieldBinning.of(OGPM, 4, bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("output resolution must be in [1, 64], got " + bad);
    }
    assertThat(FieldBinning.of(OGPM, 1).bins()).isEqualTo(1);
    assertThat(FieldBinning.of(OGPM, 100_000).outputBins()).isEqualTo(100_000);
    assertThat(FieldBinning.of(OGPM, 2, 64).outputBins()).isEqualTo(128);
    assertThatThrownBy(() -> FieldBinning.ofDomain(null, 4)).hasMessage("domain must not be null");
  }

  @Test
  void outputBinsAreResolutionTimesFinerThanInputBins() {
    FieldBinning b = FieldBinning.of(OGPM, 4, 4);
    assertThat(b.bins()).isEqualTo(4);
    assertThat(b.resolution()).isEqualTo(4);
    assertThat(b.outputBins()).isEqualTo(16);
    assertThat(b.binWidth()).isEqualTo(4);
    assertThat(b.lo()).isEqualTo(-8);
    assertThat(b.width()).isEqualTo(16);
    assertThat(b.circular()).isFalse();
    for (int j = 0; j < 16; j++) {
      assertThat(b.outputBinLo(j)).isEqualTo(-8 + j);
      assertThat(b.outputBinHi(j)).isEqualTo(-7 + j);
      // Bins are closed on the left, open on the right.
      assertThat(b.outputBin(-8 + j)).isEqualTo(j);
      assertThat(b.outputBin(-7.5 + j)).isEqualTo(j);
      assertThat(b.outputBin(-7 + j - 1e-9)).isEqualTo(j);
    }
    for (int i = 0; i < 4; i++) {
      assertThat(b.inputBinCentre(i)).isEqualTo(-6 + 4 * i);
      assertThat(b.inputBin(-8 + 4 * i)).isEqualTo(i);
      assertThat(b.inputBin(-4 + 4 * i - 1e-9)).isEqualTo(i);
    }
    // hi goes to the last input bin; values beyond the domain to the end bins.
    assertThat(b.inputBin(8)).isEqualTo(3);
    assertThat(b.inputBin(-100)).isZero();
    assertThat(b.inputBin(100)).isEqualTo(3);
    assertThat(b.outputBin(8)).isEqualTo(15);
    assertThat(b.outputBin(-100)).isZero();
  }

  @Test
  void enlargedOutputDomainsGetMoreBinsOnTheSameGrid() {
    // pm's outputs reach (C - 1) / 2 of the width beyond each end.
    Mechanism pm = mechanism(MechanismType.PM, 1, Domain.classical(-8, 8));
    FieldBinning b = FieldBinning.of(pm, 4, 4);
    int m = b.outputBins();
    assertThat(b.outputBinLo(0))
        .isLessThanOrEqualTo(pm.outputLo())
        .isGreaterThan(pm.outputLo() - 1);
    assertThat(b.outputBinHi(m - 1))
        .isGreaterThanOrEqualTo(pm.outputHi())
        .isLessThan(pm.outputHi() + 1);
    assertThat(b.outputBinLo(0)).isEqualTo(Math.floor(pm.outputLo()));
    assertThat(m).isEqualTo((int) (Math.ceil(pm.outputHi()) - Math.floor(pm.outputLo())));
    for (int j = 0; j < m; j++) {
      assertThat(b.outputBinHi(j) - b.outputBinLo(j)).isEqualTo(1);
      assertThat(b.outputBin(b.outputBinLo(j) + 0.5)).isEqualTo(j);
    }
    assertThat(b.outputBin(pm.outputLo())).isZero();
    assertThat(b.outputBin(Math.nextDown(pm.outputHi()))).isEqualTo(m - 1);
    // Coarser output bins (width 2) cover the same range, at most one bin beyond it at each end.
    FieldBinning coarse = FieldBinning.of(pm, 4, 2);
    int mc = coarse.outputBins();
    assertThat(coarse.outputBinLo(0))
        .isLessThanOrEqualTo(pm.outputLo())
        .isGreaterThan(pm.outputLo() - 2);
    assertThat(coarse.outputBinHi(mc - 1))
        .isGreaterThanOrEqualTo(pm.outputHi())
        .isLessThan(pm.outputHi() + 2);
    assertThat((coarse.outputBinLo(0) + 8) % 2).isZero();
  }

  @Test
  void unboundedOutputsAreBinnedOverTwoWidthsEachSideWithTheTailsInTheEndBins() {
    Mechanism staircase = mechanism(MechanismType.STAIRCASE, 1, Domain.classical(-8, 8));
    FieldBinning b = FieldBinning.of(staircase, 4, 4);
    int m = b.outputBins();
    assertThat(m).isEqualTo(5 * 16);
    assertThat(b.outputBinLo(0)).isEqualTo(-8 - 32);
    assertThat(b.outputBinHi(m - 1)).isEqualTo(8 + 32);
    assertThat(b.outputBin(-40)).isZero();
    assertThat(b.outputBin(-1e12)).isZero();
    assertThat(b.outputBin(Math.nextDown(40.0))).isEqualTo(m - 1);
    assertThat(b.outputBin(1e12)).isEqualTo(m - 1);
    assertThat(b.outputBin(-8)).isEqualTo(32);
  }

  @Test
  void onACircleBinsWrap() {
    Mechanism circle = mechanism(MechanismType.OGPM, 2, Domain.circular(-8, 8));
    FieldBinning b = FieldBinning.of(circle, 4, 4);
    assertThat(b.circular()).isTrue();
    assertThat(b.outputBins()).isEqualTo(16);
    assertThat(b.outputBinLo(0)).isEqualTo(-8);
    assertThat(b.outputBin(8)).isZero();
    assertThat(b.outputBin(8.5 + 16)).isZero();
    assertThat(b.outputBin(-8.5)).isEqualTo(15);
    assertThat(b.outputBin(-3.5 - 32)).isEqualTo(4);
    assertThat(b.inputBin(8)).isZero();
    assertThat(b.inputBin(-8.5)).isEqualTo(3);
    assertThat(b.inputBin(9)).isZero();
  }

  @Test
  void theRawHistogramSendsEachOutputBinToTheInputBinOfItsCentre() {
    Mechanism pm = mechanism(MechanismType.PM, 1, Domain.classical(-8, 8));
    FieldBinning b = FieldBinning.of(pm, 4, 4);
    int m = b.outputBins();
    long[] counts = new long[m];
    counts[0] = 3; // far below the domain: the first input bin
    counts[b.outputBin(-0.5)] = 2; // [-1, 0): the second input bin
    counts[b.outputBin(0.5)] = 1; // [0, 1): the third
    counts[b.outputBin(7.5)] = 1; // [7, 8): the last
    counts[m - 1] = 1; // far above: the last
    assertThat(b.rawHistogram(counts)).containsExactly(3 / 8.0, 2 / 8.0, 1 / 8.0, 2 / 8.0);
    // No counts: all zeros, not NaN.
    assertThat(b.rawHistogram(new long[m])).containsExactly(0, 0, 0, 0);
  }

  @Test
  void aDomainAloneHasOneOutputBinPerInputBin() {
    FieldBinning b = FieldBinning.ofDomain(Domain.classical(-8, 8), 4);
    assertThat(b.outputBins()).isEqualTo(4);
    assertThat(b.resolution()).isEqualTo(1);
    assertThat(b.outputBinLo(0)).isEqualTo(-8);
    assertThat(b.outputBin(7.9)).isEqualTo(3);
    assertThat(b.rawHistogram(new long[] {1, 0, 0, 3})).containsExactly(0.25, 0, 0, 0.75);
    assertThat(FieldBinning.ofDomain(Domain.circular(0, 360), 12).circular()).isTrue();
  }

  @Test
  void binningsAreValuesEqualWhenTheirBinsAre() {
    FieldBinning b = FieldBinning.of(OGPM, 4, 4);
    assertThat(b)
        .isEqualTo(FieldBinning.of(OGPM, 4, 4))
        .hasSameHashCodeAs(FieldBinning.of(OGPM, 4, 4));
    assertThat(FieldBinning.of(OGPM, 4)).isEqualTo(FieldBinning.ofDomain(OGPM.domain(), 4));
    assertThat(b).isNotEqualTo(FieldBinning.of(OGPM, 4, 2));
    assertThat(b).isNotEqualTo(FieldBinning.of(OGPM, 8, 2));
    assertThat(b)
        .isNotEqualTo(
            FieldBinning.of(mechanism(MechanismType.PM, 1, Domain.classical(-8, 8)), 4, 4));
    assertThat(b)
        .isNotEqualTo(
            FieldBinning.of(mechanism(MechanismType.OGPM, 2, Domain.circular(-8, 8)), 4, 4));
    assertThat(b)
        .isNotEqualTo(
            FieldBinning.of(mechanism(MechanismType.OGPM, 2, Domain.classical(-7, 9)), 4, 4));
    assertThat(b)
        .isNotEqualTo(
            FieldBinning.of(mechanism(MechanismType.OGPM, 2, Domain.classical(-8, 9)), 4, 4));
    assertThat(b).isNotEqualTo("a binning");
    assertThat(b.outputBinHi(3)).isCloseTo(b.outputBinLo(4), within(0.0));
  }
}
