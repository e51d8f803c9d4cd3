package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.mechanism.audit.ClopperPearson;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomBits;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The exact coins: their binary expansions against exact rational bounds ({@link ExactExpm1},
 * computed without rounding, independently of {@link CertifiedExp}), their decisions on scripted
 * bits (including past the precomputed words), and their frequencies.
 */
class ExactBernoulliTest {
  /** Bits of relative precision of the reference bounds: enough for every word compared here. */
  static final int REFERENCE_BITS = 1000;

  /**
   * A coin with its exact reference: {@code p = 1 / (1 + k / (a + (e^x - 1) c))} for the three
   * kinds.
   */
  record Case(ExactBernoulli coin, double x, String kind, long a, long b) {}

  static List<Case> cases() {
    return List.of(
        expMinus(0x1.0p-60),
        expMinus(1e-6),
        expMinus(0.5),
        expMinus(1),
        expMinus(40),
        expMinus(700),
        logistic(1e-6 * 0x1.0p-40),
        logistic(0x1.0p-20),
        logistic(0.5),
        logistic(2.5),
        logistic(40),
        logistic(350),
        ratio(1, 1, 1e-6),
        ratio(3, 5, 2),
        ratio(2267, (1L << 40) - 2267, 40),
        ratio(7, 1L << 52, 700));
  }

  static Case expMinus(double x) {
    return new Case(ExactBernoulli.expMinus(new BigDecimal(x)), x, "exp", 0, 0);
  }

  static Case logistic(double x) {
    return new Case(ExactBernoulli.logistic(new BigDecimal(x)), x, "logistic", 0, 0);
  }

  static Case ratio(long a, long b, double x) {
    return new Case(ExactBernoulli.ratio(a, b, new BigDecimal(x)), x, "ratio", a, b);
  }

  /**
   * {@code floor(p 2^(64 n))} from exact fractions, or null where the lower and upper bounds
   * disagree. With {@code E = e^x - 1} in [L, U]: {@code e^-x = 1 / (1 + E)}, {@code 1 / (1 + e^x)
   * = 1 / (2 + E)}, {@code a / (a + b e^-x) = a (1 + E) / (a (1 + E) + b)}, each monotone in E.
   */
  static BigInteger referencePrefix(Case c, ExactExpm1.Fraction lo, ExactExpm1.Fraction hi, int n) {
    BigInteger[] fromLo = probability(c, lo);
    BigInteger[] fromHi = probability(c, hi);
    BigInteger scale = BigInteger.ONE.shiftLeft(64 * n);
    BigInteger a = fromLo[0].multiply(scale).divide(fromLo[1]);
    BigInteger b = fromHi[0].multiply(scale).divide(fromHi[1]);
    return a.equals(b) ? a : null;
  }

  /** p as num / den for {@code E = num / den}. */
  static BigInteger[] probability(Case c, ExactExpm1.Fraction e) {
    BigInteger onePlusE = e.den().add(e.num()); // (1 + E) e.den
    return switch (c.kind()) {
      case "exp" -> new BigInteger[] {e.den(), onePlusE};
      case "logistic" -> new BigInteger[] {e.den(), e.den().add(onePlusE)};
      default -> {
        BigInteger a = BigInteger.valueOf(c.a()).multiply(onePlusE);
        yield new BigInteger[] {a, a.add(BigInteger.valueOf(c.b()).multiply(e.den()))};
      }
    };
  }

  @Test
  void everyKnownWordAndEveryLaterWordIsTheBinaryExpansionOfP() {
    for (Case c : cases()) {
      long[] known = c.coin().knownWords();
      int run = 0;
      while (run < known.length && (known[0] == 0 || known[0] == -1L) && known[run] == known[0]) {
        run++;
      }
      assertThat(known.length)
          .as("%s: words known past the leading run", c.coin())
          .isGreaterThanOrEqualTo(run + ExactBernoulli.SIGNIFICANT_WORDS);
      ExactExpm1.Fraction lo = ExactExpm1.lower(c.x(), REFERENCE_BITS);
      ExactExpm1.Fraction hi = ExactExpm1.upper(c.x(), REFERENCE_BITS);
      for (int i = 0; i < known.length + 3; i++) {
        BigInteger prefix = referencePrefix(c, lo, hi, i + 1);
        assertThat(prefix).as("%s: reference precise enough for word %s", c.coin(), i).isNotNull();
        long expected = prefix.longValue();
        assertThat(c.coin().word(i)).as("%s word %s", c.coin(), i).isEqualTo(expected);
        if (i < known.length) {
          assertThat(known[i]).as("%s known word %s", c.coin(), i).isEqualTo(expected);
        }
      }
    }
  }

  /**
   * U equal to p's expansion on words 0..j-1 and one below (above) it at word j is below (above) p:
   * true (false). For j past the known words, the coin computes the word it needs.
   */
  @Test
  void theFirstWordWhereUDiffersFromPDecides() {
    AesCtrSource rest = AesCtrSource.seeded(5);
    for (Case c : cases()) {
      long[] known = c.coin().knownWords();
      for (int j : new int[] {0, 1, known.length - 1, known.length, known.length + 1}) {
        long w = c.coin().word(j);
        if (w != 0) {
          assertThat(c.coin().sample(scripted(c.coin(), j, w - 1, rest)))
              .as("%s: below at word %s", c.coin(), j)
              .isTrue();
        }
        if (w != -1L) {
          assertThat(c.coin().sample(scripted(c.coin(), j, w + 1, rest)))
              .as("%s: above at word %s", c.coin(), j)
              .isFalse();
        }
      }
    }
  }

  /** Words 0..j-1 of p, then {@code last}, then random words. */
  static RandomBits scripted(ExactBernoulli coin, int j, long last, RandomBits rest) {
    return new RandomBits() {
      int i;

      @Override
      public long nextLong() {
        int k = i++;
        return k < j ? coin.word(k) : k == j ? last : rest.nextLong();
      }
    };
  }

  /**
   * Two-sided Clopper-Pearson at 1e-6 over 16 coins: a correct coin fails with probability below
   * 2e-5.
   */
  @Test
  void frequenciesMatchP() {
    AesCtrSource bits = AesCtrSource.seeded(6);
    int n = 200_000;
    for (Case c : cases()) {
      long heads = 0;
      for (int i = 0; i < n; i++) {
        heads += c.coin().sample(bits) ? 1 : 0;
      }
      double p = c.coin().enclose(30).lo().doubleValue();
      assertThat(p)
          .as("%s", c.coin())
          .isBetween(ClopperPearson.lower(heads, n, 5e-7), ClopperPearson.upper(heads, n, 5e-7));
    }
  }

  @Test
  void refusesProbabilitiesItCannotCertify() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ExactBernoulli.expMinus(BigDecimal.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("x > 0");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ExactBernoulli.ratio(0, 1, BigDecimal.ONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a, b > 0");
  }
}
