package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomBits;
import java.math.BigDecimal;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;

/**
 * The exact geometric noise against its probability mass functions (chi-square at p = 1e-5 per
 * check), its coins against their definition, and its expected rounds against the stated bounds.
 */
class ExactGeometricTest {
  static final int N = 100_000;

  static ExactGeometric geometric(double decay, int lowBits) {
    return ExactGeometric.of(new BigDecimal(decay), lowBits);
  }

  /** Draws n values in [lo, hi] and checks them against weights w(k), normalised here. */
  static void check(
      String label,
      RandomBits bits,
      ToLongFunction<RandomBits> draw,
      long lo,
      long hi,
      java.util.function.LongToDoubleFunction weight) {
    int cells = (int) (hi - lo + 1);
    long[] counts = new long[cells];
    for (int i = 0; i < N; i++) {
      long k = draw.applyAsLong(bits);
      assertThat(k).as("%s draw", label).isBetween(lo, hi);
      counts[(int) (k - lo)]++;
    }
    double[] pmf = new double[cells];
    double total = 0;
    for (int i = 0; i < cells; i++) {
      pmf[i] = weight.applyAsDouble(lo + i);
      total += pmf[i];
    }
    for (int i = 0; i < cells; i++) {
      pmf[i] /= total;
    }
    ChiSquare.assertFits(counts, pmf, label);
  }

  @Test
  void theDigitsAreIndependentCoinsOfTheRightProbability() {
    ExactGeometric g = geometric(0.3, 5);
    for (int i = 0; i < 5; i++) {
      // P(digit i) = 1 / (1 + e^(0.3 * 2^i)), to 30 digits.
      double p = g.digit(i).enclose(30).lo().doubleValue();
      assertThat(p)
          .isCloseTo(
              1 / (1 + Math.exp(0.3 * Math.pow(2, i))), org.assertj.core.data.Offset.offset(1e-15));
    }
    assertThat(g.continuation().enclose(30).lo().doubleValue())
        .isCloseTo(Math.exp(-0.3 * 32), org.assertj.core.data.Offset.offset(1e-18));
  }

  @Test
  void belowAndAtMostFollowTheTruncatedGeometric() {
    AesCtrSource bits = AesCtrSource.seeded(1);
    for (double decay : new double[] {1e-3, 0.05, 0.5, 3}) {
      ExactGeometric g = geometric(decay, 6);
      check(
          "below 2^6, decay " + decay, bits, b -> g.below(b, 6), 0, 63, m -> Math.exp(-decay * m));
      check(
          "at most 40, decay " + decay,
          bits,
          b -> g.atMost(b, 40),
          0,
          40,
          m -> Math.exp(-decay * m));
      check("at most 0", bits, b -> g.atMost(b, 0), 0, 0, m -> 1);
    }
  }

  @Test
  void twoSidedFollowsTheTruncatedDiscreteLaplaceOnEveryKindOfRange() {
    AesCtrSource bits = AesCtrSource.seeded(2);
    for (double decay : new double[] {0.01, 0.3, 2.7}) {
      ExactGeometric g = geometric(decay, 6);
      for (long[] range :
          new long[][] {
            {-7, 12}, {-40, 3}, {-1, 63}, {0, 20}, {5, 30}, {-30, -4}, {-12, 0}, {-1, 0}, {0, 0}
          }) {
        long lo = range[0];
        long hi = range[1];
        check(
            "two-sided [" + lo + ", " + hi + "], decay " + decay,
            bits,
            b -> g.twoSided(b, lo, hi),
            lo,
            hi,
            k -> Math.exp(-decay * Math.abs(k)));
      }
    }
  }

  @Test
  void saturatedIsTheUntruncatedGeometricCappedAtCap() {
    AesCtrSource bits = AesCtrSource.seeded(3);
    for (double decay : new double[] {0.02, 0.4, 3}) {
      for (int lowBits : new int[] {0, 3}) {
        ExactGeometric g = geometric(decay, lowBits);
        long cap = 20;
        // P(m) = (1 - e^-l) e^(-l m) below cap; P(cap) = e^(-l cap).
        check(
            "saturated at 20, decay " + decay + ", L " + lowBits,
            bits,
            b -> g.saturated(b, cap),
            0,
            cap,
            m -> m < cap ? -Math.expm1(-decay) * Math.exp(-decay * m) : Math.exp(-decay * cap));
        // Two-sided: P(k) ∝ e^(-l |k|), the tails beyond +-cap on +-cap.
        double r = Math.exp(-decay);
        check(
            "two-sided saturated at 20, decay " + decay,
            bits,
            b -> g.twoSidedSaturated(b, cap),
            -cap,
            cap,
            k -> Math.abs(k) < cap ? Math.pow(r, Math.abs(k)) : Math.pow(r, cap) / (1 - r));
      }
    }
  }

  @Test
  void theUntruncatedGeometricReachesItsFarTail() {
    AesCtrSource bits = AesCtrSource.seeded(4);
    double decay = 1e-9;
    ExactGeometric g = geometric(decay, 30);
    int n = 20_000;
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += g.saturated(bits, 1L << 62);
    }
    // Mean 1 / (e^l - 1) ~ 1e9 and sd ~ 1e9: 4 sigma / sqrt(n) is below 3 %.
    assertThat(sum / n / (1 / Math.expm1(decay))).isBetween(0.97, 1.03);
  }

  /**
   * The rounds of rejection stay within the stated expectations (at most 2 for {@code atMost}, 4
   * for {@code twoSided}, counted in words read): the worst cases are a bound just past a power of
   * two and a range on one side but for one cell, at a decay so small that the law is nearly
   * uniform.
   */
  @Test
  void rejectionRoundsStayBounded() {
    AesCtrSource source = AesCtrSource.seeded(5);
    long[] words = new long[1];
    RandomBits counting =
        () -> {
          words[0]++;
          return source.nextLong();
        };
    ExactGeometric g = geometric(1e-4, 12);
    int n = 20_000;
    for (int i = 0; i < n; i++) {
      g.atMost(counting, 1L << 11);
    }
    // 12 digit coins a round, each about one word: at most 2 rounds expected, with slack for
    // chance.
    assertThat((double) words[0] / n).isLessThan(2.1 * 12 * 1.01);
    words[0] = 0;
    for (int i = 0; i < n; i++) {
      g.twoSided(counting, -1, 1L << 11);
    }
    // a sign word and 12 digits a round, at most 4 rounds expected.
    assertThat((double) words[0] / n).isLessThan(4.2 * 13 * 1.01);
  }

  @Test
  void refusesBadParameters() {
    assertThatThrownBy(() -> geometric(0, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("decay");
    assertThatThrownBy(() -> geometric(1, 63))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lowBits");
    assertThatThrownBy(() -> geometric(1, 3).below(AesCtrSource.seeded(1), 4))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> geometric(1, 3).twoSided(AesCtrSource.seeded(1), 2, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
