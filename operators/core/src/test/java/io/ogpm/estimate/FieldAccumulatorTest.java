package io.ogpm.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import java.math.BigDecimal;
import java.math.MathContext;
import org.junit.jupiter.api.Test;

/**
 * The accumulator is exact: integer counts and sums, so merging in any grouping and order gives,
 * bit for bit, the accumulator of all values; the quantised mean is within half a quantum (plus its
 * own rounding) of the exact mean of the doubles added; accumulators of another field or binning
 * are refused.
 */
class FieldAccumulatorTest {
  static final Mechanism CIRCLE =
      MechanismCatalog.of(
          MechanismSpec.builder().epsilon(2).domain(Domain.circular(-Math.PI, Math.PI)).build());
  static final Mechanism LINE =
      MechanismCatalog.of(
          MechanismSpec.builder().epsilon(1).domain(Domain.classical(-3, 3)).build());

  @Test
  void mergingInAnyGroupingAndOrderEqualsOnePassToTheLastBit() {
    for (Mechanism m : new Mechanism[] {CIRCLE, LINE}) {
      FieldBinning binning = FieldBinning.of(m, 50);
      AesCtrSource bits = AesCtrSource.seeded(4);
      FieldAccumulator all = FieldAccumulator.forField("f", binning);
      FieldAccumulator[] parts = new FieldAccumulator[3];
      for (int p = 0; p < 3; p++) {
        parts[p] = FieldAccumulator.forField("f", binning);
      }
      double lo = m.domain().lo();
      for (int i = 0; i < 30_000; i++) {
        double y = m.perturb(lo + m.domain().width() * bits.nextUniform(), bits);
        all.add(y, binning);
        parts[(int) ((bits.nextLong() >>> 33) % 3)].add(y, binning);
      }
      FieldAccumulator left = parts[0].copy().merge(parts[1]).merge(parts[2]);
      FieldAccumulator right = parts[0].copy().merge(parts[1].copy().merge(parts[2]));
      FieldAccumulator swapped = parts[2].copy().merge(parts[0]).merge(parts[1]);
      assertThat(left).isEqualTo(all).isEqualTo(right).isEqualTo(swapped);
      assertThat(left.mean()).isEqualTo(all.mean());
      assertThat(swapped.meanSquare(binning)).isEqualTo(all.meanSquare(binning));
      assertThat(swapped.meanCos()).isEqualTo(all.meanCos());
      assertThat(swapped.meanSin()).isEqualTo(all.meanSin());
      // An empty accumulator (as Flink creates one) is a neutral element on either side.
      assertThat(new FieldAccumulator().merge(all)).isEqualTo(all);
      assertThat(all.copy().merge(new FieldAccumulator())).isEqualTo(all);
    }
  }

  @Test
  void theMeanIsWithinHalfAQuantumOfTheExactMeanOfTheDoublesAdded() {
    FieldBinning binning = FieldBinning.of(LINE, 50);
    double quantum = Math.scalb(1.0, binning.sumExponent());
    assertThat(binning.reach()).isEqualTo(LINE.outputHi());
    // Reach 3 (the output domain is [-3, 3)): quanta of 2^(1 - 60).
    assertThat(binning.sumExponent()).isEqualTo(-59);
    AesCtrSource bits = AesCtrSource.seeded(9);
    FieldAccumulator a = FieldAccumulator.forBinning(binning);
    BigDecimal exact = BigDecimal.ZERO;
    int n = 20_000;
    for (int i = 0; i < n; i++) {
      // Doubles with every bit set, down to tiny ones near 0, which quantising rounds.
      double y = (bits.nextUniform() - 0.5) * Math.scalb(5.9, -(int) (bits.nextLong() >>> 58));
      a.add(y, binning);
      exact = exact.add(new BigDecimal(y));
    }
    double exactMean = exact.divide(BigDecimal.valueOf(n), MathContext.DECIMAL128).doubleValue();
    assertThat(Math.abs(a.mean() - exactMean))
        .isLessThanOrEqualTo(quantum / 2 + Math.ulp(exactMean));
    // A value below half a quantum is summed as 0: that is the quantisation.
    FieldAccumulator tiny = FieldAccumulator.forBinning(binning).add(quantum / 4, binning);
    assertThat(tiny.mean()).isZero();
    assertThat(FieldAccumulator.forBinning(binning).add(quantum, binning).mean())
        .isEqualTo(quantum);
    // Values whose doubles are whole quanta are summed with no error at all, however many.
    FieldBinning wide = FieldBinning.ofDomain(Domain.classical(0, 2e8), 10);
    FieldAccumulator b = FieldAccumulator.forBinning(wide);
    for (int i = 0; i < 1_000_000; i++) {
      b.add(1e8 + 0.1, wide);
    }
    assertThat(b.mean()).isEqualTo(1e8 + 0.1);
    assertThat(b.sum()).isEqualTo(1e14 + 1e5, within(0.02));
  }

  @Test
  void sumsCarryAcrossTheLowWordInBothDirections() {
    // Reach 1: a value of 1 is 2^60 quanta, so 64 of them overflow a long; -1 brings them back.
    FieldBinning binning = FieldBinning.ofDomain(Domain.classical(-1, 1), 4);
    assertThat(binning.sumExponent()).isEqualTo(-60);
    FieldAccumulator up = FieldAccumulator.forBinning(binning);
    FieldAccumulator down = FieldAccumulator.forBinning(binning);
    for (int i = 0; i < 100; i++) {
      up.add(1, binning);
      down.add(-1, binning);
    }
    assertThat(up.sum()).isEqualTo(100);
    assertThat(up.mean()).isEqualTo(1);
    // 100 2^60 = 6.25 2^64; -100 2^60 = -7 2^64 + 0.75 2^64.
    assertThat(up.getSumHigh()).isEqualTo(6);
    assertThat(down.sum()).isEqualTo(-100);
    assertThat(down.getSumHigh()).isEqualTo(-7);
    FieldAccumulator both = up.copy().merge(down);
    assertThat(both.sum()).isZero();
    assertThat(both.getSumHigh()).isZero();
    assertThat(both.getSumLow()).isZero();
    assertThat(both.getCount()).isEqualTo(200);
    assertThat(both.mean()).isZero();
    // Adding the values one by one across the boundary gives the same words as merging.
    FieldAccumulator mixed = FieldAccumulator.forBinning(binning);
    for (int i = 0; i < 100; i++) {
      mixed.add(1, binning).add(-1, binning);
    }
    assertThat(mixed).isEqualTo(both);
    for (int i = 0; i < 70; i++) {
      mixed.add(-1, binning);
    }
    assertThat(mixed.sum()).isEqualTo(-70);
    assertThat(Int128.toBigInteger(mixed.getSumHigh(), mixed.getSumLow()))
        .isEqualTo(java.math.BigInteger.valueOf(-70).shiftLeft(60));
  }

  @Test
  void anotherFieldOrBinningIsRefusedNamingBoth() {
    FieldBinning ten = FieldBinning.ofDomain(Domain.classical(0, 1), 10);
    FieldBinning twenty = FieldBinning.ofDomain(Domain.classical(0, 1), 20);
    FieldAccumulator x = FieldAccumulator.forField("x", ten).add(0.5, ten);
    assertThatThrownBy(() -> x.merge(FieldAccumulator.forField("y", ten).add(0.5, ten)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cannot merge an accumulator of field 'y' into one of field 'x'");
    assertThatThrownBy(() -> x.merge(FieldAccumulator.forField("x", twenty)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "cannot merge accumulators of field 'x' with different binnings: "
                + ten.id()
                + " and "
                + twenty.id());
    assertThatThrownBy(
            () -> FieldAccumulator.forBinning(ten).merge(FieldAccumulator.forBinning(twenty)))
        .hasMessageStartingWith(
            "cannot merge accumulators of an unnamed field with different binnings");
    assertThatThrownBy(() -> x.add(0.5, twenty))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "a value of the binning "
                + twenty.id()
                + " cannot be added to an accumulator of field 'x' with the"
                + " binning "
                + ten.id());
    // The same domain, reach and bins on a circle is another binning.
    FieldBinning circle = FieldBinning.ofDomain(Domain.circular(0, 1), 10);
    assertThat(circle.id()).isNotEqualTo(ten.id());
    assertThatThrownBy(() -> x.merge(FieldAccumulator.forField("x", circle)))
        .hasMessageContaining("different binnings");
    // Nothing was changed by the refusals.
    assertThat(x.getCount()).isEqualTo(1);
    // An unnamed accumulator takes the name of what is merged into it; a named one keeps its own.
    assertThat(FieldAccumulator.forBinning(ten).merge(x).getField()).isEqualTo("x");
    assertThat(x.copy().merge(FieldAccumulator.forBinning(ten)).getField()).isEqualTo("x");
    assertThat(x.hasBinning(ten)).isTrue();
    assertThat(x.hasBinning(twenty)).isFalse();
    assertThat(new FieldAccumulator().hasBinning(twenty)).isTrue();
  }

  @Test
  void stateWithoutABinningIsRefused() {
    FieldBinning ten = FieldBinning.ofDomain(Domain.classical(0, 1), 10);
    FieldAccumulator broken = new FieldAccumulator();
    broken.setCount(3);
    assertThatThrownBy(() -> FieldAccumulator.forBinning(ten).merge(broken))
        .hasMessage("cannot merge an accumulator of 3 values and no binning");
    assertThatThrownBy(() -> broken.merge(FieldAccumulator.forBinning(ten)))
        .hasMessage("cannot merge into an accumulator of 3 values and no binning");
    assertThatThrownBy(() -> broken.add(0.5, ten))
        .hasMessage("an accumulator of 3 values has no binning");
    FieldAccumulator empty = new FieldAccumulator();
    assertThat(empty.merge(new FieldAccumulator()).getBinning()).isNull();
  }

  @Test
  void valuesThatAreNotFiniteOrBeyondTheReachAreRefusedWithoutTheValue() {
    FieldBinning binning = FieldBinning.ofDomain(Domain.classical(-2, 1), 4);
    assertThat(binning.reach()).isEqualTo(2);
    FieldAccumulator a = FieldAccumulator.forField("x", binning);
    a.add(-2, binning).add(2, binning);
    for (double bad :
        new double[] {Math.nextUp(2.0), -2.0000001, Double.NaN, Double.POSITIVE_INFINITY, 1e300}) {
      assertThatThrownBy(() -> a.add(bad, binning))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("a value of field 'x' is not finite or beyond its reach of 2.0 in magnitude");
    }
    assertThat(a.getCount()).isEqualTo(2);
  }

  @Test
  void eachValueIsCountedInItsOutputBinAndItsAngleIsTakenFromLo() {
    // The circle [10, 370): 10 is angle 0, 100 is pi/2, 190 is pi, 325 is 7 pi / 4.
    FieldBinning binning = FieldBinning.ofDomain(Domain.circular(10, 370), 4);
    FieldAccumulator a = new FieldAccumulator(); // as Flink creates it: sized on first use
    a.add(10, binning).add(100, binning).add(190, binning).add(325, binning);
    assertThat(a.getCount()).isEqualTo(4);
    assertThat(a.getHistogram()).containsExactly(1, 1, 1, 1);
    assertThat(a.getBinning()).isEqualTo(binning.id());
    assertThat(a.getSumExponent()).isEqualTo(binning.sumExponent());
    assertThat(a.sumCos()).isCloseTo(1 + 0 - 1 + Math.sqrt(0.5), within(1e-15));
    assertThat(a.sumSin()).isCloseTo(0 + 1 + 0 - Math.sqrt(0.5), within(1e-15));
    assertThat(a.meanCos()).isCloseTo(Math.sqrt(0.5) / 4, within(1e-16));
    assertThat(a.meanSin()).isCloseTo(-Math.sqrt(0.5) / 4 + 0.25, within(1e-16));
    assertThat(a.mean()).isCloseTo((10 + 100 + 190 + 325) / 4.0, within(1e-13));
    // On an interval there are no angles.
    FieldBinning line = FieldBinning.ofDomain(Domain.classical(10, 370), 4);
    FieldAccumulator b = FieldAccumulator.forBinning(line).add(100, line).add(300, line);
    assertThat(b.getHistogram()).containsExactly(0, 1, 0, 1);
    assertThat(b.sumCos()).isZero();
    assertThat(b.sumSin()).isZero();
    assertThat(b.mean()).isEqualTo(200);
    assertThat(b.sum()).isEqualTo(400);
    assertThat(new FieldAccumulator().mean()).isNaN();
    assertThat(new FieldAccumulator().meanCos()).isNaN();
    assertThat(new FieldAccumulator().meanSin()).isNaN();
  }

  @Test
  void mergingAnEmptyAccumulatorChangesNothingAndCopiesAreDeep() {
    FieldBinning binning = FieldBinning.ofDomain(Domain.circular(0, 360), 4);
    FieldAccumulator a = FieldAccumulator.forField("a", binning).add(45, binning).add(100, binning);
    FieldAccumulator copy = a.copy();
    assertThat(copy).isEqualTo(a).hasSameHashCodeAs(a);
    a.merge(new FieldAccumulator());
    a.merge(FieldAccumulator.forField("a", binning));
    assertThat(a).isEqualTo(copy);
    copy.add(300, binning);
    assertThat(a).isNotEqualTo(copy);
    assertThat(a.getCount()).isEqualTo(2);
    assertThat(a.getHistogram()).containsExactly(1, 1, 0, 0);
    assertThat(copy.getHistogram()).containsExactly(1, 1, 0, 1);
    assertThat(copy.getField()).isEqualTo("a");
    assertThat(a.toString())
        .isEqualTo("FieldAccumulator{field 'a', 2 values, binning " + binning.id() + "}");
  }

  @Test
  void gettersAndSettersCarryTheWholeState() {
    // Flink's POJO serializer copies an accumulator field by field through them.
    FieldBinning binning = FieldBinning.of(CIRCLE, 8);
    AesCtrSource bits = AesCtrSource.seeded(6);
    FieldAccumulator a = FieldAccumulator.forField("roll", binning);
    for (int i = 0; i < 1_000; i++) {
      a.add(CIRCLE.perturb(-Math.PI + 2 * Math.PI * bits.nextUniform(), bits), binning);
    }
    FieldAccumulator b = new FieldAccumulator();
    b.setField(a.getField());
    b.setBinning(a.getBinning());
    b.setSumExponent(a.getSumExponent());
    b.setCount(a.getCount());
    b.setHistogram(a.getHistogram().clone());
    b.setSumHigh(a.getSumHigh());
    b.setSumLow(a.getSumLow());
    b.setCosHigh(a.getCosHigh());
    b.setCosLow(a.getCosLow());
    b.setSinHigh(a.getSinHigh());
    b.setSinLow(a.getSinLow());
    b.setSquaresHigh(a.getSquaresHigh());
    b.setSquaresLow(a.getSquaresLow());
    b.setCos2High(a.getCos2High());
    b.setCos2Low(a.getCos2Low());
    b.setSin2High(a.getSin2High());
    b.setSin2Low(a.getSin2Low());
    assertThat(b).isEqualTo(a);
    assertThat(b.meanCos2()).isEqualTo(a.meanCos2());
    assertThat(b.meanSin2()).isEqualTo(a.meanSin2());
    assertThat(b.meanSquare(binning)).isEqualTo(a.meanSquare(binning));
    assertThat(b.mean()).isEqualTo(a.mean());
    assertThat(b.meanCos()).isEqualTo(a.meanCos());
    assertThat(b.meanSin()).isEqualTo(a.meanSin());
    assertThat(b.getCount()).isEqualTo(1_000);
    // Every part of the state counts for equality.
    b.setSinLow(b.getSinLow() + 1);
    assertThat(b).isNotEqualTo(a);
    b.setSinLow(a.getSinLow());
    b.setSquaresLow(b.getSquaresLow() + 1);
    assertThat(b).isNotEqualTo(a);
  }

  @Test
  void theMeanSquareAboutTheCentreKeepsTheSpreadOfAFieldFarFromZero() {
    // On [1000, 1001] the values' squares are near 10^6 and their spread near 0.01: about the
    // centre, the spread keeps its digits.
    Mechanism far =
        MechanismCatalog.of(
            MechanismSpec.builder().epsilon(4).domain(Domain.classical(1000, 1001)).build());
    FieldBinning binning = FieldBinning.of(far, 50);
    assertThat(binning.centre()).isEqualTo(1000.5);
    AesCtrSource bits = AesCtrSource.seeded(13);
    FieldAccumulator a = FieldAccumulator.forBinning(binning);
    BigDecimal sum = BigDecimal.ZERO;
    BigDecimal squares = BigDecimal.ZERO;
    int n = 20_000;
    for (int i = 0; i < n; i++) {
      double y = far.perturb(1000 + bits.nextUniform(), bits);
      a.add(y, binning);
      BigDecimal d = new BigDecimal(y).subtract(new BigDecimal("1000.5"));
      sum = sum.add(d);
      squares = squares.add(d.multiply(d));
    }
    MathContext mc = MathContext.DECIMAL128;
    double exactSquare = squares.divide(BigDecimal.valueOf(n), mc).doubleValue();
    double exactShift = sum.divide(BigDecimal.valueOf(n), mc).doubleValue();
    double spread = exactSquare - exactShift * exactShift;
    double quantum = Math.scalb(1.0, binning.squareExponent());
    assertThat(quantum).isLessThan(1e-5);
    assertThat(a.meanSquare(binning)).isCloseTo(exactSquare, within(quantum / 2 + 1e-15));
    double shift = a.mean() - binning.centre();
    assertThat(a.meanSquare(binning) - shift * shift).isCloseTo(spread, within(1e-5 * spread));
    assertThat(FieldAccumulator.forBinning(binning).meanSquare(binning)).isNaN();
    assertThatThrownBy(() -> a.meanSquare(FieldBinning.of(far, 10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not that of an unnamed field");
  }

  @Test
  void givenMomentsAreQuantisedLikeValues() {
    FieldBinning binning = FieldBinning.ofDomain(Domain.classical(0, 4), 4);
    FieldAccumulator a = FieldAccumulator.forBinning(binning).withMoments(10, 25, 3, -2);
    assertThat(a.getCount()).isEqualTo(10);
    assertThat(a.mean()).isEqualTo(2.5);
    assertThat(a.sumCos()).isEqualTo(3);
    assertThat(a.meanSin()).isEqualTo(-0.2);
    // Sums of more than 2^63 quanta: reach 4 has quanta of 2^-58, so 2^40 values of 4 are 2^100.
    a.withMoments(1L << 40, Math.scalb(4.0, 40), 0, 0);
    assertThat(a.mean()).isEqualTo(4);
    assertThat(a.getSumHigh()).isEqualTo(1L << 36);
  }

  @Test
  void subtractingAValueIsTheExactInverseOfAddingItInAnyOrder() {
    for (Mechanism m : new Mechanism[] {CIRCLE, LINE}) {
      FieldBinning binning = FieldBinning.of(m, 50);
      AesCtrSource bits = AesCtrSource.seeded(12);
      FieldAccumulator kept = FieldAccumulator.forBinning(binning);
      FieldAccumulator churned = FieldAccumulator.forBinning(binning);
      double[] removed = new double[2_000];
      double lo = m.domain().lo();
      for (int i = 0; i < 10_000; i++) {
        double y = m.perturb(lo + m.domain().width() * bits.nextUniform(), bits);
        churned.add(y, binning);
        if (i < removed.length) {
          removed[i] = y;
        } else {
          kept.add(y, binning);
        }
      }
      // Removing in another order than the values came (retractions arrive in any order).
      for (int i = removed.length - 1; i >= 0; i--) {
        churned.subtract(removed[i], binning);
      }
      assertThat(churned).isEqualTo(kept);
      assertThat(churned.mean()).isEqualTo(kept.mean());
      assertThat(churned.meanSquare(binning)).isEqualTo(kept.meanSquare(binning));
      assertThat(churned.meanCos()).isEqualTo(kept.meanCos());
      assertThat(churned.meanSin()).isEqualTo(kept.meanSin());
    }
  }

  @Test
  void subtractingBorrowsAcrossTheLowWordAndEmptiesToZero() {
    FieldBinning binning = FieldBinning.ofDomain(Domain.classical(-1, 1), 4);
    FieldAccumulator a = FieldAccumulator.forBinning(binning);
    for (int i = 0; i < 100; i++) {
      a.add(1, binning).add(-1, binning);
    }
    for (int i = 0; i < 70; i++) {
      a.subtract(1, binning);
    }
    assertThat(a.sum()).isEqualTo(-70);
    assertThat(a.getCount()).isEqualTo(130);
    assertThat(Int128.toBigInteger(a.getSumHigh(), a.getSumLow()))
        .isEqualTo(java.math.BigInteger.valueOf(-70).shiftLeft(60));
    for (int i = 0; i < 30; i++) {
      a.subtract(1, binning);
    }
    for (int i = 0; i < 100; i++) {
      a.subtract(-1, binning);
    }
    assertThat(a).isEqualTo(FieldAccumulator.forBinning(binning));
    assertThat(a.getHistogram()).containsOnly(0L);
  }

  @Test
  void onlyAValueLikeOneAddedCanBeSubtracted() {
    FieldBinning binning = FieldBinning.of(LINE, 10);
    FieldBinning other = FieldBinning.of(LINE, 20);
    FieldAccumulator a = FieldAccumulator.forBinning(binning).add(0.5, binning);
    assertThat(a.holdsValueLike(0.5, binning)).isTrue();
    // Another value of the same output bin is taken: the histogram cannot tell them apart.
    assertThat(a.holdsValueLike(0.51, binning)).isTrue();
    assertThat(a.holdsValueLike(-2.5, binning)).isFalse();
    assertThat(a.holdsValueLike(0.5, other)).isFalse();
    assertThat(a.holdsValueLike(Double.NaN, binning)).isFalse();
    assertThat(new FieldAccumulator().holdsValueLike(0.5, binning)).isFalse();
    assertThatThrownBy(() -> a.subtract(-2.5, binning))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cannot remove a value from an unnamed field: none was added in its bin");
    assertThatThrownBy(() -> a.subtract(Double.POSITIVE_INFINITY, binning))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not finite or beyond its reach");
    assertThat(a.getCount()).isEqualTo(1);
    assertThat(a.subtract(0.5, binning).getCount()).isZero();
  }
}
