package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.random.AesCtrSource;
import org.junit.jupiter.api.Test;

class FieldAccumulatorTest {
  static final Mechanism CIRCLE =
      Mechanism.of(MechanismSpec.builder().epsilon(2).domain(Domain.circular(-Math.PI, Math.PI)).build());

  private static void assertSame(FieldAccumulator a, FieldAccumulator b) {
    assertThat(a.getCount()).isEqualTo(b.getCount());
    assertThat(a.getHistogram()).isEqualTo(b.getHistogram());
    assertThat(a.mean()).isCloseTo(b.mean(), within(1e-12));
    assertThat(a.getSumCos()).isCloseTo(b.getSumCos(), within(1e-9));
    assertThat(a.getSumSin()).isCloseTo(b.getSumSin(), within(1e-9));
  }

  @Test
  void mergingIsAssociativeAndCommutativeAndEqualsOnePass() {
    FieldBinning binning = FieldBinning.of(CIRCLE, 50);
    AesCtrSource bits = AesCtrSource.seeded(4);
    FieldAccumulator all = FieldAccumulator.forBinning(binning);
    FieldAccumulator[] parts = new FieldAccumulator[3];
    for (int p = 0; p < 3; p++) {
      parts[p] = FieldAccumulator.forBinning(binning);
    }
    for (int i = 0; i < 30_000; i++) {
      double y = CIRCLE.perturb(-Math.PI + 2 * Math.PI * bits.nextUniform(), bits);
      all.add(y, binning);
      parts[(int) (bits.nextLong() >>> 62) % 3].add(y, binning);
    }
    FieldAccumulator left = parts[0].copy().merge(parts[1]).merge(parts[2]);
    FieldAccumulator right = parts[0].copy().merge(parts[1].copy().merge(parts[2]));
    FieldAccumulator swapped = parts[2].copy().merge(parts[0]).merge(parts[1]);
    assertSame(left, right);
    assertSame(left, swapped);
    assertSame(left, all);
    // An empty accumulator (as Flink creates one) is a neutral element.
    assertSame(new FieldAccumulator().merge(all), all);
  }

  @Test
  void compensatedSumsKeepFullPrecision() {
    FieldBinning binning = FieldBinning.ofDomain(Domain.classical(0, 2e8), 10);
    FieldAccumulator a = FieldAccumulator.forBinning(binning);
    // 1e8 + 0.1 repeated: naive summation drifts by ~1e-2 after 1e6 terms.
    for (int i = 0; i < 1_000_000; i++) {
      a.add(1e8 + 0.1, binning);
    }
    assertThat(a.mean()).isCloseTo(1e8 + 0.1, within(1e-6));
  }

  @Test
  void histogramMismatchIsRefused() {
    FieldAccumulator a = FieldAccumulator.forBinning(FieldBinning.ofDomain(Domain.classical(0, 1), 10));
    FieldAccumulator b = FieldAccumulator.forBinning(FieldBinning.ofDomain(Domain.classical(0, 1), 20));
    b.add(0.5, FieldBinning.ofDomain(Domain.classical(0, 1), 20));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> a.merge(b))
        .hasMessage("cannot merge histograms of 10 and 20 bins");
  }
}
