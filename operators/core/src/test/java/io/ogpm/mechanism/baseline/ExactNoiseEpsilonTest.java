package io.ogpm.mechanism.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import io.ogpm.mechanism.CellSampler;
import io.ogpm.mechanism.CertifiedLogRatio;
import io.ogpm.mechanism.DecimalInterval;
import io.ogpm.mechanism.Domain;
import io.ogpm.mechanism.ExactGeometric;
import io.ogpm.mechanism.ExactReference;
import io.ogpm.mechanism.Mechanism;
import io.ogpm.mechanism.MechanismSpec;
import io.ogpm.mechanism.MechanismType;
import io.ogpm.mechanism.Objective;
import io.ogpm.mechanism.OutputGrid;
import io.ogpm.mechanism.UnitMechanism;
import io.ogpm.mechanism.catalog.MechanismCatalog;
import io.ogpm.mechanism.random.AesCtrSource;
import io.ogpm.mechanism.random.RandomBits;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * "Never above eps", exactly, for the exact geometric-noise samplers (staircase, t-laplace,
 * b-laplace, purkayastha; the two-level ones are in {@code RealizedEpsilonTest}).
 *
 * <ul>
 *   <li>Over eps from 1e-6 to 700 and grid bits 8 to 40: each sampler's decay per cell is exactly
 *       eps (or 2 eps) times 2^-bits, its worst log ratio (decay times the largest change in
 *       exponent, from the proof in its class comment) is at most eps in exact decimal arithmetic,
 *       and {@code realizedEpsilon()} is a double at least that and at most eps.
 *   <li>On 8-bit grids, every cell's exact probability for every input cell: the worst ratio over
 *       cells and inputs, decided exactly (equal exponents of e^-decay where the probabilities
 *       share a factor, certified interval arithmetic where they do not), is the one claimed.
 *   <li>The staircase at eps 20, 25, 36 and 40, where the floating-point sampler exceeded eps or
 *       could not reach any block but the first: its first block coin is exactly e^-eps.
 * </ul>
 */
class ExactNoiseEpsilonTest {
  static final int[] BITS = {8, 16, 32, 40};

  /** The unit mechanisms behind every spec of these types (both objectives of the staircase). */
  static List<UnitMechanism> mechanisms(double eps) {
    return List.of(
        Staircase.optimal(eps, Objective.L1),
        Staircase.optimal(eps, Objective.L2),
        TruncatedLaplace.of(eps),
        BoundedLaplace.of(eps),
        Purkayastha.of(eps));
  }

  /** The spec whose unit mechanism is m, on a domain of width 4 (classical or circular). */
  static MechanismSpec spec(UnitMechanism m, int bits) {
    MechanismSpec.Builder b = MechanismSpec.builder().epsilon(m.epsilon()).gridBits(bits);
    if (m instanceof Staircase s) {
      b.type(MechanismType.STAIRCASE)
          .domain(Domain.classical(-1, 3))
          .objective(
              s.gamma() == Staircase.optimalGamma(m.epsilon(), Objective.L1)
                  ? Objective.L1
                  : Objective.L2);
    } else if (m instanceof TruncatedLaplace) {
      b.type(MechanismType.T_LAPLACE).domain(Domain.classical(-1, 3));
    } else if (m instanceof BoundedLaplace) {
      b.type(MechanismType.B_LAPLACE).domain(Domain.classical(-1, 3));
    } else {
      b.type(MechanismType.PURKAYASTHA).domain(Domain.circular(0, 4));
    }
    return b.build();
  }

  /**
   * The sampler's noise, its certified ratio, the decay the proof needs and the largest change in
   * exponent.
   */
  record Claim(ExactGeometric noise, CertifiedLogRatio ratio, BigDecimal decay, long span) {}

  static Claim claim(UnitMechanism m, OutputGrid grid) {
    CellSampler s = m.cellSampler(grid);
    long d = 1L << grid.bits();
    double eps = m.epsilon();
    if (s instanceof Staircase.Sampler st) {
      return new Claim(st.blocks(), st.ratio(), new BigDecimal(eps), 1);
    }
    if (s instanceof TruncatedLaplace.Sampler t) {
      return new Claim(t.noise(), t.ratio(), CertifiedLogRatio.dyadic(eps, -grid.bits()), d);
    }
    if (s instanceof BoundedLaplace.Sampler b) {
      return new Claim(b.noise(), b.ratio(), CertifiedLogRatio.dyadic(eps, -grid.bits()), d - 1);
    }
    Purkayastha.Sampler p = (Purkayastha.Sampler) s;
    return new Claim(p.noise(), p.ratio(), CertifiedLogRatio.dyadic(2 * eps, -grid.bits()), d / 2);
  }

  @ParameterizedTest(name = "eps={0}")
  @ValueSource(
      doubles = {
        1e-6, 0.001, 0.01, 0.1, 0.5, 1, 2, 4, 8, 10, 12, 20, 25, 30, 36, 37.5, 40, 60, 100, 355, 700
      })
  void theWorstLogRatioIsExactlyAtMostEpsilonAndRealizedEpsilonCertifiesIt(double eps) {
    BigDecimal exactEps = new BigDecimal(eps);
    for (int bits : BITS) {
      for (UnitMechanism m : mechanisms(eps)) {
        Claim c = claim(m, OutputGrid.of(bits, m));
        String label = m + " at " + bits + " bits";
        assertThat(c.noise().decay()).as("%s: decay", label).isEqualByComparingTo(c.decay());
        BigDecimal worst = c.decay().multiply(BigDecimal.valueOf(c.span()));
        assertThat(c.ratio().worst()).as("%s: worst log ratio", label).isEqualByComparingTo(worst);
        assertThat(worst).as("%s: worst log ratio <= eps", label).isLessThanOrEqualTo(exactEps);
        double realized = c.ratio().certifiedEpsilon();
        assertThat(new BigDecimal(realized))
            .as("%s: realized >= worst", label)
            .isGreaterThanOrEqualTo(worst);
        assertThat(realized).as("%s", label).isLessThanOrEqualTo(eps);
        if (!(m instanceof BoundedLaplace)) {
          assertThat(realized).as("%s: the worst ratio is e^eps", label).isEqualTo(eps);
        }
        Mechanism built = build(() -> spec(m, bits));
        if (built != null) {
          assertThat(built.realizedEpsilon())
              .as("%s: Mechanism reports the sampler's", label)
              .isEqualTo(realized);
        }
      }
    }
  }

  /**
   * The mechanism, or null where the grid is refused as finer than doubles resolve (a documented
   * error).
   */
  static Mechanism build(java.util.function.Supplier<MechanismSpec> spec) {
    try {
      return MechanismCatalog.of(spec.get());
    } catch (IllegalArgumentException e) {
      // Not offered: a grid too coarse for the mechanism, or an epsilon above its largest.
      assertThat(e.getMessage()).containsAnyOf("grid-bits", "epsilon must be <=");
      return null;
    }
  }

  static final int D = 256;

  /**
   * Every cell's probability for every input cell x in [0, D] (a circle: [0, D)), as {@code
   * factor(x, c) r^exponent(x, c)} with {@code r = e^-decay}; two probabilities with the same
   * factor compare exactly through their exponents.
   */
  @ParameterizedTest(name = "eps={0}")
  @ValueSource(doubles = {1e-6, 0.01, 0.5, 2, 8, 20, 25, 36, 40, 100, 700})
  void everyCellsExactProbabilityGivesTheClaimedWorstRatioOnAnEightBitGrid(double eps) {
    for (UnitMechanism m : mechanisms(eps)) {
      Claim c = claim(m, OutputGrid.of(8, m));
      BigDecimal worst = c.decay().multiply(BigDecimal.valueOf(c.span()));
      if (m instanceof Staircase s) {
        long first = ((Staircase.Sampler) s.cellSampler(OutputGrid.of(8, s))).firstCells();
        assertThat(staircaseWorstStep(first)).as("%s: largest change of step", m).isEqualTo(1);
      } else if (m instanceof Purkayastha) {
        assertThat(purkayasthaWorstDistanceChange()).as("%s", m).isEqualTo(D / 2);
      } else if (m instanceof TruncatedLaplace) {
        truncatedLaplaceWorstRatio(m, c);
      } else {
        boundedLaplaceWorstRatio(m, c, worst);
      }
    }
  }

  /**
   * The staircase's noise k has probability {@code C b^n(k)}, one factor C for every k: the ratio
   * of a cell between inputs is {@code b^(n1 - n2)}. Steps n for inputs [0, D] and cells within
   * four blocks of them (further out the pattern repeats block by block).
   */
  static long staircaseWorstStep(long first) {
    long worst = 0;
    for (long cell = -4L * D; cell <= 5L * D; cell++) {
      long most = Long.MIN_VALUE;
      long least = Long.MAX_VALUE;
      for (long x = 0; x <= D; x++) {
        long k = cell - x;
        long magnitude = k >= 0 ? k : -k - 1;
        long step = Math.floorDiv(magnitude + D - first, D);
        most = Math.max(most, step);
        least = Math.min(least, step);
      }
      worst = Math.max(worst, most - least);
    }
    return worst;
  }

  /** Purkayastha: one factor 1/Z; exponents are circular distances in cells. */
  static long purkayasthaWorstDistanceChange() {
    long worst = 0;
    for (long cell = 0; cell < D; cell++) {
      long most = 0;
      long least = Long.MAX_VALUE;
      for (long x = 0; x < D; x++) {
        long k = Math.floorMod(cell - x + D / 2, D) - D / 2; // the noise in [-D/2, D/2 - 1]
        most = Math.max(most, Math.abs(k));
        least = Math.min(least, Math.abs(k));
      }
      worst = Math.max(worst, most - least);
    }
    return worst;
  }

  /**
   * T-Laplace: inside cells have factor {@code (1 - r) / (1 + r)} and exponent |c - x|, end cells
   * factor {@code 1 / (1 + r)} and exponent x (cell 0) or D - 1 - x (cell D - 1, x < D); cell D - 1
   * for x = D is {@code 1 - r^2 / (1 + r)}. Exponent changes are at most D (reached at cell 0); the
   * odd cell is compared in certified interval arithmetic, strictly below e^eps.
   */
  static void truncatedLaplaceWorstRatio(UnitMechanism m, Claim c) {
    long worst = 0;
    for (long cell = 0; cell < D; cell++) {
      long most = Long.MIN_VALUE;
      long least = Long.MAX_VALUE;
      for (long x = 0; x <= D; x++) {
        if (cell == D - 1 && x == D) {
          continue;
        }
        long exponent = cell == 0 ? x : cell == D - 1 ? D - 1 - x : Math.abs(cell - x);
        most = Math.max(most, exponent);
        least = Math.min(least, exponent);
      }
      worst = Math.max(worst, most - least);
    }
    assertThat(worst).as("%s: largest exponent change", m).isEqualTo(c.span());
    DecimalInterval r = ExactReference.expMinus(c.decay().doubleValue());
    DecimalInterval onePlusR = DecimalInterval.exactly(1).plus(r);
    DecimalInterval odd = DecimalInterval.exactly(1).minus(r.pow(2).dividedBy(onePlusR));
    // against the other inputs' probabilities of cell D - 1: at most 1 / (1 + r) <= odd, at least
    // r^(D-1) / (1 + r).
    assertThat(DecimalInterval.exactly(1).dividedBy(onePlusR).certainlyBelow(odd))
        .as("%s", m)
        .isTrue();
    DecimalInterval ratio = odd.times(onePlusR).dividedBy(r.pow(D - 1));
    DecimalInterval bound = DecimalInterval.exactly(1).dividedBy(r.pow(D)); // e^eps
    assertThat(ratio.certainlyBelow(bound))
        .as("%s: cell D - 1 ratio %s below e^eps %s", m, ratio, bound)
        .isTrue();
  }

  /**
   * B-Laplace: cell c has probability {@code r^|c - x| / Z(x)}, a different factor for every input,
   * so every ratio is bounded in certified interval arithmetic: the worst is strictly below e^eps,
   * and within 1e-40 of the claimed {@code e^(decay (D - 1))}.
   */
  static void boundedLaplaceWorstRatio(UnitMechanism m, Claim c, BigDecimal worst) {
    DecimalInterval r = ExactReference.expMinus(c.decay().doubleValue());
    DecimalInterval[] power = new DecimalInterval[D + 1];
    power[0] = DecimalInterval.exactly(1);
    for (int k = 1; k <= D; k++) {
      power[k] = power[k - 1].times(r);
    }
    List<DecimalInterval[]> byInput = new ArrayList<>();
    for (int x = 0; x <= D; x++) {
      DecimalInterval z = DecimalInterval.exactly(0);
      for (int cell = 0; cell < D; cell++) {
        z = z.plus(power[Math.abs(cell - x)]);
      }
      DecimalInterval[] p = new DecimalInterval[D];
      for (int cell = 0; cell < D; cell++) {
        p[cell] = power[Math.abs(cell - x)].dividedBy(z);
      }
      byInput.add(p);
    }
    DecimalInterval eToTheEps = DecimalInterval.exactly(1).dividedBy(power[D]);
    BigDecimal largestLower = BigDecimal.ZERO;
    for (int cell = 0; cell < D; cell++) {
      BigDecimal mostHi = BigDecimal.ZERO;
      BigDecimal mostLo = BigDecimal.ZERO;
      BigDecimal leastLo = null;
      BigDecimal leastHi = null;
      for (DecimalInterval[] p : byInput) {
        mostHi = mostHi.max(p[cell].hi());
        mostLo = mostLo.max(p[cell].lo());
        leastLo = leastLo == null ? p[cell].lo() : leastLo.min(p[cell].lo());
        leastHi = leastHi == null ? p[cell].hi() : leastHi.min(p[cell].hi());
      }
      DecimalInterval ratio =
          new DecimalInterval(mostLo, mostHi).dividedBy(new DecimalInterval(leastLo, leastHi));
      assertThat(ratio.certainlyBelow(eToTheEps))
          .as("%s cell %s: ratio %s below e^eps", m, cell, ratio)
          .isTrue();
      largestLower = largestLower.max(ratio.lo());
    }
    DecimalInterval claimed = DecimalInterval.exactly(1).dividedBy(power[D - 1]);
    double gap =
        largestLower
            .subtract(claimed.lo())
            .abs()
            .divide(claimed.lo(), java.math.MathContext.DECIMAL64)
            .doubleValue();
    assertThat(gap)
        .as("%s: the worst ratio is e^(decay (D - 1)) = e^%s", m, worst)
        .isLessThan(1e-40);
  }

  /**
   * Why these eps: a floating-point staircase sampler that rounds its block probabilities to
   * multiples of 2^-53 exceeds e^eps by 2e-8 relative at eps 20, 3.8e-6 at 25, 0.044 at 36, and
   * from 37.5 on reaches no block but the first. The exact sampler's first random word is its block
   * coin (lowBits 0 for eps >= 1): a uniform whose first words agree with {@code e^-eps} up to word
   * j and fall one below (above) it there must leave the first block (stay in it). {@code e^-eps}
   * comes from exact fractions, independently of the sampler. With the block coin exact, the worst
   * ratio is e^eps (the step argument of {@link Staircase.Sampler}, checked above on an 8-bit
   * grid).
   */
  @ParameterizedTest(name = "eps={0}")
  @ValueSource(doubles = {20, 25, 36, 37.5, 40})
  void theStaircaseLeavesItsFirstBlockWithProbabilityExactlyEToTheMinusEpsilon(double eps) {
    AesCtrSource rest = AesCtrSource.seeded(11);
    for (int bits : new int[] {8, 32}) {
      for (Objective objective : Objective.values()) {
        Staircase s = Staircase.optimal(eps, objective);
        OutputGrid grid = OutputGrid.of(bits, s);
        CellSampler sampler = s.cellSampler(grid);
        assertThat(sampler.certifiedEpsilon()).hasValue(eps);
        long d = 1L << bits;
        double z = 0.5;
        long from = d / 2;
        for (int j = 0; j < 3; j++) {
          BigInteger prefix = ExactReference.expMinusPrefix(eps, j + 1);
          assertThat(prefix).isNotNull();
          for (int trial = 0; trial < 20; trial++) {
            long below = sampler.sampleCell(z, scripted(prefix, j, -1, rest));
            long above = sampler.sampleCell(z, scripted(prefix, j, +1, rest));
            assertThat(magnitude(below - from))
                .as("%s %s bits: U just below e^-eps at word %s leaves block 0", s, bits, j)
                .isGreaterThanOrEqualTo(d);
            assertThat(magnitude(above - from))
                .as("%s %s bits: U just above e^-eps at word %s stays in block 0", s, bits, j)
                .isLessThan(d);
          }
        }
      }
    }
  }

  static long magnitude(long noise) {
    return noise >= 0 ? noise : -noise - 1;
  }

  /** The words of {@code prefix} (j + 1 words) with the last moved by delta, then random words. */
  static RandomBits scripted(BigInteger prefix, int j, int delta, RandomBits rest) {
    BigInteger moved = prefix.add(BigInteger.valueOf(delta));
    return new RandomBits() {
      int i;

      @Override
      public long nextLong() {
        int k = i++;
        return k <= j ? moved.shiftRight(64 * (j - k)).longValue() : rest.nextLong();
      }
    };
  }
}
