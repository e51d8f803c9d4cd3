package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.mechanism.baseline.HybridMechanism;
import io.ogpm.mechanism.baseline.Truncation;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * "Never above eps", exactly, for every shipped mechanism over a grid of eps and grid bits. For the
 * integer samplers, {@code X = (2^53 - T) NB / (T N)} (the worst-case ratio is {@code 1 + X}, see
 * {@link TwoLevelCellSampler}) is at most {@code e^eps - 1}, decided with exact fractions against
 * {@link ExactExpm1}, a bound computed without rounding and independently of the production one;
 * {@code realizedEpsilon()} is at most eps and certified ({@code e^r - 1 >= X}, exactly). The exact
 * integer probability of every cell for 205 inputs (8-bit grids) and a bound over all inputs (8 and
 * 16 bits) confirm that {@code 1 + X} is the worst ratio. The exact geometric-noise samplers
 * (staircase, t-laplace, b-laplace, purkayastha) are checked here for being present and at most
 * eps, and in detail by {@code io.ogpm.mechanism.baseline.ExactNoiseEpsilonTest}.
 */
class RealizedEpsilonTest {
  static final int[] BITS = {8, 16, 32, 40};

  /** Up to here T and N have the resolution to spend all but 1e-6 of eps. */
  static final double RESOLVED = 30;

  static final Set<MechanismType> GEOMETRIC_NOISE =
      EnumSet.of(
          MechanismType.STAIRCASE,
          MechanismType.T_LAPLACE,
          MechanismType.B_LAPLACE,
          MechanismType.PURKAYASTHA);
  static final BigInteger TWO_POW_53 = BigInteger.ONE.shiftLeft(53);
  static final Map<Double, ExactExpm1.Fraction> LOWER = new ConcurrentHashMap<>();

  static ExactExpm1.Fraction lower(double x) {
    return LOWER.computeIfAbsent(x, ExactExpm1::lower);
  }

  /** Every shipped mechanism on both kinds of domain it supports, with each objective it has. */
  static List<MechanismSpec> specs(double eps, int bits) {
    List<MechanismSpec> out = new ArrayList<>();
    for (MechanismType type : MechanismType.values()) {
      for (Domain domain : List.of(Domain.classical(-1, 3), Domain.circular(0, 2 * Math.PI))) {
        if ((domain.isCircular() ? !type.supportsCircular() : !type.supportsClassical())
            || eps > type.maxEpsilon()) {
          continue;
        }
        for (Objective objective :
            type.hasObjective() ? Objective.values() : new Objective[] {Objective.L1}) {
          out.add(
              MechanismSpec.builder()
                  .type(type)
                  .domain(domain)
                  .epsilon(eps)
                  .objective(objective)
                  .gridBits(bits)
                  .build());
        }
      }
    }
    return out;
  }

  /**
   * The mechanism, or null where the grid is refused as finer than doubles resolve (a documented
   * error).
   */
  static Mechanism build(MechanismSpec spec) {
    try {
      return MechanismCatalog.of(spec);
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).as("%s", spec).contains("grid-bits");
      return null;
    }
  }

  /**
   * The integer sampler behind a spec (for t-pm and t-sw, the base mechanism's, whose cells are
   * clamped).
   */
  static TwoLevelCellSampler integerSampler(MechanismSpec spec) {
    UnitMechanism unit = MechanismCatalog.unitMechanism(spec);
    UnitMechanism part =
        unit instanceof Truncation t ? t.base() : unit instanceof HybridMechanism h ? h.pm() : unit;
    TwoLevelMechanism base = (TwoLevelMechanism) part;
    return new TwoLevelCellSampler(base, OutputGrid.of(spec.gridBits(), base));
  }

  /**
   * The sampler's certified epsilon; for hm, the larger of its PM part's and its randomized
   * response's (checked in BinaryRandomizedResponseTest), unless Duchi's part is never drawn.
   */
  static double expectedRealized(Mechanism m, TwoLevelCellSampler s) {
    if (m.unit() instanceof HybridMechanism h && h.alpha() < 1) {
      return Math.max(s.realizedEpsilon(), h.response().realizedEpsilon());
    }
    return s.realizedEpsilon();
  }

  static BigInteger outside(TwoLevelCellSampler s) {
    return TWO_POW_53
        .subtract(BigInteger.valueOf(s.backgroundThreshold()))
        .multiply(BigInteger.valueOf(s.backgroundPositions()));
  }

  static BigInteger inside(TwoLevelCellSampler s) {
    return BigInteger.valueOf(s.backgroundThreshold())
        .multiply(BigInteger.valueOf(s.bumpPositions()));
  }

  /**
   * Tiny, the values where rounding up without a check exceeds eps (0.005385 ogpm-u, 0.007135 sw,
   * 0.0101961 and 0.01105 sw-c), moderate, large, and where T or N runs out of resolution (60 and
   * above).
   */
  @ParameterizedTest(name = "eps={0}")
  @ValueSource(
      doubles = {
        1e-6, 0.001, 0.005385, 0.007135, 0.01, 0.0101961, 0.011, 0.01105, 0.1, 0.5, 1, 2, 4, 8, 10,
        12, 20, 30, 60, 100, 355, 700
      })
  void theExactIntegerRatioIsAtMostExpEpsilonAndRealizedEpsilonCertifiesIt(double eps) {
    ExactExpm1.Fraction bound = lower(eps);
    for (int bits : BITS) {
      for (MechanismSpec spec : specs(eps, bits)) {
        Mechanism m = build(spec);
        if (m == null) {
          continue;
        }
        assertThat(m.realizedEpsilon()).as("%s", spec).isLessThanOrEqualTo(eps).isPositive();
        if (GEOMETRIC_NOISE.contains(spec.type())) {
          continue;
        }
        TwoLevelCellSampler s = integerSampler(spec);
        assertThat(m.realizedEpsilon()).as("%s", spec).isEqualTo(expectedRealized(m, s));
        double realized = s.realizedEpsilon();
        BigInteger outside = outside(s);
        BigInteger inside = inside(s);
        assertThat(bound.bounds(outside, inside))
            .as("%s: X = %s / %s <= e^eps - 1", spec, outside, inside)
            .isTrue();
        assertThat(realized).as("%s", spec).isLessThanOrEqualTo(eps);
        assertThat(lower(realized).bounds(outside, inside))
            .as("%s: e^%s - 1 >= X", spec, realized)
            .isTrue();
        if (eps <= RESOLVED) {
          assertThat(realized)
              .as("%s: budget not wasted", spec)
              .isGreaterThanOrEqualTo(eps * (1 - 1e-6));
        }
      }
    }
  }

  /**
   * Why the sampler's integers are checked: rounding up without a check (T = ceil(w 2^53), N =
   * ceil(s 2^(bits + K))) gives these mechanisms a ratio above e^eps at every grid bits, proved
   * here against an upper bound on e^eps - 1: sw-c at eps 0.01105 by 3.4e-14 relative in eps at 32
   * bits; the other rows are the largest such excesses for eps in [0.005, 0.02].
   */
  @ParameterizedTest(name = "{0} eps={1}")
  @CsvSource({"sw-c, 0.01105", "sw-c, 0.0101961", "sw, 0.007135", "ogpm-u, 0.005385"})
  void whereTheOldRoundingExceededEpsilonTheRatioIsNowAtMostExpEpsilon(String type, double eps) {
    for (int bits : BITS) {
      MechanismSpec spec =
          MechanismSpec.builder()
              .type(MechanismType.parse(type))
              .epsilon(eps)
              .gridBits(bits)
              .build();
      TwoLevelCellSampler s = integerSampler(spec);
      TwoLevelMechanism unit = (TwoLevelMechanism) MechanismCatalog.unitMechanism(spec);
      // The unchecked integers: exactly above e^eps - 1 (an upper bound on it, so this is proved).
      long oldThreshold = (long) Math.ceil(unit.backgroundMass() * 0x1.0p53);
      long oldBump = (long) Math.ceil(unit.bumpLength() * Math.scalb(1.0, bits + s.shift()));
      BigInteger oldOutside =
          TWO_POW_53
              .subtract(BigInteger.valueOf(oldThreshold))
              .multiply(BigInteger.valueOf(s.backgroundPositions()));
      BigInteger oldInside = BigInteger.valueOf(oldThreshold).multiply(BigInteger.valueOf(oldBump));
      assertThat(ExactExpm1.upper(eps).isExceededBy(oldOutside, oldInside))
          .as("old rounding at %s bits", bits)
          .isTrue();
      if (type.equals("sw-c") && eps == 0.01105 && bits == 32) {
        // (ln(1 + X) - eps) / eps, to first order (X - E) / ((1 + E) eps) with E = e^eps - 1
        BigDecimal x =
            new BigDecimal(oldOutside).divide(new BigDecimal(oldInside), new MathContext(40));
        BigDecimal e = lower(eps).decimal();
        double excess =
            x.subtract(e).divide(e.add(BigDecimal.ONE), new MathContext(20)).doubleValue() / eps;
        assertThat(excess).isBetween(3.35e-14, 3.45e-14);
      }
      // The sampler's: at most e^eps - 1, and realized epsilon at most eps.
      assertThat(lower(eps).bounds(outside(s), inside(s)))
          .as("new rounding at %s bits", bits)
          .isTrue();
      assertThat(MechanismCatalog.of(spec).realizedEpsilon()).isLessThanOrEqualTo(eps);
    }
  }

  /**
   * On 8-bit grids, every cell's exact probability as an integer over {@code 2^53 NB N}, {@code
   * W_c(z) = T B_c N + (2^53 - T) U_c(z) NB}, for 200 inputs spread over the domain plus its ends:
   * the worst ratio over cells and inputs is at most {@code 1 + X}, and equals it once a bump
   * covers a whole cell that another input's bump misses. On bounded domains the bump's start is
   * monotone in the input, so the range between the starts at 0 and 1 bounds {@code U_c} for every
   * input: {@code max U_c <= B_c} there proves {@code 1 + X} for all inputs (also at 16 bits).
   */
  @ParameterizedTest(name = "eps={0}")
  @ValueSource(
      doubles = {
        1e-6, 0.001, 0.005385, 0.007135, 0.01, 0.0101961, 0.011, 0.01105, 0.1, 0.5, 1, 2, 4, 8, 10,
        12, 20, 30, 60, 100, 355, 700
      })
  void everyCellsExactProbabilityRatioIsAtMostOnePlusX(double eps) {
    for (int bits : new int[] {8, 16}) {
      for (MechanismSpec spec : specs(eps, bits)) {
        // hm's integer part is pm's, checked as pm.
        if (GEOMETRIC_NOISE.contains(spec.type())
            || spec.type() == MechanismType.HM
            || build(spec) == null) {
          continue;
        }
        // Enlarged output domains at tiny eps have millions of cells: skipped here.
        ExactCellWeights.of(spec, integerSampler(spec), 1 << 17)
            .ifPresent(
                weights -> {
                  weights.checkEveryInput();
                  if (bits == 8 && weights.cells() <= 1 << 11) {
                    boolean reached = weights.checkInputs(inputs());
                    TwoLevelCellSampler s = integerSampler(spec);
                    if (s.bumpPositions() >= 2L << s.shift()) {
                      // A bump two cells wide covers a whole cell that the bump of a distant input
                      // misses.
                      assertThat(reached).as("%s: 1 + X is reached", spec).isTrue();
                    }
                  }
                });
      }
    }
  }

  static double[] inputs() {
    double[] even = PrivacyCheck.evenInputs(200);
    double[] extra = {Math.nextUp(0.0), 1e-9, 0.5, 1 - 1e-9, Math.nextDown(1.0)};
    double[] all = new double[even.length + extra.length];
    System.arraycopy(even, 0, all, 0, even.length);
    System.arraycopy(extra, 0, all, even.length, extra.length);
    return all;
  }
}
