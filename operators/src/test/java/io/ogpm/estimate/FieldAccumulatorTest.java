package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import org.junit.jupiter.api.Test;

class FieldAccumulatorTest {
  static final Mechanism CIRCLE =
      MechanismCatalog.of(MechanismSpec.builder().epsilon(2).domain(Domain.circular(-Math.PI, Math.PI)).build());

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
    assertThatThrownBy(() -> a.merge(b))
        .hasMessage("cannot merge histograms of 10 and 20 bins");
  }

  @Test
  void eachValueIsCountedInItsOutputBinAndItsAngleIsTakenFromLo() {
    // The circle [10, 370): 10 is angle 0, 100 is pi/2, 190 is pi, 325 is 7 pi / 4.
    FieldBinning binning = FieldBinning.ofDomain(Domain.circular(10, 370), 4);
    FieldAccumulator a = new FieldAccumulator(); // as Flink creates it: sized on first use
    a.add(10, binning).add(100, binning).add(190, binning).add(325, binning);
    assertThat(a.getCount()).isEqualTo(4);
    assertThat(a.getHistogram()).containsExactly(1, 1, 1, 1);
    assertThat(a.getSumCos()).isCloseTo(1 + 0 - 1 + Math.sqrt(0.5), within(1e-15));
    assertThat(a.getSumSin()).isCloseTo(0 + 1 + 0 - Math.sqrt(0.5), within(1e-15));
    assertThat(a.mean()).isCloseTo((10 + 100 + 190 + 325) / 4.0, within(1e-13));
    // On an interval there are no angles.
    FieldBinning line = FieldBinning.ofDomain(Domain.classical(10, 370), 4);
    FieldAccumulator b = FieldAccumulator.forBinning(line).add(100, line).add(300, line);
    assertThat(b.getHistogram()).containsExactly(0, 1, 0, 1);
    assertThat(b.getSumCos()).isZero();
    assertThat(b.getSumSin()).isZero();
    assertThat(b.mean()).isEqualTo(200);
    assertThat(new FieldAccumulator().mean()).isNaN();
  }

  @Test
  void mergingKeepsTheCompensationOfBothSides() {
    // The precision test split in two halves: each side's compensation must be carried over.
    FieldBinning binning = FieldBinning.ofDomain(Domain.classical(0, 2e8), 10);
    FieldAccumulator a = FieldAccumulator.forBinning(binning);
    FieldAccumulator b = FieldAccumulator.forBinning(binning);
    for (int i = 0; i < 300_000; i++) {
      a.add(1e8 + 0.1, binning);
      b.add(1e8 + 0.1, binning);
    }
    assertThat(a.getSumCompensation()).isNotZero();
    assertThat(a.copy().merge(b).mean()).isCloseTo(1e8 + 0.1, within(1e-6));
    assertThat(new FieldAccumulator().merge(a).merge(b).mean()).isCloseTo(1e8 + 0.1, within(1e-6));
  }

  @Test
  void mergingAnEmptyAccumulatorChangesNothingAndCopiesAreDeep() {
    FieldBinning binning = FieldBinning.ofDomain(Domain.circular(0, 360), 4);
    FieldAccumulator a = FieldAccumulator.forBinning(binning).add(45, binning).add(100, binning);
    FieldAccumulator copy = a.copy();
    a.merge(new FieldAccumulator());
    assertSame(a, copy);
    copy.add(300, binning);
    assertThat(a.getCount()).isEqualTo(2);
    assertThat(a.getHistogram()).containsExactly(1, 1, 0, 0);
    assertThat(copy.getHistogram()).containsExactly(1, 1, 0, 1);
  }

  @Test
  void gettersAndSettersCarryTheWholeState() {
    // Flink's POJO serializer copies an accumulator field by field through them.
    FieldBinning binning = FieldBinning.of(CIRCLE, 8);
    AesCtrSource bits = AesCtrSource.seeded(6);
    FieldAccumulator a = FieldAccumulator.forBinning(binning);
    for (int i = 0; i < 1_000; i++) {
      a.add(CIRCLE.perturb(-Math.PI + 2 * Math.PI * bits.nextUniform(), bits), binning);
    }
    FieldAccumulator b = new FieldAccumulator();
    b.setCount(a.getCount());
    b.setHistogram(a.getHistogram().clone());
    b.setSum(a.getSum());
    b.setSumCompensation(a.getSumCompensation());
    b.setSumCos(a.getSumCos());
    b.setSumSin(a.getSumSin());
    assertThat(b.mean()).isEqualTo(a.mean());
    assertThat(b.getSumCos()).isEqualTo(a.getSumCos());
    assertThat(b.getSumSin()).isEqualTo(a.getSumSin());
    assertThat(b.getHistogram()).isEqualTo(a.getHistogram());
    assertThat(b.getCount()).isEqualTo(1_000);
    assertThat(a.getSum() + a.getSumCompensation()).isCloseTo(1_000 * a.mean(), within(1e-9));
  }
}
