package io.ogpm.mechanism.baseline;

import io.ogpm.annotation.Internal;
import io.ogpm.mechanism.AbstractUnitMechanism;
import io.ogpm.mechanism.BinaryRandomizedResponse;
import io.ogpm.mechanism.CellSampler;
import io.ogpm.mechanism.Checks;
import io.ogpm.mechanism.OutputGrid;
import io.ogpm.mechanism.PiecewiseDistribution;
import io.ogpm.mechanism.PiecewiseUnitMechanism;
import io.ogpm.mechanism.random.RandomBits;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The Hybrid Mechanism (HM) of Wang et al. (ICDE 2019) on the unit domain: with probability alpha
 * the Piecewise Mechanism ({@link PiecewiseMechanism}, its own output domain [-C, C] for t = 2z - 1
 * in [-1, 1]), otherwise Duchi et al.'s two-output mechanism, which reports {@code +D} with
 * probability {@code 1/2 + t (e^eps - 1) / (2 (e^eps + 1))} and {@code -D} otherwise, {@code D =
 * (e^eps + 1) / (e^eps - 1)}. Both parts are unbiased (E[y] = t), so the mixture is, and its
 * variance is the alpha-weighted sum of theirs.
 *
 * <p><b>Alpha</b> minimises the worst-case variance over the inputs (Wang et al., the hybrid
 * mechanism's theorem). Both variances are affine in {@code t^2} (PM's rises, {@code t^2 /
 * (e^(eps/2) - 1)} plus a constant; Duchi's falls, {@code D^2 - t^2}), so the mixture's worst case
 * is at t = 0 or |t| = 1 and the best alpha is 0, 1 or the one that makes the mixture's variance
 * flat, {@code 1 - e^(-eps/2)}: whichever has the smallest worst case. That is Duchi alone up to
 * eps of about 0.61 and the flat mixture above. Duchi's mechanism on its own is this mechanism at
 * small eps and never better for a mean; it reports nothing else about the inputs' distribution.
 *
 * <p><b>Sampling.</b> One 53-bit draw against an integer threshold picks PM (PM's exact integer
 * sampler, {@link PiecewiseMechanism#cellSampler}) or Duchi's part: a uniform rounds the input to
 * an end ({@code +1} with probability z) and {@link BinaryRandomizedResponse} keeps or flips it, so
 * Duchi's probabilities are the keep probability k and {@code 1 - k}, with k exact and certified,
 * and D is {@code 1 / (2k - 1)} so the part stays unbiased. The outputs {@code +-D} are snapped to
 * their grid cells like every output. A cell's probability is the alpha-mixture of the two parts',
 * and alpha does not depend on the input, so the worst ratio is at most the larger of the parts'
 * certified ratios.
 */
@Internal
public final class HybridMechanism extends AbstractUnitMechanism implements PiecewiseUnitMechanism {
  private final PiecewiseMechanism pm;
  private final BinaryRandomizedResponse response;
  private final long pmThreshold;
  private final double alpha;
  private final double duchiUp;
  private final double duchiDown;

  private HybridMechanism(
      double epsilon, PiecewiseMechanism pm, BinaryRandomizedResponse response, long pmThreshold) {
    super(epsilon);
    this.pm = pm;
    this.response = response;
    this.pmThreshold = pmThreshold;
    this.alpha = Math.scalb((double) pmThreshold, -53);
    double d = 1 / (2 * response.keepProbability() - 1);
    // Unit coordinates: y = (1 + t) / 2, as PM's.
    this.duchiUp = 0.5 + 0.5 * d;
    this.duchiDown = 0.5 - 0.5 * d;
  }

  public static HybridMechanism of(double epsilon) {
    Checks.positive("epsilon", epsilon);
    Checks.finite("epsilon", epsilon);
    PiecewiseMechanism pm = PiecewiseMechanism.of(epsilon, PiecewiseMechanism.Output.ORIGINAL);
    BinaryRandomizedResponse response = BinaryRandomizedResponse.of(epsilon);
    double alpha = minimaxAlpha(epsilon, response);
    HybridMechanism hybrid =
        new HybridMechanism(epsilon, pm, response, Math.round(Math.scalb(alpha, 53)));
    if (!(hybrid.duchiUp < pm.outputHi() && hybrid.duchiDown >= pm.outputLo())) {
      // From eps of about 75, PM's output domain is within 2^-52 of [-1, 1] and narrower than
      // Duchi's rounded outputs; Duchi's share, e^(-eps/2), is then below 2^-54 and rounds to 0.
      hybrid = new HybridMechanism(epsilon, pm, response, 1L << 53);
    }
    return hybrid;
  }

  /**
   * The alpha with the smallest worst-case variance (Wang et al.'s closed forms, in t): PM's
   * variance is {@code t^2 / (h - 1) + a0}, {@code h = e^(eps/2)}, {@code a0 = (h + 3) / (3 (h -
   * 1)^2)}, Duchi's {@code D^2 - t^2}. The mixture's coefficient of {@code t^2} is {@code alpha /
   * (h - 1) - (1 - alpha)}, zero at {@code alpha = 1 - 1/h}, where the variance is {@code alpha a0
   * + (1 - alpha) D^2} for every input: below Duchi's worst case D^2 exactly when {@code a0 < D^2}.
   * Alpha = 1 is never better (its worst case, at |t| = 1, is above the flat mixture's), and the
   * flat mixture is better than any other alpha (one of the two ends rises). D is the realized one.
   * Closed forms, not PM's distribution: they hold at every eps, where PM's pieces at very high eps
   * no longer carry a representable mass.
   */
  private static double minimaxAlpha(double epsilon, BinaryRandomizedResponse response) {
    double d = 1 / (2 * response.keepProbability() - 1);
    double hMinusOne = Math.expm1(epsilon / 2);
    double a0 = (hMinusOne + 4) / (3 * hMinusOne * hMinusOne);
    return a0 < d * d ? -Math.expm1(-epsilon / 2) : 0;
  }

  /** The probability of PM's part, {@code T / 2^53} exactly. */
  public double alpha() {
    return alpha;
  }

  /** Duchi's part alone (alpha 0, below the switch) releases two atoms: the mean only. */
  @Override
  public boolean resolvesDistributions() {
    return alpha > 0;
  }

  /**
   * The probability that Duchi's part reports its upper output for input z: {@code z k + (1 - z)(1
   * - k)}.
   */
  private double duchiUpProbability(double z) {
    double k = response.keepProbability();
    return z * k + (1 - z) * (1 - k);
  }

  @Override
  public double outputLo() {
    return pm.outputLo();
  }

  @Override
  public double outputHi() {
    return pm.outputHi();
  }

  @Override
  public PiecewiseDistribution distribution(double z) {
    List<PiecewiseDistribution.Piece> pieces = new ArrayList<>();
    for (PiecewiseDistribution.Piece p : pm.distribution(z).pieces()) {
      pieces.add(new PiecewiseDistribution.Piece(p.from(), p.to(), alpha * p.density()));
    }
    double up = duchiUpProbability(z);
    return PiecewiseDistribution.of(
        pieces,
        List.of(
            new PiecewiseDistribution.Atom(duchiDown, (1 - alpha) * (1 - up)),
            new PiecewiseDistribution.Atom(duchiUp, (1 - alpha) * up)));
  }

  @Override
  public double inverseCdf(double z, double u) {
    return distribution(z).inverseCdf(u);
  }

  /** PM, the part used with probability alpha. */
  public PiecewiseMechanism pm() {
    return pm;
  }

  /** The randomized response of Duchi's part. */
  public BinaryRandomizedResponse response() {
    return response;
  }

  @Override
  public CellSampler cellSampler(OutputGrid grid) {
    if (pmThreshold == 1L << 53) {
      return pm.cellSampler(grid);
    }
    return new Sampler(
        pm.cellSampler(grid), pmThreshold, response, grid.cell(duchiUp), grid.cell(duchiDown));
  }

  /** PM's exact sampler with probability alpha, otherwise Duchi's two cells. */
  private record Sampler(
      CellSampler pm,
      long pmThreshold,
      BinaryRandomizedResponse response,
      long upCell,
      long downCell)
      implements CellSampler {
    @Override
    public long sampleCell(double z, RandomBits bits) {
      if ((bits.nextLong() >>> 11) < pmThreshold) {
        return pm.sampleCell(z, bits);
      }
      boolean up = bits.nextUniform() < z;
      return up == response.keep(bits) ? upCell : downCell;
    }

    @Override
    public OptionalDouble certifiedEpsilon() {
      OptionalDouble pmEpsilon = pm.certifiedEpsilon();
      if (pmEpsilon.isEmpty()) {
        return pmEpsilon;
      }
      return OptionalDouble.of(Math.max(pmEpsilon.getAsDouble(), response.realizedEpsilon()));
    }
  }

  @Override
  public String toString() {
    return "HM{epsilon=" + epsilon() + ", alpha=" + alpha + ", D=" + (2 * duchiUp - 1) + "}";
  }
}
