package io.ogpm.mechanism;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The exact check has teeth: deliberately broken mechanisms fail it. (The same mutations applied to
 * {@link ClassicalOgpm} itself make {@link LdpRatioTest} fail.)
 */
class PrivacyCheckTest {
  /** Theorem 3 with its high density scaled by a factor and the low density renormalised. */
  record WrongDensity(double epsilon, double factor) implements PiecewiseUnitMechanism {
    @Override
    public PiecewiseDistribution distribution(double z) {
      OgpmShape s = OgpmShape.absoluteErrorOptimal(epsilon);
      double high = s.high() * factor;
      double low = (1 - high * s.central()) / (1 - s.central());
      double l = s.centralStart(z);
      return PiecewiseDistribution.ofPieces(
          List.of(
              new PiecewiseDistribution.Piece(0, l, low),
              new PiecewiseDistribution.Piece(l, l + s.central(), high),
              new PiecewiseDistribution.Piece(l + s.central(), 1, low)));
    }

    @Override
    public boolean circular() {
      return false;
    }

    @Override
    public double outputLo() {
      return 0;
    }

    @Override
    public double outputHi() {
      return 1;
    }

    @Override
    public double inverseCdf(double z, double u) {
      return distribution(z).inverseCdf(u);
    }
  }

  /**
   * Theorem 3 with the central piece centred on x but not clamped: the part of it that falls
   * outside [0, 1) is cut off and its mass squeezed into what is left, so near the ends the high
   * density rises.
   */
  record Unclamped(double epsilon) implements PiecewiseUnitMechanism {
    @Override
    public PiecewiseDistribution distribution(double z) {
      OgpmShape s = OgpmShape.absoluteErrorOptimal(epsilon);
      double l = Math.max(0, z - s.central() / 2);
      double r = Math.min(1, z + s.central() / 2);
      double low = s.low();
      double high = (1 - low * (1 - (r - l))) / (r - l);
      return PiecewiseDistribution.ofPieces(
          List.of(
              new PiecewiseDistribution.Piece(0, l, low),
              new PiecewiseDistribution.Piece(l, r, high),
              new PiecewiseDistribution.Piece(r, 1, low)));
    }

    @Override
    public boolean circular() {
      return false;
    }

    @Override
    public double outputLo() {
      return 0;
    }

    @Override
    public double outputHi() {
      return 1;
    }

    @Override
    public double inverseCdf(double z, double u) {
      return distribution(z).inverseCdf(u);
    }
  }

  /** Uniform on [z, z + 1): a support that moves with the input. */
  record Shifted() implements PiecewiseUnitMechanism {
    @Override
    public PiecewiseDistribution distribution(double z) {
      return PiecewiseDistribution.ofPieces(List.of(new PiecewiseDistribution.Piece(z, z + 1, 1)));
    }

    @Override
    public double epsilon() {
      return 1;
    }

    @Override
    public boolean circular() {
      return false;
    }

    @Override
    public double outputLo() {
      return 0;
    }

    @Override
    public double outputHi() {
      return 2;
    }

    @Override
    public double inverseCdf(double z, double u) {
      return z + u;
    }
  }

  @Test
  void aDensityTwentyPercentTooHighFailsTheRatioCheck() {
    // (At eps = 4 the central mass is 0.88, so only a 10 % rise still leaves a valid distribution.)
    double[][] cases = {{0.1, 1.2}, {1, 1.2}, {4, 1.1}};
    for (double[] c : cases) {
      WrongDensity m = new WrongDensity(c[0], c[1]);
      PrivacyCheck.Result r = PrivacyCheck.worstRatio(m, PrivacyCheck.evenInputs(50));
      assertThat(r.worstRatio()).as("eps=%s", c[0]).isGreaterThan(Math.exp(c[0]) * c[1]);
    }
  }

  @Test
  void anUnclampedCentralPieceFailsTheRatioCheck() {
    for (double eps : new double[] {0.1, 1, 4}) {
      PrivacyCheck.Result r =
          PrivacyCheck.worstRatio(new Unclamped(eps), PrivacyCheck.evenInputs(50));
      assertThat(r.worstRatio()).as("eps=%s", eps).isGreaterThan(Math.exp(eps) * 1.01);
    }
  }

  @Test
  void anUnnormalisedDensityIsRejectedOnConstruction() {
    assertThatThrownBy(
            () ->
                PiecewiseDistribution.ofPieces(List.of(new PiecewiseDistribution.Piece(0, 1, 1.2))))
        .hasMessageContaining("total mass must be 1, got 1.2");
  }

  @Test
  void aSupportThatMovesWithTheInputIsAnInfiniteRatio() {
    PiecewiseUnitMechanism shifted = new Shifted();
    assertThat(PrivacyCheck.worstRatio(shifted, new double[] {0, 0.5}).worstRatio()).isInfinite();
  }
}
